"""PDN: a hand-written corpus (tests/game/data), errors with line and column, dump/read
round trips, generated games written and read back, and ``damier pdn check/convert``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from damier import Board
from damier.cli import main
from damier.game import Game, Result
from damier.notation.pdn import (
    MAX_DEPTH,
    MAX_TAG_NAME,
    Node,
    PdnError,
    PdnGame,
    dump_pdn,
    read_pdn,
    write_pdn,
)

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[PdnGame]:
    # newline="" keeps the Windows line endings of russian.pdn for the reader to handle
    with open(DATA / name, encoding="utf-8", newline="") as handle:
        return read_pdn(handle.read())


def texts(nodes: list[Node]) -> list[str]:
    return [node.text for node in nodes]


def shape(nodes: list[Node]) -> list[Any]:
    """Everything the movetext says, recursively, without positions in the file."""
    return [(n.text, n.comments, n.nags, [shape(v) for v in n.variations]) for n in nodes]


def check_variations(board: Board, nodes: list[Node]) -> int:
    """Play a line and every variation in it (each from the position before the move it
    replaces); returns the number of moves played."""
    played = 0
    for node in nodes:
        for variation in node.variations:
            played += check_variations(board.copy(), variation)
        board.push(node.text)
        played += 1
    return played


# -- the corpus ---------------------------------------------------------------------------


def test_international_file() -> None:
    games = load("international.pdn")
    assert len(games) == 3 and all(not g.errors for g in games)
    first, blitz, study = games

    assert first.line == 1
    assert first.tags == {
        "Event": "Club championship",
        "Site": "Utrecht",
        "Date": "2023.03.11",
        "Round": "4",
        "White": "Jansen, P.",
        "Black": "de Vries, K.",
        "Result": "2-0",
        "GameType": "20",
    }
    assert first.comment == "Opening: the {Roozenburg} system, see the {notes {at the end}}"
    assert texts(first.moves) == [
        "32-28", "18-23", "37-32", "12-18", "41-37", "7-12", "34-29",
        "23x34", "40x29", "20-24", "29x20", "15x24", "44-40",
    ]  # fmt: skip
    assert first.moves[2].nags == ["$1"]
    assert first.moves[6].nags == ["!?"]
    assert first.moves[9].nags == ["$2"]
    assert first.moves[11].comments == ["forced"]
    assert [shape(v) for v in first.moves[6].variations] == [
        [
            ("31-26", ["quieter"], [], []),
            ("17-21", [], [], [[("1-7", [], [], []), ("46-41", [], [], [])]]),
            ("26x17", [], [], []),
            ("12x21", [], [], []),
        ]
    ]
    assert [shape(v) for v in first.moves[8].variations] == [
        [("39x30", ["also fine"], [], []), ("20-24", [], [], [])]
    ]
    assert first.result == "2-0"
    assert first.moves[2].line == 11 and first.moves[2].column == 19
    assert check_variations(Board("international"), first.moves) == 13 + 4 + 2 + 2

    assert blitz.line == 15
    assert blitz.tags["Event"] == 'Blitz "Open"'
    assert blitz.variant().name == "international"  # GameType "20,W,10,10,N2,0"
    assert texts(blitz.moves) == ["33-29", "17-22", "38-33", "11-17", "31-27", "22x31", "36x27"]
    assert blitz.result == "1-1"

    assert study.line == 26
    assert texts(study.moves) == ["28x10", "5x14", "46x5"]
    assert study.moves[0].nags == ["??"]
    assert study.moves[0].comments == ["the man takes two, but"]
    game = study.replay()
    # the white king takes the last black man: a real win, not the recorded result
    assert game.result == Result(0, "no pieces")
    assert game.board.fen == "B:WK5:B"


def test_russian_file_with_windows_line_endings() -> None:
    raw = (DATA / "russian.pdn").read_bytes()
    assert b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")
    games = load("russian.pdn")
    assert len(games) == 3 and all(not g.errors for g in games)
    main_line, training, casual = games

    assert main_line.variant().name == "russian"
    assert texts(main_line.moves) == [
        "c3-d4", "f6-e5", "d4xf6", "g7xe5", "b2-c3", "h8-g7", "c3-b4", "e5-f4", "e3xg5", "h6xf4",
    ]  # fmt: skip
    assert main_line.moves[5].comments == ["a main line"]
    assert [shape(v) for v in main_line.moves[6].variations] == [
        [("g3-h4", [], [], []), ("b6-a5", [], [], [])]
    ]
    # line numbers are those of the file, whatever its line endings
    assert main_line.moves[6].line == 10 and main_line.moves[6].column == 63
    assert main_line.moves[7].line == 11
    game = main_line.replay()
    assert game.result == Result(1, "recorded result")
    assert check_variations(Board("russian"), main_line.moves) == 12

    assert training.tags["FEN"] == "W:W22:B18,11"
    assert training.comment == "White's man takes two and Black has nothing left"
    game = training.replay()
    assert game.result == Result(0, "no pieces")
    assert game.board.fen == "B:W8:B"  # c3 (22) over d4 and f6 to g7 (8)

    assert "Result" not in casual.tags and casual.result == "*"
    game = casual.replay()  # numbers are accepted in Russian too
    assert game.result is None and game.ply == 4


def test_move_words_use_one_kind_of_separator() -> None:
    # Russian files write captures with ':' (read as 'x'); a strength mark is the reader's to
    # strip, not the move's. Mixed or doubled separators are not moves.
    (game,) = read_pdn('[GameType "25"]\n1. c3-d4 f6-e5! 2. d4:f6?! g7:e5 *')
    assert not game.errors
    assert texts(game.moves) == ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]
    assert [n.nags for n in game.moves] == [[], ["!"], ["?!"], []]
    assert game.replay().ply == 4
    for word in ["22-18x11", "22--18", "22:18-15"]:
        (game,) = read_pdn(f'[GameType "25"]\n1. {word} *')
        assert [e.message for e in game.errors] == [f"{word!r} is not a move"]


def test_english_file() -> None:
    ballot, adjourned = load("english.pdn")
    assert not ballot.errors and not adjourned.errors
    assert len(ballot.moves) == 12 and ballot.moves[11].comments == ["Old Fourteenth"]
    assert ballot.result == "1-1"
    game = ballot.replay()
    assert game.result == Result(None, "recorded result")
    # Black moved first: 12 plies, White to move
    assert game.board.turn == 1 and game.ply == 12

    assert adjourned.line == 13
    assert adjourned.result == "*"  # no result at all: an unfinished game
    assert texts(adjourned.moves) == ["9-14", "22-18", "5-9", "24-19", "11-16", "18-15", "7-11"]
    assert [shape(v) for v in adjourned.moves[4].variations] == [
        [("10-15", [], [], []), ("19x10", [], [], []), ("6x22", [], [], [])]
    ]
    assert check_variations(Board("english"), adjourned.moves) == 10
    assert adjourned.replay().result is None


def test_other_variants_file() -> None:
    games = load("others.pdn")
    assert [g.variant().name for g in games] == [
        "spanish", "turkish", "croda", "brazilian", "pool",
    ]  # fmt: skip
    assert [g.result for g in games] == ["0-1", "1-0", "*", "2-0", "0-2"]
    spanish, turkish, croda, brazilian, pool = games
    assert spanish.replay().result == Result(1, "recorded result")  # 0-1 is Black's win
    assert turkish.moves[3].comments == ["kings later"]
    assert turkish.replay().result == Result(0, "recorded result")
    assert croda.replay().result is None
    # the movetext stops without a result token; the Result tag still says 2-0
    assert brazilian.tags["Result"] == "2-0"
    assert brazilian.replay().result == Result(0, "recorded result")
    assert pool.replay().board.fen == "B:W18,21,23,24,26-32:B1-10,12"


def test_broken_games_are_reported_and_the_others_load() -> None:
    games = load("broken.pdn")
    assert [g.tags["Event"] for g in games] == [
        "One",
        "Two",
        "Three",
        "Four",
        "Five",
        "Six",
        "Seven",
    ]
    assert [g.line for g in games] == [1, 6, 11, 16, 21, 26, 31]

    def where(errors: list[PdnError]) -> list[tuple[int, int]]:
        return [(e.line, e.column) for e in errors]

    one, two, three, four, five, six, seven = games
    assert not one.errors and one.replay().ply == 2
    # 2: syntactically fine; d4-c5 ignores the compulsory capture d4xf6
    assert not two.errors
    with pytest.raises(PdnError) as error:
        two.replay()
    assert (error.value.line, error.value.column) == (9, 19)
    assert "d4-c5" in error.value.message
    assert where(three.errors) == [(14, 10)]  # a stray }
    assert texts(three.moves) == ["c3-d4", "f6-e5"]
    assert where(four.errors) == [(19, 10)]  # zz
    assert "zz" in four.errors[0].message
    with pytest.raises(PdnError) as error:
        five.replay()  # GameType 99
    assert (error.value.line, error.value.column) == (21, 1)
    assert where(six.errors) == [(29, 25)]  # the comment never ends: read to the next tag
    assert not seven.errors and seven.result == "2-0"
    assert texts(seven.moves) == ["c3-d4", "f6-e5", "d4xf6", "g7xe5"]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ('[Event "x"\n1. 32-28 *', 1, 1, "malformed tag"),
        ("1. 32-28 ) 18-23 *", 1, 10, "closes no variation"),
        ("( 32-28 ) *", 1, 1, "before any move"),
        ("1. 32-28 (1. 33-29 18-23 *", 1, 20, "unclosed variation"),  # its last move
        ("\n\n   1. 32-28 18-23 2. 99-94 *", 3, 22, "99"),
        ("1. 32-28\r\n18-23\r\n  2.28-23 *", 3, 5, "not legal"),
    ],
)
def test_error_positions(text: str, line: int, column: int, words: str) -> None:
    game = read_pdn(text)[0]
    errors = list(game.errors)
    if not errors:
        with pytest.raises(PdnError) as error:
            game.replay()
        errors = [error.value]
    assert (errors[0].line, errors[0].column) == (line, column)
    assert words in errors[0].message
    assert str(errors[0]).startswith(f"line {line}, column {column}: ")


# -- limits -------------------------------------------------------------------------------


def nested(depth: int, after: str = "") -> str:
    """A game whose first move has a variation, which has one, ... ``depth`` deep."""
    return "1. 32-28 " + "(1. 33-28 " * depth + ")" * depth + f" 19-23 *{after}"


def depth_of(nodes: list[Node]) -> int:
    """How deep the variations of a line nest (without calls within calls)."""
    deepest, lines = 0, [(nodes, 0)]
    while lines:
        line, depth = lines.pop()
        deepest = max(deepest, depth)
        lines += [(variation, depth + 1) for node in line for variation in node.variations]
    return deepest


def test_variations_nest_at_most_max_depth() -> None:
    [game] = read_pdn(nested(MAX_DEPTH))
    assert not game.errors and depth_of(game.moves) == MAX_DEPTH
    games = read_pdn(nested(MAX_DEPTH + 1, after=' [Event "next"] 1. 31-27 *'))
    [error] = games[0].errors
    column = len("1. 32-28 ") + MAX_DEPTH * len("(1. 33-28 ") + 1
    assert (error.line, error.column) == (1, column)
    assert error.message == f"variations nest at most {MAX_DEPTH} deep"
    assert depth_of(games[0].moves) == MAX_DEPTH  # the deeper one is skipped
    assert texts(games[0].moves) == ["32-28", "19-23"]  # and the line goes on after it
    assert games[1].tags == {"Event": "next"} and not games[1].errors
    # Far deeper: one error, no deep calls; a result inside the skipped part ends the game.
    [deep] = read_pdn(nested(100_000))
    assert [e.message for e in deep.errors] == [f"variations nest at most {MAX_DEPTH} deep"]
    cut = read_pdn("1. 32-28 " + "(1. 33-28 " * 70 + '* [Event "after"] 1. 31-27 *')
    assert [g.result for g in cut] == ["*", "*"] and cut[1].tags == {"Event": "after"}
    assert read_pdn(nested(3), max_depth=2)[0].errors


def test_tag_names_and_values_cannot_change_what_the_text_says() -> None:
    for name in ('X "a"]\n[Result "2-0"]\n[Y', "1st", "_x", "A" * (MAX_TAG_NAME + 1), ""):
        with pytest.raises(ValueError, match="tag name"):
            dump_pdn(PdnGame(tags={name: "v"}))
    with pytest.raises(ValueError, match="not a PDN result"):
        dump_pdn(PdnGame(result='*\n[Result "2-0"]'))
    record = PdnGame(
        tags={"Event": 'one\n[Result "2-0"]', "A" * MAX_TAG_NAME: "x\r\ny"},
        moves=[Node("32-28", 0, 0, comments=['a} [Result "2-0"] {b', "{kept} {"])],
        comment="}{",
    )
    [again] = read_pdn(dump_pdn(record))
    assert not again.errors
    assert again.tags == {
        "Event": 'one [Result "2-0"]',
        "A" * MAX_TAG_NAME: "x  y",
        "Result": "*",
    }
    assert again.moves[0].comments == ['a [Result "2-0"] b', "{kept}"]
    assert again.comment == ""
    # A file's tag of a name PDN does not allow is an error of its game.
    [read] = read_pdn('[1st "x"]\n[Event "e"]\n1. 32-28 *')
    assert [(e.line, e.message) for e in read.errors] == [
        (1, "tag name '1st' must be letters, digits and underscores, starting with a letter")
    ]
    assert read.tags == {"Event": "e"}


# -- round trips --------------------------------------------------------------------------

CORPUS = ["international.pdn", "russian.pdn", "english.pdn", "others.pdn", "broken.pdn"]


@pytest.mark.parametrize("name", CORPUS)
def test_dump_then_read_keeps_the_meaning(name: str) -> None:
    for game in load(name):
        if game.errors:
            continue
        again = read_pdn(dump_pdn(game))
        assert len(again) == 1
        copy = again[0]
        assert not copy.errors
        assert copy.tags == {**game.tags, "Result": game.result}
        assert copy.comment == game.comment
        assert shape(copy.moves) == shape(game.moves)
        assert copy.result == game.result
        assert dump_pdn(copy) == dump_pdn(game)  # and a second dump is identical


def test_dump_of_a_whole_file_reads_back_game_by_game() -> None:
    games = load("international.pdn") + load("others.pdn")
    text = "\n".join(dump_pdn(g) for g in games)
    again = read_pdn(text)
    assert [shape(g.moves) for g in again] == [shape(g.moves) for g in games]
    assert [g.result for g in again] == [g.result for g in games]


def test_tag_values_with_quotes_and_backslashes() -> None:
    record = PdnGame(tags={"Event": 'say "hi"', "Site": "C:\\games\\", "Annotator": 'a\\"b'})
    again = read_pdn(dump_pdn(record))[0]
    assert not again.errors
    assert again.tags["Event"] == 'say "hi"'
    assert again.tags["Site"] == "C:\\games\\"
    assert again.tags["Annotator"] == 'a\\"b'


def test_write_pdn_numbers_moves_by_the_variants_first_player() -> None:
    # English: Black moves first, so each numbered pair starts with Black's move.
    english = Game("english")
    for move in ["11-15", "23-19", "8-11"]:
        english.push(move)
    assert write_pdn(english).splitlines()[-1] == "1. 11-15 23-19 2. 8-11 *"
    # International from a position with Black to move: the first pair is half played.
    setup = Game("international", "B:W28,32:B19,20")
    for move in ["20-24", "32-27"]:
        setup.push(move)
    lines = write_pdn(setup).splitlines()
    assert '[FEN "B:W28,32:B19,20"]' in lines
    assert lines[-1] == "1... 20-24 2. 32-27 *"


def test_write_pdn_of_a_finished_game() -> None:
    game = Game("russian")
    game.push("c3-d4")
    game.resign(1)
    text = write_pdn(game, {"Event": "E", "White": "W", "Black": "B"})
    record = read_pdn(text)[0]
    assert record.tags["GameType"] == "25"
    assert record.tags["Termination"] == "resignation"
    assert record.tags["Result"] == record.result == "2-0"
    assert texts(record.moves) == ["22-18"]
    assert "FEN" not in record.tags  # the start position needs no FEN


VARIANTS = [
    "international", "brazilian", "russian", "english", "pool", "italian", "spanish",
    "turkish", "croda", "dameo", "international-giveaway", "russian-giveaway", "czech",
]  # fmt: skip

tag_text = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\n\r"),
    max_size=12,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant=st.sampled_from(VARIANTS), length=st.integers(0, 60))
def test_generated_games_round_trip(data: st.DataObject, variant: str, length: int) -> None:
    game = Game(variant)
    if data.draw(st.booleans(), label="from a later position"):
        # start from a position reached by a few random moves (a FEN game)
        for _ in range(data.draw(st.integers(1, 6), label="setup plies")):
            moves = game.board.legal_moves
            if game.result is not None or not moves:
                break
            game.push(moves[data.draw(st.integers(0, len(moves) - 1))])
        if game.result is None:
            game = Game(variant, game.board.fen)
    for _ in range(length):
        if game.result is not None:
            break
        moves = game.board.legal_moves
        game.push(moves[data.draw(st.integers(0, len(moves) - 1), label="move")])
    tags = {"Event": data.draw(tag_text, label="event"), "White": "A", "Black": "B"}
    text = write_pdn(game, tags)
    records = read_pdn(text)
    assert len(records) == 1 and not records[0].errors, text
    record = records[0]
    assert record.tags["Event"] == tags["Event"]
    assert record.variant().name == game.variant.name
    again = record.replay()
    assert again.start_fen == game.start_fen
    assert [m.notation for m in again.moves] == [m.notation for m in game.moves]
    assert again.board.fen == game.board.fen
    if game.result is None:
        assert again.result is None and record.result == "*"
    else:
        assert again.result is not None and again.result.pdn == game.result.pdn


# -- the command line -----------------------------------------------------------------------


def test_cli_check_valid_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pdn", "check", str(DATA / "international.pdn")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1 (line 1): ok, international, 13 moves, 2-0")
    assert out[1].startswith("game 2 (line 15): ok")
    assert out[2].startswith("game 3 (line 26): ok, international, 3 moves, 2-0")
    assert out[-1] == "3 games, 3 valid, 0 with errors"


@pytest.mark.parametrize("name", ["russian.pdn", "english.pdn", "others.pdn"])
def test_cli_check_corpus_files_are_valid(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pdn", "check", str(DATA / name)]) == 0
    assert "with errors" in capsys.readouterr().out


def test_cli_check_broken_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pdn", "check", str(DATA / "broken.pdn")]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("game 1 (line 1): ok, russian, 2 moves")
    errors = [line for line in out if ": error: " in line]
    assert [e.split(": error: ")[0] for e in errors] == [
        "game 2 (line 6)",
        "game 3 (line 11)",
        "game 4 (line 16)",
        "game 5 (line 21)",
        "game 6 (line 26)",
    ]
    assert "line 9, column 19" in errors[0]
    assert "line 14, column 10" in errors[1]
    assert "line 19, column 10" in errors[2]
    assert "line 29, column 25" in errors[4]
    assert out[-2].startswith("game 7 (line 31): ok")
    assert out[-1] == "7 games, 2 valid, 5 with errors"


def test_cli_convert_to_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pdn", "convert", str(DATA / "russian.pdn")]) == 0
    out = capsys.readouterr().out
    flat = " ".join(out.split())
    # c3=22 d4=18 f6=11 e5=15 g7=8 b2=25 h8=4 b4=17 f4=19 e3=23 g5=16 h6=12;
    # the variation too: g3=24 h4=20 b6=9 a5=13
    assert (
        "1. 22-18 11-15 2. 18x11 8x15 3. 25-22 4-8 {a main line} 4. 22-17 "
        "(4. 24-20 9-13) 4... 15-19 5. 23x16 12x19 0-2" in flat
    )
    assert "1. 22x8 2-0" in flat
    assert "{White's man takes two and Black has nothing left}" in flat
    games = read_pdn(out)
    assert len(games) == 3 and all(not g.errors for g in games)
    assert [g.result for g in games] == ["0-2", "2-0", "*"]


def test_cli_convert_skips_broken_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "out.pdn"
    assert main(["pdn", "convert", str(DATA / "broken.pdn"), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert "skipped the game at line 6: line 9, column 19" in err
    assert err.count("skipped the game") == 5
    games = read_pdn(target.read_text())
    assert [g.tags["Event"] for g in games] == ["One", "Seven"]
    assert texts(games[1].moves) == ["22-18", "11-15", "18x11", "8x15"]


def test_cli_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pdn", "check", str(DATA / "no-such-file.pdn")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_file_in_the_windows_programs_encoding_opens() -> None:
    """PDN files of the Windows draughts programs are in Windows-1252: read as such when they
    are not UTF-8, so their accented names come out right and no move is lost."""
    from damier.notation.pdn import decode_pdn

    text = '[White "François"]\n[Black "Gérard – €"]\n\n1. 32-28 19-23 *\n'
    assert decode_pdn(text.encode("utf-8")) == text
    assert decode_pdn(b"\xef\xbb\xbf" + text.encode("utf-8")) == text  # a byte-order mark
    assert decode_pdn(text.encode("cp1252")) == text
    assert decode_pdn(bytes([0x81, 0x41])) == "\x81A"  # no character in Windows-1252: kept
    [game] = read_pdn(decode_pdn(text.encode("cp1252")))
    assert game.tags["Black"] == "Gérard – €" and len(game.replay("international").moves) == 2
