"""The ``damier tournament`` command: a Swiss or a round robin played over the board.

A club director keeps one CSV file of the tournament; ``damier tournament FILE`` reads it,
prints the standings with the named tie-breaks and pairs the next round (``--append``
writes that round into the file, its results left empty for the director to fill in).
The pairing and the standings are the server's (:mod:`.pairing`, :mod:`.standings`).

The file, one record a line (blank lines and comments from ``#`` are skipped)::

    system,swiss                 # or round-robin
    rounds,5                     # a Swiss's rounds (a round robin's follow from its players)
    cycles,2                     # a double round robin (optional)
    tie-breaks,buchholz,direct   # instead of the system's own (optional)
    bye,1                        # a Swiss bye's points (default 1; a round robin's 0)
    player,Anna Smit,1850        # name, rating (optional): one line each
    player,Bob Jansen,1720
    player,Carl Bos
    player,Dora Kok,1650
    player,Eva Lam,1600
    withdrawn,Carl Bos           # paired no more (his games to come are lost by default)
    round,1
    Anna Smit,Bob Jansen,1-0     # White, Black, result
    Carl Bos,bye                 # the bye
    Dora Kok,Eva Lam,+/-         # a win by default (no game played)
    round,2
    Bob Jansen,Dora Kok,         # not played yet

Results: ``1-0``, ``0-1``, ``1/2-1/2`` (or ``½-½``, ``=``), ``+/-``, ``-/+`` (a default,
``+-`` and ``-+`` too), ``-/-`` (neither came), or empty while the game goes on.

A Swiss ranks the players by rating (the unrated last), then by their order in the file;
a round robin gives them their Berger numbers in the file's order (draw lots first).

>>> sheet = read_sheet("system,round-robin\\nplayer,A\\nplayer,B\\nplayer,C\\nplayer,D\\n"
...     "round,1\\nA,D,1-0\\nB,C,1/2-1/2\\n")
>>> [(p.white, p.black) for p in next_round(sheet) or []]
[('D', 'C'), ('A', 'B')]
>>> [(s.player, s.score) for s in sheet_standings(sheet)][:2]
[('A', 1.0), ('B', 0.5)]
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from damier.server.services.tournaments.pairing import (
    Pairing,
    SwissPlayer,
    berger_rounds,
    swiss_round,
)
from damier.server.services.tournaments.standings import (
    ROUND_ROBIN_TIES,
    SWISS_TIES,
    TIE_BREAK_NAMES,
    Result,
    Standing,
    TieBreak,
    standings,
)

_COMMENT = re.compile(r"(^|\s)#.*$")
"""A comment: from a ``#`` at the start of a line or after a space."""


class SheetError(ValueError):
    """A tournament file that cannot be read (the message names the line)."""


_RESULTS: dict[str, tuple[float, float, bool]] = {
    "1-0": (1.0, 0.0, True),
    "0-1": (0.0, 1.0, True),
    "1/2-1/2": (0.5, 0.5, True),
    "½-½": (0.5, 0.5, True),
    "=": (0.5, 0.5, True),
    "+/-": (1.0, 0.0, False),
    "+-": (1.0, 0.0, False),
    "-/+": (0.0, 1.0, False),
    "-+": (0.0, 1.0, False),
    "-/-": (0.0, 0.0, False),
    "--": (0.0, 0.0, False),
}


@dataclass
class Game:
    """One board of a round as the file has it."""

    white: str
    black: str | None
    """None: the bye."""
    result: str = ""
    """As written (normalised); empty while not played."""

    @property
    def done(self) -> bool:
        return self.black is None or bool(self.result)


@dataclass
class Sheet:
    """A tournament file read."""

    system: str = "swiss"
    rounds: int = 0
    cycles: int = 1
    tie_breaks: tuple[TieBreak, ...] | None = None
    bye_points: float | None = None
    players: list[str] = field(default_factory=list)
    """In the file's order."""
    ratings: dict[str, int] = field(default_factory=dict)
    withdrawn: set[str] = field(default_factory=set)
    played: list[list[Game]] = field(default_factory=list)
    """The rounds written, from round 1."""

    @property
    def total_rounds(self) -> int:
        if self.system == "round-robin":
            return len(berger_rounds(self.players, self.cycles)) if len(self.players) > 1 else 0
        return self.rounds

    @property
    def order(self) -> tuple[TieBreak, ...]:
        if self.tie_breaks is not None:
            return self.tie_breaks
        return ROUND_ROBIN_TIES if self.system == "round-robin" else SWISS_TIES

    @property
    def bye(self) -> float:
        if self.bye_points is not None:
            return self.bye_points
        return 0.0 if self.system == "round-robin" else 1.0

    def seeds(self) -> list[str]:
        """The players in pairing order: a round robin's Berger numbers (the file's
        order); a Swiss's ranking (rating, then the file's order)."""
        if self.system == "round-robin":
            return list(self.players)
        place = {name: index for index, name in enumerate(self.players)}
        return sorted(self.players, key=lambda name: (-self.ratings.get(name, 0), place[name]))


def read_sheet(text: str) -> Sheet:
    """Read a tournament file (see the module's docstring); raises :class:`SheetError`."""
    sheet = Sheet()
    names: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        row = next(csv.reader([_COMMENT.sub("", line)]), [])
        cells = [cell.strip() for cell in row]
        while cells and not cells[-1]:
            cells.pop()
        if not cells or cells[0].startswith("#"):
            continue
        try:
            _read_row(sheet, names, cells)
        except SheetError as error:
            raise SheetError(f"line {number}: {error}") from None
    if sheet.system == "swiss" and sheet.rounds < 1:
        raise SheetError("a Swiss needs its number of rounds: a line 'rounds,N'")
    if len(sheet.players) < 2:
        raise SheetError("a tournament needs two players: lines 'player,NAME,RATING'")
    return sheet


def _read_row(sheet: Sheet, names: set[str], cells: list[str]) -> None:
    keyword = cells[0].casefold()
    if keyword == "system":
        if len(cells) != 2 or cells[1] not in ("swiss", "round-robin"):
            raise SheetError("the system is 'swiss' or 'round-robin'")
        sheet.system = cells[1]
    elif keyword in ("rounds", "cycles"):
        value = _number(cells, int)
        if value < 1 or (keyword == "cycles" and value > 2):
            raise SheetError(f"not a number of {keyword}: {cells[1]!r}")
        setattr(sheet, keyword, int(value))
    elif keyword == "bye":
        sheet.bye_points = float(_number(cells, float))
    elif keyword == "tie-breaks":
        known = get_args(TieBreak)
        unknown = [name for name in cells[1:] if name not in known]
        if unknown:
            raise SheetError(f"unknown tie-break {unknown[0]!r}: one of {', '.join(known)}")
        sheet.tie_breaks = tuple(cells[1:])  # type: ignore[arg-type]
    elif keyword == "player":
        if len(cells) not in (2, 3) or not cells[1]:
            raise SheetError("a player is 'player,NAME' or 'player,NAME,RATING'")
        if cells[1] in names:
            raise SheetError(f"{cells[1]!r} is entered twice")
        if cells[1].casefold() == "bye":
            raise SheetError("'bye' cannot be a player's name")
        names.add(cells[1])
        sheet.players.append(cells[1])
        if len(cells) == 3:
            sheet.ratings[cells[1]] = int(_number(cells[1:], int))
    elif keyword == "withdrawn":
        for name in cells[1:]:
            _known(names, name)
            sheet.withdrawn.add(name)
    elif keyword == "round":
        if _number(cells, int) != len(sheet.played) + 1:
            raise SheetError(f"round {cells[1]} out of order: round {len(sheet.played) + 1} next")
        sheet.played.append([])
    else:
        if not sheet.played:
            raise SheetError(f"unknown line {','.join(cells)!r}: a game comes after 'round,N'")
        sheet.played[-1].append(_game(sheet, names, cells))


def _number(cells: list[str], kind: type[int] | type[float]) -> float:
    if len(cells) != 2:
        raise SheetError(f"'{cells[0]}' takes one value")
    try:
        return kind(cells[1])
    except ValueError:
        raise SheetError(f"not a number: {cells[1]!r}") from None


def _known(names: set[str], name: str) -> None:
    if name not in names:
        raise SheetError(f"{name!r} is not among the players (a line 'player,{name}' first)")


def _game(sheet: Sheet, names: set[str], cells: list[str]) -> Game:
    white, black = cells[0], cells[1] if len(cells) > 1 else ""
    _known(names, white)
    seated = {name for g in sheet.played[-1] for name in (g.white, g.black) if name}
    bye = black.casefold() in ("", "bye")
    if not bye:
        _known(names, black)
    if white in seated or (not bye and black in seated):
        raise SheetError(f"a player is paired twice in round {len(sheet.played)}")
    if bye:
        if len(cells) > 2:
            raise SheetError(f"a bye has no result: {','.join(cells)!r}")
        return Game(white, None)
    if white == black:
        raise SheetError(f"{white!r} cannot play himself")
    result = cells[2].replace(" ", "") if len(cells) > 2 else ""
    if len(cells) > 3 or (result and result not in _RESULTS):
        raise SheetError(f"not a result: {result!r} (1-0, 0-1, 1/2-1/2, +/-, -/+, -/-)")
    return Game(white, black, result)


def results_of(sheet: Sheet) -> list[Result]:
    """The games with a result, the byes, for the standings."""
    results = []
    for number, games in enumerate(sheet.played, start=1):
        for game in games:
            if game.black is None:
                results.append(Result(number, game.white, None, sheet.bye, 0.0, played=False))
            elif game.result:
                white, black, played = _RESULTS[game.result]
                results.append(Result(number, game.white, game.black, white, black, played))
    return results


def sheet_standings(sheet: Sheet) -> list[Standing]:
    return standings(sheet.seeds(), results_of(sheet), sheet.order)


def pending(sheet: Sheet) -> list[Game]:
    """The games of the last round written that have no result yet."""
    return [game for game in sheet.played[-1] if not game.done] if sheet.played else []


def next_round(sheet: Sheet) -> list[Pairing] | None:
    """The pairings of the next round; None when the last one is not over or the
    tournament is (every round played)."""
    if pending(sheet) or len(sheet.played) >= sheet.total_rounds:
        return None
    if sheet.system == "round-robin":
        return berger_rounds(sheet.players, sheet.cycles)[len(sheet.played)]
    return swiss_round(_swiss_field(sheet))


def _swiss_field(sheet: Sheet) -> list[SwissPlayer]:
    scores = dict.fromkeys(sheet.players, 0.0)
    for result in results_of(sheet):
        scores[result.white] += result.white_points
        if result.black is not None:
            scores[result.black] += result.black_points
    met: dict[str, set[str]] = {name: set() for name in sheet.players}
    colours: dict[str, list[int]] = {name: [] for name in sheet.players}
    byes = set()
    for games in sheet.played:
        for game in games:
            if game.black is None:
                byes.add(game.white)
                continue
            met[game.white].add(game.black)
            met[game.black].add(game.white)
            if game.result and _RESULTS[game.result][2]:  # colours: games played
                colours[game.white].append(0)
                colours[game.black].append(1)
    return [
        SwissPlayer(name, scores[name], met[name], colours[name], name in byes)
        for name in sheet.seeds()
        if name not in sheet.withdrawn
    ]


def round_lines(sheet: Sheet, pairings: list[Pairing]) -> list[str]:
    """A round's pairings as lines of the file: a round robin's games with a withdrawn
    player are written with their result by default."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["round", len(sheet.played) + 1])
    for pairing in pairings:
        if pairing.black is None:
            writer.writerow([pairing.white, "bye"])
            continue
        gone = (pairing.white in sheet.withdrawn, pairing.black in sheet.withdrawn)
        result = {(True, False): "-/+", (False, True): "+/-", (True, True): "-/-"}.get(gone, "")
        writer.writerow([pairing.white, pairing.black, result])
    return out.getvalue().splitlines()


def _points(value: float) -> str:
    """2½ for a score in half points; a tie-break in quarters (Sonneborn-Berger) as 0.25."""
    if abs(value * 2 - round(value * 2)) > 1e-9:
        return f"{value:.2f}".rstrip("0")
    whole, half = divmod(round(value * 2), 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def standings_lines(sheet: Sheet, table: list[Standing]) -> list[str]:
    """The standings as a text table, a column per tie-break (named underneath)."""
    order = sheet.order
    width = max([len(line.player) for line in table] + [6])
    head = f"{'#':>3}  {'Player':<{width}}  {'Rtg':>4}  {'Pts':>4}"
    head += f"  {'G':>2} {'+':>2} {'=':>2} {'-':>2}"
    head += "".join(f"  {'TB' + str(n):>5}" for n in range(1, len(order) + 1))
    lines = [head]
    for line in table:
        rating = sheet.ratings.get(line.player)
        text = (
            f"{line.rank:>3}  {line.player:<{width}}  {rating or '':>4}  {_points(line.score):>4}"
            f"  {line.games:>2} {line.wins:>2} {line.draws:>2} {line.losses:>2}"
        )
        text += "".join(f"  {_points(line.ties[name]):>5}" for name in order)
        if line.player in sheet.withdrawn:
            text += "  (withdrawn)"
        lines.append(text)
    for n, name in enumerate(order, start=1):
        lines.append(f"TB{n}: {TIE_BREAK_NAMES[name]}")
    return lines


def report(sheet: Sheet) -> tuple[list[str], list[Pairing] | None]:
    """What the command prints, and the round it paired (if any)."""
    done, total = len(sheet.played), sheet.total_rounds
    waiting = pending(sheet)
    pairings = next_round(sheet)
    kind = "Round robin" if sheet.system == "round-robin" else "Swiss"
    lines = [f"{kind}, {len(sheet.players)} players, {done} of {total} rounds paired", ""]
    if waiting:
        lines.append(f"Round {done} goes on: no result yet for")
        lines += [f"  {game.white} - {game.black}" for game in waiting]
    elif pairings is not None:
        lines.append(f"Round {done + 1} (lines for the file):")
        lines += [f"  {text}" for text in round_lines(sheet, pairings)]
    else:
        lines.append("The tournament is over: final standings.")
    lines += ["", f"Standings after round {_last_complete(sheet)}:"]
    lines += standings_lines(sheet, sheet_standings(sheet))
    return lines, pairings


def _last_complete(sheet: Sheet) -> int:
    return len(sheet.played) - 1 if pending(sheet) else len(sheet.played)


def _run(args: argparse.Namespace) -> int:
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        print(f"damier: error: cannot read {path}: {error.strerror}", file=sys.stderr)
        return 2
    sheet = read_sheet(text)
    lines, pairings = report(sheet)
    print("\n".join(lines))
    if args.append and pairings is not None:
        ending = "" if text.endswith("\n") or not text else "\n"
        with path.open("a", encoding="utf-8") as out:
            out.write(ending + "\n".join(round_lines(sheet, pairings)) + "\n")
        print(f"\nRound {len(sheet.played) + 1} written to {path}.")
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``damier tournament``."""
    tournament = commands.add_parser(
        "tournament",
        help="pair a Swiss or round robin played over the board, from a CSV file",
        description=(__doc__ or "").split("\n\n>>>")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tournament.add_argument("file", help="the tournament's CSV file")
    tournament.add_argument(
        "--append", action="store_true", help="write the next round's pairings into the file"
    )
    tournament.set_defaults(run=_run)
