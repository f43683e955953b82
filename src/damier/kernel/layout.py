"""Integer layouts shared by the kernel and the layer above it.

Pieces: 0 is an empty cell; player ``p``'s man is ``2p + 1`` and his king ``2p + 2``, so any
number of players fits in an int8. In a game of ``n`` players, pieces of "player" ``n`` are
dead: they belong to nobody, block, and anyone may capture them.

A generated move is one row of an int32 array:

====================  =====================================================
column                meaning
====================  =====================================================
``FROM``              cell the piece leaves
``TO``                cell it ends on (may equal ``FROM`` after a round trip)
``NCAP``              number of captured pieces
``PIECE``             piece code before the move
``NEW_PIECE``         piece code after the move (differs when crowned)
``NPATH``             number of landing cells (1 for a quiet move)
``CAPS + i``          i-th captured cell, in capture order
``CAPS + maxc + i``   its piece code (for unmake and the choice rule)
``CAPS + 2maxc + i``  i-th landing cell; the last one is ``TO``
====================  =====================================================

A quiet move has no captured cell; its column ``QUIET_KEY`` (= ``CAPS``) holds
``(FROM * cells + TO) * 2 + crowns``, the key of the Board's shared quiet moves.
"""

FROM = 0
TO = 1
NCAP = 2
PIECE = 3
NEW_PIECE = 4
NPATH = 5
CAPS = 6
QUIET_KEY = CAPS  # a quiet move's key, see above


def row_width(max_captures: int) -> int:
    """Width of a move row for a board where at most ``max_captures`` pieces fall at once."""
    return CAPS + 3 * max_captures


# Indices into the ``rules`` integer vector of the kernel tables.
R_PLAYERS = 0
R_MAXC = 1
R_KING_FLYING = 2
R_LAND_NEXT = 3
R_STOP_BEHIND_KING = 4
R_MEN_TAKE_KINGS = 5
R_PROMOTION = 6  # 0 at end of move, 1 continue as king, 2 crowning ends the move
R_IMMEDIATE_REMOVAL = 7
R_NO_REVERSAL = 8
R_LINE_MOVES = 9
R_KING_ORDER = 10
R_CHOICE_COUNT = 11  # number of capture-choice criteria
R_CHOICE = 12  # the criteria, in priority order (4 slots)
R_KING_VALUE = 16  # a king's worth for CHOICE_MOST_VALUE (a man is 100)
R_CROWNING_WINS = 33  # 1: the first player to crown wins (Breakthrough)
R_OPPOSITE = 17  # R_OPPOSITE + d: the direction opposite to d (up to 16 directions)
R_TEAM = 34  # R_TEAM + p: player p's team; p = players is the dead pieces' (no team)
R_TEAMS = R_TEAM + 9  # 1 when some players are partners (team mode)
R_SIZE = R_TEAMS + 1

# Kinds of direction lists in ``Tables.dirs`` and rows of ``Tables.counts``.
MAN_STEP = 0
MAN_CAPTURE = 1
KING_STEP = 2
KING_CAPTURE = 3
CROWN = 4  # counts[CROWN, player, cell] is 1 where that player's men are crowned
AREA = 5  # counts[AREA, 0, cell]: the cell's area; a line entering another area turns round
SHARED = 4  # dirs[SHARED, 0, cell, d]: leading cells of ray d that another label walks too

# Rows of the capture-search work array (``Scratch.work``).
W_CAPS = 0  # captured cells in order
W_CODES = 1  # their piece codes
W_PATH = 2  # landing cells
W_MARKED = 3  # 1 on cells whose piece is already captured in this move

PROMOTE_AT_END = 0
PROMOTE_CONTINUE = 1
PROMOTE_ENDS_MOVE = 2

# Capture-choice criteria, packed into one integer value per capture (higher is better).
CHOICE_MOST_PIECES = 0
CHOICE_WITH_KING = 1
CHOICE_MOST_KINGS = 2
CHOICE_EARLIEST_KING = 3
CHOICE_MOST_VALUE = 4
