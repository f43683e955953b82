"""The exceptions Damier raises, each refining a builtin so callers can catch broadly."""


class FenError(ValueError):
    """A FEN that cannot describe a position of the variant."""


class IllegalMoveError(ValueError):
    """A move that is not legal in the position (or names no move at all)."""


class AmbiguousMoveError(IllegalMoveError):
    """A short move notation that fits several legal moves; the message lists them."""
