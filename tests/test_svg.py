"""``damier.render.svg``: every board as an SVG picture, its pieces where the position has
them, and ``damier show --svg``."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from damier import Board
from damier.cli import main
from damier.render.shapes import centroid
from damier.render.svg import HIGHLIGHT, PIECES, svg
from damier.rules import all_variants
from damier.rules.multiplayer import MULTIPLAYER

NS = "{http://www.w3.org/2000/svg}"


def parsed(picture: str) -> ET.Element:
    root = ET.fromstring(picture)
    assert root.tag == f"{NS}svg"
    return root


def discs(root: ET.Element, kind: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{NS}circle") if e.get("class") == kind]


@pytest.mark.parametrize("variant", [v.name for v in (*all_variants(), *MULTIPLAYER)])
def test_every_variant_draws_each_cell_and_each_piece(variant: str) -> None:
    board = Board(variant)
    root = parsed(svg(board))
    cells = [e for e in root.iter(f"{NS}polygon") if e.get("class") == "cell"]
    assert len(cells) == board.geometry.cell_count
    men = sum(1 for code in board.cells if code and code % 2 == 1)
    kings = sum(1 for code in board.cells if code and code % 2 == 0)
    assert (len(discs(root, "man")), len(discs(root, "king"))) == (men, kings)
    width, height = (float(x) for x in root.get("viewBox", "").split()[2:])
    assert float(root.get("width", "")) == 400 and width > 0 and height > 0


def test_a_piece_is_drawn_on_its_square_and_turns_with_the_board() -> None:
    board = Board("international", "W:WK28:B19")
    polygon = board.geometry.polygons[board.geometry.names.index("28")]
    x, y = centroid(polygon)
    (king,) = discs(parsed(svg(board)), "king")
    assert (float(king.get("cx", "")), float(king.get("cy", ""))) == pytest.approx((x, y), 1e-3)
    assert king.get("fill") == PIECES[0][0]  # White's
    (turned,) = discs(parsed(svg(board, flipped=True)), "king")
    # Half a turn about the middle of the 10x10 board: (x, y) -> (10 - x, 10 - y).
    assert float(turned.get("cx", "")) == pytest.approx(10 - x, abs=1e-3)
    assert float(turned.get("cy", "")) == pytest.approx(10 - y, abs=1e-3)


def test_the_last_move_is_highlighted_and_arrows_follow_a_capture() -> None:
    board = Board("international", "W:WK28:B19,20,30,8")
    capture = board.legal_moves[0]  # 28x34 over 19, 20 and 30: four landings
    root = parsed(svg(board, lastmove=capture, arrows=[capture, (46, 41)]))
    lit = [e for e in root.iter(f"{NS}polygon") if e.get("fill") == HIGHLIGHT]
    assert len(lit) == len(capture.path)
    arrows = [e for e in root.iter(f"{NS}g") if e.get("class") == "arrow"]
    assert len(arrows) == 2
    line = arrows[0].find(f"{NS}polyline")
    assert line is not None and len(line.get("points", "").split()) == len(capture.path)


def test_numbers_files_and_names_are_written() -> None:
    texts = [e.text for e in parsed(svg(Board("international"))).iter(f"{NS}text")]
    assert texts == [str(n) for n in range(1, 51)]
    texts = [e.text for e in parsed(svg(Board("turkish"))).iter(f"{NS}text")]
    assert texts == [*"abcdefgh", *"87654321"]
    texts = [e.text for e in parsed(svg(Board("tripad"))).iter(f"{NS}text")]
    assert "Wd4" in texts and len(texts) == Board("tripad").geometry.cell_count
    assert not list(parsed(svg(Board("russian"), coordinates=False)).iter(f"{NS}text"))


def test_a_board_shows_itself_in_a_notebook_with_its_last_move() -> None:
    board = Board("russian")
    board.push("c3-d4")
    assert board._repr_svg_() == svg(board, lastmove=board.move_stack[-1])


def test_show_writes_the_picture(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "--variant", "hex3", "--svg", "--size", "240"]) == 0
    root = parsed(capsys.readouterr().out)
    assert root.get("width") == "240"
    path = tmp_path / "board.svg"
    assert main(["show", "--variant", "russian", "-o", str(path), "--flipped"]) == 0
    parsed(path.read_text(encoding="utf-8"))


def test_an_arrow_to_no_square_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match=r"no square 99 on the Russian draughts \(shashki\) board"):
        svg(Board("russian"), arrows=[(22, 99)])
