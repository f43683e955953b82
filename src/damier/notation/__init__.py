"""Notation: FEN and PDN, in each variant's own square names."""
