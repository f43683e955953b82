"""Engine protocols: Hub (stdin/stdout) and DXP (TCP)."""
