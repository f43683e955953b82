"""The tables: players, their ratings, games, their seats and their moves, matches and
their games. Times are seconds since the epoch."""

from __future__ import annotations

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, false, text, true
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class PlayerRow(Base):
    """A player: a guest (no password) or a registered player."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    created: Mapped[float] = mapped_column(Float)
    name_key: Mapped[str | None] = mapped_column(String(160), index=True)
    """The name folded for comparison (``services.players.name_key``: case and width do
    not count). Unique among registered players (:data:`REGISTERED_NAMES`); a guest's may
    be any but a registered player's."""
    password_hash: Mapped[str | None] = mapped_column(String(255))
    """The argon2id hash of a registered player's password; None for a guest. Never logged
    nor sent to a client."""
    registered: Mapped[float | None] = mapped_column(Float)
    """When the player registered (None for a guest)."""
    session_generation: Mapped[int] = mapped_column(
        Integer, default=0, server_default=text("0"), nullable=False
    )
    """Signed into the session cookie with the id; bumped by a log-out, a registration and
    a password change, which so revoke every cookie made before."""


REGISTERED_NAMES = Index(
    "uq_players_registered_name",
    PlayerRow.name_key,
    unique=True,
    sqlite_where=PlayerRow.password_hash.is_not(None),
    postgresql_where=PlayerRow.password_hash.is_not(None),
)
"""No two registered players have one name key (guests may share theirs)."""


class RatingRow(Base):
    """A registered player's Glicko-2 rating in one variant (``services.ratings``)."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    """Rated games played in the variant."""
    updated: Mapped[float] = mapped_column(Float)


class GameRow(Base):
    """A game: its seats, clock, status and result. The moves are in :class:`MoveRow`; the
    clock columns repeat what replaying them gives, for lists and for the flag-fall query.

    A two-player game keeps its seats in the ``white_*`` and ``black_*`` columns (ratings
    and archives read them); a game of more players keeps them in :class:`SeatRow`."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer, default=2, server_default=text("2"))
    """The variant's number of players: 2, or 3-8 with the seats in :class:`SeatRow`."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open``, ``playing`` or ``finished``."""
    white_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    white_kind: Mapped[str] = mapped_column(String(16))
    """``human`` or ``computer``."""
    white_level: Mapped[int | None] = mapped_column(Integer)
    black_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    black_kind: Mapped[str] = mapped_column(String(16))
    black_level: Mapped[int | None] = mapped_column(Integer)
    clock_control: Mapped[str | None] = mapped_column(String(32))
    """As the client wrote it (``5+3``); None for an untimed game."""
    start_fen: Mapped[str] = mapped_column(Text)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    opening_ply: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The plies of the opening the game started with (a match's): played by nobody, so
    the players' first moves, the first-move deadline and the clock start after them."""
    result_pdn: Mapped[str | None] = mapped_column(String(8))
    result_winner: Mapped[int | None] = mapped_column(Integer)
    result_reason: Mapped[str | None] = mapped_column(String(64))
    draw_offer: Mapped[int | None] = mapped_column(Integer)
    clock_white: Mapped[float | None] = mapped_column(Float)
    """Seconds White had left at ``clock_since``."""
    clock_black: Mapped[float | None] = mapped_column(Float)
    clock_running: Mapped[int | None] = mapped_column(Integer)
    clock_since: Mapped[float | None] = mapped_column(Float)
    """When the stored clock times were taken (the running clock counts down from there)."""
    flag_at: Mapped[float | None] = mapped_column(Float)
    """When the running player's flag falls (None when no clock runs)."""
    created: Mapped[float] = mapped_column(Float, index=True)
    started: Mapped[float | None] = mapped_column(Float)
    """When both seats were taken and the clock started."""
    finished: Mapped[float | None] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    rematch_id: Mapped[str | None] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the result changed the players' ratings (two registered humans)."""
    match_id: Mapped[str | None] = mapped_column(String(32), index=True)
    """The match this game is a game of (None for a single game)."""
    tournament_id: Mapped[str | None] = mapped_column(String(32), index=True)
    """The tournament this game is a game of (``services.tournaments``): like a match's,
    it is never aborted (a first move made too late loses it) and has no rematch."""
    berserk: Mapped[int] = mapped_column(Integer, default=0, server_default=text("0"))
    """A bit per seat whose player went berserk (an arena's): his clock starts with half
    his time."""
    takebacks: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    """Whether takebacks are allowed should the game be rated (unrated games allow them)."""
    takeback_offer: Mapped[int | None] = mapped_column(Integer)
    """The player whose takeback request stands, if any (any move withdraws it)."""
    clock_base_ply: Mapped[int | None] = mapped_column(Integer)
    """After a takeback: the ply the game went back to, at ``clock_base_at``, with the
    players' times then (``clock_base_white``, ``clock_base_black``); a rebuild starts the
    clock there. None: the clock starts with the move that makes every player's first."""
    clock_base_at: Mapped[float | None] = mapped_column(Float)
    clock_base_white: Mapped[float | None] = mapped_column(Float)
    clock_base_black: Mapped[float | None] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, nullable=False)
    """Bumped by every change: a process whose cached game is older rebuilds it, and two
    processes cannot both apply a change to the same version."""

    white: Mapped[PlayerRow | None] = relationship(foreign_keys=[white_id], lazy="joined")
    black: Mapped[PlayerRow | None] = relationship(foreign_keys=[black_id], lazy="joined")
    seats: Mapped[list[SeatRow]] = relationship(
        lazy="selectin", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )
    """The seats of a game of more than two players, by seat number (empty for two)."""

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class SeatRow(Base):
    """One seat of a game of 3-8 players: who sits there, his clock, and how he left."""

    __tablename__ = "game_seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The player number on the board: 0 White, 1 Black, 2 Red, ..."""
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    """None for the computer and for a seat still open."""
    kind: Mapped[str] = mapped_column(String(16))
    """``human`` or ``computer``."""
    level: Mapped[int | None] = mapped_column(Integer)
    clock: Mapped[float | None] = mapped_column(Float)
    """Seconds left at the game's ``clock_since``."""
    forfeit_index: Mapped[int | None] = mapped_column(Integer)
    """Where the player's resignation or time-out stands among the game's events (moves
    and forfeits, from 0), so that a replay puts him out at the same point."""
    forfeit_reason: Mapped[str | None] = mapped_column(String(64))
    forfeit_at: Mapped[float | None] = mapped_column(Float)
    draw: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Whether the player has offered or accepted the standing draw offer."""
    place: Mapped[int | None] = mapped_column(Integer)
    """The final place, 0 first (players sharing a place have the same), once finished."""

    player: Mapped[PlayerRow | None] = relationship(lazy="joined")


class MoveRow(Base):
    """One move of a game, stored with the change it made."""

    __tablename__ = "moves"
    __table_args__ = (Index("ix_moves_ply_notation", "ply", "notation"),)
    """The games that played a move at a ply (the archive's opening filter, the explorer)."""

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the first move."""
    notation: Mapped[str] = mapped_column(String(128))
    at: Mapped[float] = mapped_column(Float)
    """When the server accepted it (the clock was pressed then)."""


class MatchRow(Base):
    """A match of two players (``services.matches``): its format, its players (the first
    has White in game 1), the game being played and the readiness for the next one."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (waiting for the second player), ``playing`` or ``finished``."""
    games: Mapped[int] = mapped_column(Integer)
    """The most games the match has (``damier.match.MatchFormat.games``)."""
    opening_games: Mapped[str] = mapped_column(String(64))
    """The games (from 0, comma-separated) that start from an opening of the deck."""
    deck: Mapped[str | None] = mapped_column(String(64))
    first_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    first_kind: Mapped[str] = mapped_column(String(16))
    first_level: Mapped[int | None] = mapped_column(Integer)
    second_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    second_kind: Mapped[str] = mapped_column(String(16))
    second_level: Mapped[int | None] = mapped_column(Integer)
    clock_control: Mapped[str | None] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(String(32))
    """The game being played, or the last one played (None before the first)."""
    next_at: Mapped[float | None] = mapped_column(Float, index=True)
    """When the coming game starts even if a player is not ready (None: no game waits)."""
    first_ready: Mapped[bool] = mapped_column(Boolean, default=False)
    second_ready: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[float] = mapped_column(Float, index=True)
    updated: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    first: Mapped[PlayerRow | None] = relationship(foreign_keys=[first_id], lazy="joined")
    second: Mapped[PlayerRow | None] = relationship(foreign_keys=[second_id], lazy="joined")
    rounds: Mapped[list[MatchGameRow]] = relationship(
        lazy="selectin", order_by="MatchGameRow.number", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class MatchGameRow(Base):
    """One game of a match: its colours and opening, decided when the game before it ended
    (so that a restart keeps them), then its game and the points it gave."""

    __tablename__ = "match_games"

    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """From 0."""
    first_white: Mapped[bool] = mapped_column(Boolean)
    """Whether the match's first player has White in this game."""
    opening: Mapped[str] = mapped_column(Text)
    """The opening's moves, space-separated (empty: the game starts from the start)."""
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), index=True)
    """None until the game starts."""
    first_points: Mapped[float | None] = mapped_column(Float)
    """The first player's points (1, 0.5, 0) once the game is over."""


class TournamentRow(Base):
    """A tournament (``services.tournaments``): its format, its start, the round being
    played. Its players are :class:`TournamentPlayerRow`, its games
    :class:`TournamentGameRow` (a round's are stored as soon as it is paired)."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    variant: Mapped[str] = mapped_column(String(64))
    clock_control: Mapped[str] = mapped_column(String(32))
    system: Mapped[str] = mapped_column(String(16))
    """``round-robin``, ``swiss`` or ``arena``."""
    cycles: Mapped[int] = mapped_column(Integer, default=1)
    """A round robin's cycles: 1 single, 2 double (colours reversed)."""
    rounds: Mapped[int] = mapped_column(Integer)
    """A Swiss's rounds; a round robin's, once its players are known (0 before)."""
    legs: Mapped[int] = mapped_column(Integer, default=1)
    """Games per pairing: 1, or 2 with the colours swapped."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``coming``, ``playing`` or ``finished``."""
    starts_at: Mapped[float] = mapped_column(Float, index=True)
    ends_at: Mapped[float | None] = mapped_column(Float)
    """When an arena ends (no game starts after it); None for the other systems."""
    round: Mapped[int] = mapped_column(Integer, default=0)
    """The round being played, from 1 (0 before the start); an arena's rounds are the
    batches of games it started at once."""
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    """Set when joining needs a password (a salted hash, never sent to a client)."""
    created: Mapped[float] = mapped_column(Float, index=True)
    updated: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float)
    version: Mapped[int] = mapped_column(Integer, nullable=False)

    creator: Mapped[PlayerRow] = relationship(lazy="joined")
    players: Mapped[list[TournamentPlayerRow]] = relationship(
        lazy="selectin", order_by="TournamentPlayerRow.seed", cascade="all, delete-orphan"
    )
    games: Mapped[list[TournamentGameRow]] = relationship(
        lazy="selectin",
        order_by=lambda: (TournamentGameRow.round, TournamentGameRow.board, TournamentGameRow.leg),
        cascade="all, delete-orphan",
    )

    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012


class TournamentPlayerRow(Base):
    """A player of a tournament."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    seed: Mapped[int] = mapped_column(Integer)
    """The order of entry, from 0: a round robin's numbers in the Berger table, a Swiss's
    rank among equal scores."""
    joined: Mapped[float] = mapped_column(Float)
    withdrawn: Mapped[float | None] = mapped_column(Float)
    """When the player withdrew (or was withdrawn after two forfeits); he is paired no
    more, his games played count."""
    forfeits: Mapped[int] = mapped_column(Integer, default=0)
    """Games lost without making a move."""
    berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    """In an arena: the player goes berserk in the games paired from now on (half his
    time, a point more for a win of at least seven moves)."""

    player: Mapped[PlayerRow] = relationship(lazy="joined")


class TournamentGameRow(Base):
    """One game of a round (a pairing of two legs has two), a bye, or a win by default:
    stored when the round is paired, so that a restart never pairs it again differently."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    """From 1."""
    leg: Mapped[int] = mapped_column(Integer, primary_key=True)
    """0, or 1 for the return game of a two-game pairing (colours swapped)."""
    kind: Mapped[str] = mapped_column(String(16))
    """``game``; ``bye`` (``white_id`` is alone); ``default`` (no game: a player had
    withdrawn, the other wins)."""
    white_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    black_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[str | None] = mapped_column(ForeignKey("games.id"), index=True)
    """None until the game starts."""
    white_points: Mapped[float | None] = mapped_column(Float)
    """None until the game is scored."""
    black_points: Mapped[float | None] = mapped_column(Float)
    berserk: Mapped[int] = mapped_column(Integer, default=0)
    """In an arena: 1 when ``white_id`` went berserk in this game, 2 ``black_id``, 3 both."""
    bonus: Mapped[int] = mapped_column(Integer, default=0)
    """In an arena, once scored: the same bits for the berserk players who won it with at
    least seven moves of their own (a point more)."""


class PuzzleRatingRow(Base):
    """A puzzle's Glicko-2 rating (``services.puzzles``), made at its first rated attempt
    from the rating it was shipped with."""

    __tablename__ = "puzzle_ratings"

    puzzle_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64), index=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    """Rated attempts (a player's first at this puzzle)."""
    solved: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class PuzzlePlayerRow(Base):
    """A player's (or guest's) puzzle rating in one variant, apart from his game rating."""

    __tablename__ = "puzzle_players"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(64), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)
    streak: Mapped[int] = mapped_column(Integer)
    """Rated puzzles solved in a row (a failure sets it back to 0)."""
    best_streak: Mapped[int] = mapped_column(Integer)
    updated: Mapped[float] = mapped_column(Float)


class PuzzleAttemptRow(Base):
    """One finished attempt at a puzzle: solved, failed or given up. Only a player's first
    attempt at a puzzle (``number`` 1) is rated."""

    __tablename__ = "puzzle_attempts"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    puzzle_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    """1 for the player's first attempt at this puzzle, then 2, 3, ..."""
    variant: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)
    solved: Mapped[bool] = mapped_column(Boolean)
    moves: Mapped[str] = mapped_column(Text)
    """The solver's moves played, space-separated (the wrong one last when failed)."""
    rating: Mapped[float | None] = mapped_column(Float)
    """The player's puzzle rating after this attempt, when it was rated."""


PUZZLE_HISTORY = Index(
    "ix_puzzle_attempts_player_variant_at",
    PuzzleAttemptRow.player_id,
    PuzzleAttemptRow.variant,
    PuzzleAttemptRow.at,
)
"""A player's history in one variant is one range of this index."""


class MissedShotRow(Base):
    """A shot missed in a finished game: the position before the move that missed it, as a
    puzzle, and the player's practice of it."""

    __tablename__ = "missed_shots"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    """``shot-<game>-<ply>``: the trainer's id for it."""
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    ply: Mapped[int] = mapped_column(Integer)
    """The move that missed the shot (1 for the game's first move)."""
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    """Who made that move (None for the computer)."""
    variant: Mapped[str] = mapped_column(String(64))
    played: Mapped[str] = mapped_column(String(128))
    """The move played instead of the shot."""
    puzzle: Mapped[str] = mapped_column(Text)
    """The shot as the finder found it (:meth:`Puzzle.to_json`)."""
    found: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    """Finished practice attempts of the player who missed it."""
    solved: Mapped[int] = mapped_column(Integer, default=0)


class ShotSearchRow(Base):
    """A game whose missed shots were searched (none found, or the rows of
    :class:`MissedShotRow`)."""

    __tablename__ = "shot_searches"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)
    shots: Mapped[int] = mapped_column(Integer)


PLAYER_SHOTS = Index("ix_missed_shots_player_found", MissedShotRow.player_id, MissedShotRow.found)
