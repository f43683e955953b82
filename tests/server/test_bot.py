"""``damier bot``: an engine offers games on the platform, through its HTTP API, and plays
the people who take them."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.board import Move
from damier.cli import main
from damier.game import Game
from damier.protocols.bot import Bot, BotError, Seek
from damier.protocols.engine_match import DamierPlayer, Limits
from damier.protocols.hub_client import EngineError
from damier.rules import get_variant
from tests.server.conftest import another, sign_in, wait_for


def _bot(client: TestClient, clock: str = "5+3") -> tuple[Bot, list[str]]:
    said: list[str] = []
    player = DamierPlayer(get_variant("russian"), level=1)
    bot = Bot(another(client), player, Seek("russian", clock), say=said.append, poll=0.02)
    return bot, said


def _offered(bot: Bot, timeout: float = 30.0) -> str:
    done = threading.Event()
    for _ in range(int(timeout / 0.02)):
        if bot.game_id is not None:
            return bot.game_id
        done.wait(0.02)
    raise AssertionError("the bot offered no game")


def test_the_bot_plays_a_person_declines_a_draw_and_wins_on_resignation(
    client: TestClient,
) -> None:
    bot, said = _bot(client)
    bot.sign_in("Robot")
    ended: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: ended.append(bot.play_game()), daemon=True)
    thread.start()
    game_id = _offered(bot)
    human = another(client)
    sign_in(human, "Ana")
    state = human.post(f"/api/games/{game_id}/join").json()
    mine = state["you"]
    for turn in range(4):
        state = wait_for(human, game_id, lambda s: s["turn"] == mine)
        if turn == 1:  # a draw offered with the move: the bot declines and plays on
            assert human.post(f"/api/games/{game_id}/draw", json={"action": "offer"}).is_success
        move = state["legal_moves"][0]["notation"]
        played = human.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": state["ply"]})
        assert played.is_success, played.text
    state = wait_for(human, game_id, lambda s: s["turn"] == mine)
    assert state["status"] == "playing" and state["draw_offer"] is None
    assert state["ply"] >= 8  # four moves each at least (the bot's answer to every one)
    assert human.post(f"/api/games/{game_id}/resign").is_success
    thread.join(30)
    assert not thread.is_alive()
    (final,) = ended
    bots = "black" if mine == "white" else "white"
    assert final["result"]["winner"] == bots and final["result"]["reason"] == "resignation"
    assert any("Ana joined" in line for line in said)
    assert said[-1] == f"game {game_id}: {final['result']['pdn']} (resignation)"


def test_a_bot_that_stops_withdraws_its_offer(client: TestClient) -> None:
    bot, said = _bot(client)
    bot.sign_in("Robot")
    stop = threading.Event()
    ended: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: ended.append(bot.play_game(stop.is_set)))
    thread.start()
    game_id = _offered(bot)
    stop.set()
    thread.join(30)
    assert said[-1] == f"game {game_id}: withdrawn"
    assert client.get(f"/api/games/{game_id}").json()["status"] == "finished"
    late = another(client)
    sign_in(late, "Ana")
    assert late.post(f"/api/games/{game_id}/join").status_code == 409


def test_an_account_is_made_once_and_a_wrong_password_refused(client: TestClient) -> None:
    bot, _ = _bot(client)
    player_id = bot.sign_in("Robot", "a long secret phrase", register=True)
    again, _ = _bot(client)
    assert again.sign_in("Robot", "a long secret phrase") == player_id
    with pytest.raises(BotError, match="401"):
        again.sign_in("Robot", "not the password")
    with pytest.raises(BotError, match=r"401.*; and as a new account: .*409"):
        again.sign_in("Robot", "not the password", register=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ftp://host"], "give the platform's address"),
        (["http://127.0.0.1:9", "--variant", "tripad"], "games of two players"),
        (["http://127.0.0.1:9", "--clock", "soon"], "clock 'soon'"),
        (["http://127.0.0.1:9", "--clock", ""], "need a clock"),
        (["http://127.0.0.1:9", "--engine", "  "], "empty"),
        (["http://127.0.0.1:9", "--engine", "damier:1"], "the platform does not answer"),
    ],
)
def test_the_command_says_what_is_wrong_in_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert main(["bot", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("damier: error:") and message in err


def test_a_move_refused_because_the_game_ended_meanwhile_ends_the_bot_s_game(
    client: TestClient,
) -> None:
    human = another(client)
    sign_in(human, "Ana")

    class ResignedMeanwhile(DamierPlayer):
        """The opponent resigns while the engine thinks: its move comes too late."""

        def choose(self, game: Game, limits: Limits) -> Move:
            assert human.post(f"/api/games/{bot.game_id}/resign").is_success
            return game.board.legal_moves[0]

    said: list[str] = []
    player = ResignedMeanwhile(get_variant("russian"), level=1)
    bot = Bot(another(client), player, Seek("russian"), say=said.append, poll=0.02)
    bot.sign_in("Robot")
    ended: list[dict[str, Any]] = []
    thread = threading.Thread(target=lambda: ended.append(bot.play_game()), daemon=True)
    thread.start()
    game_id = _offered(bot)
    state = human.post(f"/api/games/{game_id}/join").json()
    if state["turn"] == state["you"]:  # the human moves first: the bot's turn comes next
        move = state["legal_moves"][0]["notation"]
        assert human.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0}).is_success
    thread.join(30)
    (final,) = ended
    assert final["status"] == "finished" and final["result"]["reason"] == "resignation"
    assert any("refused" in line and "reading it again" in line for line in said)


def test_an_engine_that_fails_resigns_the_game_for_the_bot(client: TestClient) -> None:
    class Broken(DamierPlayer):
        def choose(self, game: Game, limits: Limits) -> Move:
            raise EngineError("engine exited with code 3")

    said: list[str] = []
    bot = Bot(another(client), Broken(get_variant("russian"), 1), Seek("russian"), say=said.append)
    bot.poll = 0.02
    bot.sign_in("Robot")
    failed: list[BaseException] = []

    def run() -> None:
        try:
            bot.play_game()
        except EngineError as error:
            failed.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    game_id = _offered(bot)
    human = another(client)
    sign_in(human, "Ana")
    state = human.post(f"/api/games/{game_id}/join").json()
    if state["turn"] == state["you"]:
        move = state["legal_moves"][0]["notation"]
        assert human.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": 0}).is_success
    thread.join(30)
    assert failed and "code 3" in str(failed[0])
    final = human.get(f"/api/games/{game_id}").json()
    assert final["status"] == "finished"  # withdrawn before its first move, or resigned
    assert final["result"]["reason"] in ("aborted", "resignation")
    assert any("the engine failed" in line for line in said)
