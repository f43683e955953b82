"""``damier play`` driven by Hypothesis: any sequence of legal moves, undos, draw offers,
acceptances and resignations keeps the game record, the running clock and the saved PDN
right (the PDN replays from the start to the position on the board)."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path
from typing import Any, ClassVar
from unittest.mock import patch

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from damier import play
from damier.game import Game
from damier.notation.pdn import read_pdn


class _Recorded(Game):
    """The game ``play_in_terminal`` makes, kept where the test can look at it."""

    made: ClassVar[list[Game]] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _Recorded.made.append(self)


class _Typist(io.StringIO):
    """Standard input whose next line Hypothesis chooses from what the screen offers, after
    checking the game against the moves typed so far (``played``)."""

    def __init__(self, data: st.DataObject, screen: io.StringIO, variant: str) -> None:
        super().__init__()
        self.data, self.screen, self.variant = data, screen, variant
        self.played: list[str] = []
        self.typed: list[str] = []

    def readline(self, size: int | None = -1) -> str:
        (game,) = _Recorded.made
        assert [e.notation for e in game.events] == self.played
        assert [m.notation for m in game.moves] == self.played
        assert game.clock is not None and game.clock.running == game.turn
        replayed = Game(self.variant)
        for notation in self.played:
            replayed.push(notation)
        assert replayed.board.fen == game.board.fen
        offered = self.screen.getvalue().rsplit("    moves: ", 1)[1].split("\n", 1)[0].split()
        choice = self.data.draw(
            st.sampled_from(["move"] * 6 + ["undo"] * 3 + ["draw"] * 2 + ["resign", "quit"])
        )
        if choice == "move" and offered:
            line = self.data.draw(st.sampled_from(offered))
            self.played.append(line)
        else:
            line = "draw" if choice == "move" else choice
            if choice == "undo" and self.played:
                self.played.pop()
        self.typed.append(line)
        return line + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), variant=st.sampled_from(["russian", "international", "english"]))
def test_record_clock_and_pdn_stay_right(data: st.DataObject, variant: str) -> None:
    _Recorded.made = []
    screen = io.StringIO()
    typist = _Typist(data, screen, variant)
    with tempfile.TemporaryDirectory() as folder, patch.object(play, "Game", _Recorded):
        record = Path(folder) / "game.pdn"
        play.play_in_terminal(variant, None, "5+3", str(record), stdin=typist, stdout=screen)
        text = record.read_text(encoding="utf-8")
    (game,) = _Recorded.made
    assert "the clock runs for" not in screen.getvalue()
    assert [e.notation for e in game.events] == typist.played
    (pdn,) = read_pdn(text)
    assert not pdn.errors
    assert [node.text for node in pdn.moves] == typist.played
    replayed = pdn.replay(variant)
    assert replayed.board.fen == game.board.fen
    expected = "*" if game.result is None else game.result.pdn
    assert pdn.result == expected
    if typist.typed and typist.typed[-1] == "resign" and game.result is not None:
        assert game.result.reason == "resignation"
