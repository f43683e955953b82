"""The kernel: move generation, make/unmake, hashing and perft on integer arrays (Numba)."""
