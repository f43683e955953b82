"""What the platform does, apart from HTTP: players, games, the computer opponent."""
