"""Games of three and more players: seats filled by people or the computer, moves checked
for the seat to move, resignation as elimination, rankings, restarts and spectators."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.board import Board
from damier.server.services.computer import ComputerPool
from tests.server.conftest import AppFactory, FakeTime, another, receive, sign_in, wait_for

YOU = {"kind": "you"}
OPEN = {"kind": "open"}


def computer(level: int = 1) -> dict[str, Any]:
    return {"kind": "computer", "level": level}


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    answer = client.post("/api/games", json={"variant": "tripad", "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    state: dict[str, Any] = answer.json()
    return state


def three_people(client: TestClient, **extra: Any) -> tuple[dict[str, Any], TestClient, TestClient]:
    """A tripad game of Ana (White), Bob (Black) and Cid (Red), started."""
    sign_in(client, "Ana")
    bob, cid = another(client), another(client)
    sign_in(bob, "Bob")
    sign_in(cid, "Cid")
    state = create(client, [YOU, OPEN, OPEN], **extra)
    assert bob.post(f"/api/games/{state['id']}/join").status_code == 200
    joined = cid.post(f"/api/games/{state['id']}/join")
    assert joined.status_code == 200, joined.text
    return joined.json(), bob, cid


def move(client: TestClient, state: dict[str, Any], index: int = 0) -> dict[str, Any]:
    notation = state["legal_moves"][index]["notation"]
    answer = client.post(
        f"/api/games/{state['id']}/moves", json={"move": notation, "ply": state["ply"]}
    )
    assert answer.status_code == 200, answer.text
    played: dict[str, Any] = answer.json()
    return played


def test_the_variant_sends_every_cell_outline_and_the_seats_turns(client: TestClient) -> None:
    geometry = client.get("/api/variants/tripad").json()["geometry"]
    assert geometry["players"] == 3
    assert len(geometry["cells"]) == 48  # the dark cells play
    assert len(geometry["background"]) == 48  # the light ones are drawn
    cell = geometry["cells"][0]
    assert cell["name"] == "Wa1" and cell["row"] is None and len(cell["polygon"]) == 4
    assert geometry["seat_angles"] == [0.0, 240.0, 120.0]
    assert client.get("/api/variants/cross4").json()["geometry"]["seat_angles"] == [
        0.0,
        270.0,
        180.0,
        90.0,
    ]
    square = client.get("/api/variants/international").json()["geometry"]
    assert square["players"] == 2 and square["seat_angles"] == [0.0, 180.0]
    assert square["cells"][0]["row"] == 0 and square["cells"][0]["column"] == 1


def test_against_two_computers_the_turn_comes_back(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = create(client, [YOU, computer(), computer()])
    assert state["status"] == "playing"
    assert state["players"] == 3
    assert [seat["color"] for seat in state["seats"]] == ["white", "black", "red"]
    assert [seat["kind"] for seat in state["seats"]] == ["human", "computer", "computer"]
    assert state["you"] == "white" and state["turn"] == "white"
    assert state["active"] == ["white", "black", "red"] and state["eliminated"] == []
    state = move(client, state)
    back = wait_for(client, state["id"], lambda s: s["ply"] == 3)
    assert back["turn"] == "white"
    assert [m["ply"] for m in back["moves"]] == [1, 2, 3]
    assert back["legal_moves"]


@pytest.mark.parametrize(
    ("variant", "players"),
    [("radial4+teams", 4), ("radial8", 8), ("cross4-orthogonal", 4), ("hex3", 3)],
)
def test_every_board_goes_round_its_computers(
    client: TestClient, variant: str, players: int
) -> None:
    sign_in(client, "Ana")
    seats = [YOU, *[computer() for _ in range(players - 1)]]
    answer = client.post("/api/games", json={"variant": variant, "seats": seats})
    assert answer.status_code == 201, answer.text
    state = move(client, answer.json())
    back = wait_for(client, state["id"], lambda s: s["ply"] == players)
    assert back["turn"] == "white" and back["legal_moves"]
    assert back["clock"] is None and len(back["seats"]) == players


def test_moves_are_refused_with_reasons(client: TestClient) -> None:
    state, bob, cid = three_people(client)
    game = f"/api/games/{state['id']}"
    eve = another(client)
    sign_in(eve, "Eve")
    assert bob.post(f"{game}/moves", json={"move": "Ba3-Bb4", "ply": 0}).status_code == 409
    answer = client.post(f"{game}/moves", json={"move": "Wa1-Wb4", "ply": 0})
    assert answer.status_code == 400
    assert "Wa3-Wb4" in answer.json()["detail"]  # the legal moves are listed
    assert eve.post(f"{game}/moves", json={"move": "Wa3-Wb4", "ply": 0}).status_code == 403
    assert client.post(f"{game}/moves", json={"move": "Wa3-Wb4", "ply": 1}).status_code == 409
    state = move(client, state)
    assert state["turn"] == "black"
    answer = cid.post(f"{game}/moves", json={"move": state["legal_moves"][0]["notation"], "ply": 1})
    assert answer.status_code == 409 and answer.json()["detail"] == "it is not your turn"


def test_creation_checks_the_seats(client: TestClient) -> None:
    sign_in(client, "Ana")

    def refused(**body: Any) -> str:
        answer = client.post("/api/games", json={"variant": "tripad", **body})
        assert answer.status_code == 400, answer.text
        detail: str = answer.json()["detail"]
        return detail

    assert "seats" in refused()
    assert "3 seats, not 2" in refused(seats=[YOU, OPEN])
    assert "exactly one" in refused(seats=[YOU, YOU, OPEN])
    assert "exactly one" in refused(seats=[OPEN, OPEN, computer()])
    assert "start position" in refused(seats=[YOU, OPEN, OPEN], fen="W:Wz9")
    answer = client.post("/api/games", json={"variant": "tripad", "seats": [YOU, {"kind": "x"}]})
    assert answer.status_code == 400


def test_open_seats_fill_up_from_the_lobby(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = create(client, [computer(), OPEN, YOU])
    assert state["status"] == "open" and state["you"] == "red"
    game = f"/api/games/{state['id']}"
    assert client.post(f"{game}/moves", json={"move": "Wa3-Wb4", "ply": 0}).status_code == 409
    lobby = client.get("/api/games?status=open").json()
    listed = next(summary for summary in lobby if summary["id"] == state["id"])
    assert listed["players"] == 3
    assert [seat["name"] for seat in listed["seats"]] == ["Computer (level 1)", "", "Ana"]
    bob, cid = another(client), another(client)
    sign_in(bob, "Bob")
    sign_in(cid, "Cid")
    assert bob.post(f"{game}/join", json={"seat": 2}).status_code == 409  # Ana's
    assert bob.post(f"{game}/join", json={"seat": 5}).status_code == 400
    joined = bob.post(f"{game}/join", json={"seat": 1}).json()
    assert joined["you"] == "black" and joined["status"] == "playing"
    assert cid.post(f"{game}/join").status_code == 409  # no seat left
    # The computer opens as White, then Bob is to move.
    wait_for(client, state["id"], lambda s: s["turn"] == "black")


def test_resigning_puts_the_player_out_and_the_last_one_wins(client: TestClient) -> None:
    state, bob, cid = three_people(client)
    game = f"/api/games/{state['id']}"
    state = move(client, state)
    assert state["turn"] == "black"
    out = bob.post(f"{game}/resign").json()  # Black resigns on his turn: Red moves
    assert out["status"] == "playing"
    assert out["eliminated"] == [["black"]] and out["active"] == ["white", "red"]
    assert out["turn"] == "red"
    assert bob.post(f"{game}/resign").json()["detail"] == "you are out of this game"
    assert bob.post(f"{game}/moves", json={"move": "x", "ply": 1}).status_code == 409
    state = move(cid, out)
    assert state["turn"] == "white"  # Black is skipped
    end = client.post(f"{game}/resign").json()
    assert end["status"] == "finished"
    assert end["result"] == {
        "pdn": "*",
        "winner": "red",
        "reason": "resignation",
        "ranking": [["red"], ["white"], ["black"]],
    }
    assert end["legal_moves"] == []
    profile = client.get(f"/api/players/{state['seats'][0]['id']}").json()
    assert profile["ratings"] == []  # games of more players are not rated
    archive = bob.get(f"/api/players/{state['seats'][1]['id']}/games").json()["games"]
    assert [summary["id"] for summary in archive] == [state["id"]]


def test_a_game_of_three_survives_a_restart(make_app: AppFactory, database: Path) -> None:
    time = FakeTime()
    with TestClient(make_app(now=time)) as client:
        state, bob, cid = three_people(client, clock="1+0")
        game = f"/api/games/{state['id']}"
        time.advance(5)
        state = move(client, state)
        time.advance(3)
        out = bob.post(f"{game}/resign").json()
        time.advance(2)
        state = move(cid, out)
        cid.post(f"{game}/draw", json={"action": "offer"})
        before = client.get(game).json()
        cookies = dict(cid.cookies)
    # The clock starts with Red's first move (Black is out without a move).
    assert before["clock"]["times"][0::2] == [60.0, 60.0]  # White's and Red's
    assert before["clock"]["running"] == "white"
    assert before["draw_agreed"] == ["red"]
    time.advance(10)
    # No clock ticker in the second life: the fallen flag must be found by the request.
    with TestClient(make_app(now=time, clock_tick=3600)) as client:
        client.cookies.update(cookies)
        again = client.get(game).json()
        assert again["you"] == "red"
        for key in ("fen", "moves", "seats", "active", "eliminated", "ply", "draw_offer"):
            assert again[key] == before[key], key
        assert again["clock"]["times"][0::2] == [50.0, 60.0]
        # White's flag falls while the server is down: found at the next request.
        time.advance(50)
        answer = client.post(f"{game}/draw", json={"action": "decline"})
        assert answer.json()["detail"] == "time is up: white is out of the game"
        finished = client.get(game).json()
        assert finished["status"] == "finished"
        assert finished["result"]["ranking"] == [["red"], ["white"], ["black"]]
        assert finished["result"]["reason"] == "time forfeit"
    with TestClient(make_app(now=time)) as client:
        assert client.get(game).json()["result"] == finished["result"]


def test_the_computer_moves_again_after_a_restart(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never(self: ComputerPool, board: Board, level: int, seconds: float) -> str:
        await asyncio.Event().wait()  # the server stops while White's computer thinks
        raise AssertionError

    monkeypatch.setattr(ComputerPool, "best_move", never)
    with TestClient(make_app()) as client:
        sign_in(client, "Ana")
        state = create(client, [computer(), YOU, computer()])
        cookies = dict(client.cookies)
    monkeypatch.undo()
    with TestClient(make_app()) as client:
        client.cookies.update(cookies)
        back = wait_for(client, state["id"], lambda s: s["turn"] == "black")
        assert back["ply"] == 1 and back["you"] == "black"


def test_spectators_see_the_seats_and_every_move(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = create(client, [YOU, computer(), OPEN])
    eve = another(client)
    with eve.websocket_connect(f"/ws/games/{state['id']}") as socket:
        seen = receive(socket)["game"]
        assert seen["you"] is None and seen["status"] == "open"
        assert [seat["kind"] for seat in seen["seats"]] == ["human", "computer", "human"]
        bob = another(client)
        sign_in(bob, "Bob")
        bob.post(f"/api/games/{state['id']}/join")
        started = receive(socket)["game"]
        assert started["status"] == "playing" and started["seats"][2]["name"] == "Bob"
        move(client, started)
        frames = []
        while not frames or frames[-1]["ply"] < 2:
            frames.append(receive(socket)["game"])
        assert frames[-1]["turn"] == "red"  # the computer has answered for Black
        socket.send_json({"type": "resign"})
        assert receive(socket)["type"] == "error"  # spectators cannot act
        with bob.websocket_connect(f"/ws/games/{state['id']}") as seated:
            mine = receive(seated)["game"]
            assert mine["you"] == "red"
            notation = mine["legal_moves"][0]["notation"]
            seated.send_json({"type": "move", "move": notation, "ply": mine["ply"]})
            assert receive(seated)["game"]["turn"] == "white"
        assert receive(socket)["game"]["moves"][-1]["notation"] == notation


def test_a_start_position_plays_to_the_end(client: TestClient) -> None:
    sign_in(client, "Ana")
    # Every line is forced: White steps up, Black takes him, Red moves, Black takes Red.
    state = create(client, [YOU, computer(), computer()], fen="W:WWa1:BWa3,Bc3:RRa3")
    assert state["start_fen"] == "W:WWa1:BWa3,Bc3:RRa3"
    state = move(client, state)
    end = wait_for(client, state["id"], lambda s: s["status"] == "finished")
    assert end["ply"] == 4
    assert end["eliminated"] == [["white"], ["red"]] and end["active"] == ["black"]
    assert end["result"]["ranking"] == [["black"], ["red"], ["white"]]
    assert end["result"]["winner"] == "black"


def test_the_rematch_moves_everyone_on_one_colour(client: TestClient) -> None:
    state, bob, cid = three_people(client)
    game = f"/api/games/{state['id']}"
    bob.post(f"{game}/resign")
    client.post(f"{game}/resign")
    pdn = client.get(f"{game}/pdn").text
    assert '[White "Ana"]' in pdn and '[Black "Bob"]' in pdn and '[Red "Cid"]' in pdn
    again = cid.post(f"{game}/rematch").json()
    assert again["status"] == "playing" and again["you"] == "white"
    assert [seat["name"] for seat in again["seats"]] == ["Cid", "Ana", "Bob"]
    assert client.post(f"{game}/rematch").json()["id"] == again["id"]
    assert client.get(f"{game}/review").status_code == 409


def test_an_open_game_of_more_players_is_withdrawn_only_before_others_sit(
    client: TestClient,
) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    alone = create(client, [YOU, OPEN, computer()])
    answer = client.post(f"/api/games/{alone['id']}/abort")
    assert answer.status_code == 200 and answer.json()["result"]["reason"] == "aborted"
    shared = create(client, [YOU, OPEN, OPEN])
    assert bob.post(f"/api/games/{shared['id']}/join").status_code == 200
    for player in (client, bob):  # neither may take the game from the other
        answer = player.post(f"/api/games/{shared['id']}/abort")
        assert answer.status_code == 409 and "others have taken seats" in answer.json()["detail"]
