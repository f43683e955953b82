"""Engine protocols: Hub (stdin/stdout) and DXP (TCP), and engine-versus-engine matches
played through them (``engine_match``)."""
