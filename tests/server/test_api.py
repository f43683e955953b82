"""The HTTP API of docs/PLATFORM.md."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from damier import Board
from damier.notation.pdn import read_pdn
from damier.rules import all_variants
from damier.server.security import COOKIE
from tests.server.conftest import another, open_game, sign_in, wait_for


def test_variants_list_every_variant(client: TestClient) -> None:
    answer = client.get("/api/variants")
    assert answer.status_code == 200
    names = [v["name"] for v in answer.json()]
    assert names == [v.name for v in all_variants()]
    first = answer.json()[0]
    assert set(first) == {
        "name",
        "title",
        "summary",
        "width",
        "height",
        "board",
        "family",
        "players",
        "options",
    }


def test_variants_come_in_families_with_their_options(client: TestClient) -> None:
    variants = {v["name"]: v for v in client.get("/api/variants").json()}
    families = {name: v["family"] for name, v in variants.items()}
    assert families["international"] == families["frisian"] == "10x10"
    assert families["spanish"] == families["english"] == "8x8"
    assert families["canadian"] == "12x12"
    assert families["turkish"] == families["dameo"] == "orthogonal"
    assert families["tripad"] == families["hex3"] == families["radial2"] == "multi-player"
    italian = variants["italian"]["options"]
    assert italian == [{"name": "dark-first", "summary": italian[0]["summary"]}]
    assert "dark side moves first" in italian[0]["summary"]
    assert {o["name"] for o in variants["radial4"]["options"]} >= {"teams", "dead-pieces"}


def test_variant_geometry(client: TestClient) -> None:
    detail = client.get("/api/variants/international").json()
    geometry = detail["geometry"]
    assert (geometry["width"], geometry["height"]) == (10, 10)
    assert len(geometry["cells"]) == 50
    cell = geometry["cells"][0]
    row, column = cell["row"], cell["column"]
    assert cell["name"] == "1"
    assert cell["polygon"] == [
        [column, row],
        [column + 1, row],
        [column + 1, row + 1],
        [column, row + 1],
    ]
    assert geometry["start_fen"] == Board("international").fen
    turkish = client.get("/api/variants/turkish").json()["geometry"]
    assert len(turkish["cells"]) == 64
    assert client.get("/api/variants/nonsense").status_code == 404


def test_session_cookie_is_signed(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    player_id = sign_in(client, "Ana")
    assert client.get("/api/me").json() == {"id": player_id, "name": "Ana", "guest": True}
    cookie = client.cookies[COOKIE]
    assert player_id not in cookie or "." in cookie
    client.cookies.clear()
    client.cookies.set(COOKIE, player_id)  # unsigned: refused
    assert client.get("/api/me").status_code == 401
    client.cookies.set(COOKIE, cookie[:-2] + "xx")  # tampered signature
    assert client.get("/api/me").status_code == 401


def test_bad_session_name_is_400(client: TestClient) -> None:
    answer = client.post("/api/session", json={"name": ""})
    assert answer.status_code == 400
    assert isinstance(answer.json()["detail"], str)
    assert client.post("/api/session", json={"name": "x" * 41}).status_code == 400


def test_game_against_the_computer(client: TestClient) -> None:
    sign_in(client, "Ana")
    answer = client.post(
        "/api/games",
        json={"variant": "russian", "opponent": "computer", "level": 1, "color": "black"},
    )
    assert answer.status_code == 201, answer.text
    state = answer.json()
    assert state["status"] == "playing"
    assert state["you"] == "black"
    assert state["white"]["kind"] == "computer"
    assert state["white"]["level"] == 1
    # The computer has the first move and plays it without being asked.
    state = wait_for(client, state["id"], lambda s: s["ply"] == 1)
    assert state["turn"] == "black"
    assert state["moves"][0]["ply"] == 1
    move = state["legal_moves"][0]["notation"]
    answer = client.post(f"/api/games/{state['id']}/moves", json={"move": move, "ply": 1})
    assert answer.status_code == 200, answer.text
    assert answer.json()["ply"] == 2
    wait_for(client, state["id"], lambda s: s["ply"] == 3)


def test_a_guest_is_created_on_the_fly(client: TestClient) -> None:
    answer = client.post("/api/games", json={"variant": "english", "opponent": "open"})
    assert answer.status_code == 201
    assert client.get("/api/me").status_code == 200
    assert answer.json()["you"] in ("white", "black")


def test_open_game_joined_by_a_second_client(client: TestClient) -> None:
    ana_id = sign_in(client, "Ana")
    created = client.post(
        "/api/games", json={"variant": "international", "opponent": "open", "color": "black"}
    ).json()
    assert created["status"] == "open"
    assert created["black"]["id"] == ana_id
    assert created["white"] == {
        "id": None,
        "name": "",
        "kind": "human",
        "level": None,
        "guest": False,
    }
    assert created["legal_moves"] == []
    listed = client.get("/api/games", params={"status": "open"}).json()
    assert [g["id"] for g in listed] == [created["id"]]

    bob = another(client)
    bob_id = sign_in(bob, "Bob")
    joined = bob.post(f"/api/games/{created['id']}/join")
    assert joined.status_code == 200
    state = joined.json()
    assert state["status"] == "playing"
    assert state["you"] == "white"
    assert state["white"]["id"] == bob_id
    assert len(state["legal_moves"]) == 9
    assert client.get("/api/games", params={"status": "open"}).json() == []
    # A third client cannot take a seat any more.
    carl = another(client)
    sign_in(carl, "Carl")
    assert carl.post(f"/api/games/{created['id']}/join").status_code == 409


def test_moves_are_validated(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob)
    game = f"/api/games/{state['id']}"
    # Illegal: 400 listing the legal moves.
    answer = client.post(f"{game}/moves", json={"move": "1-2", "ply": 0})
    assert answer.status_code == 400
    assert "legal moves" in answer.json()["detail"]
    assert state["legal_moves"][0]["notation"] in answer.json()["detail"]
    # Out of turn: 409.
    move = state["legal_moves"][0]["notation"]
    assert bob.post(f"{game}/moves", json={"move": move, "ply": 0}).status_code == 409
    # Stale ply: 409.
    assert client.post(f"{game}/moves", json={"move": move, "ply": 3}).status_code == 409
    # A spectator: 403 (with or without a session).
    spectator = another(client)
    assert spectator.post(f"{game}/moves", json={"move": move, "ply": 0}).status_code == 403
    sign_in(spectator, "Eve")
    assert spectator.post(f"{game}/moves", json={"move": move, "ply": 0}).status_code == 403
    # Malformed bodies: 400.
    assert client.post(f"{game}/moves", json={"move": move}).status_code == 400
    assert client.post(f"{game}/moves", content=b"{not json").status_code == 400
    assert client.get(game).json()["ply"] == 0
    # Legal, in turn, current ply.
    answer = client.post(f"{game}/moves", json={"move": move, "ply": 0})
    assert answer.status_code == 200
    after = answer.json()
    assert after["ply"] == 1
    assert after["moves"] == [{"ply": 1, **state["legal_moves"][0]}]
    assert after["turn"] == "black"
    assert client.get("/api/games/nothing").status_code == 404


def test_malformed_move_text_is_400_naming_the_fault(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob)
    game = f"/api/games/{state['id']}"
    move = state["legal_moves"][0]["notation"]  # a step: from-to
    start, end = move.split("-")
    for text, words in [
        (f"{move}x", "ends with a separator"),
        (f"{move}-", "ends with a separator"),
        (f"{start}--{end}", "two separators in a row"),
        (f"{start}-x{end}", "two separators in a row"),
        (f"-{move}", "starts with a separator"),
        (f"{start} - {end}", "' '"),
        (f"{move}!", "'!'"),
    ]:
        answer = client.post(f"{game}/moves", json={"move": text, "ply": 0})
        assert answer.status_code == 400, text
        assert words in answer.json()["detail"], text
    assert client.get(game).json()["ply"] == 0
    assert client.post(f"{game}/moves", json={"move": move, "ply": 0}).status_code == 200


def test_resign(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob)
    answer = bob.post(f"/api/games/{state['id']}/resign")
    assert answer.status_code == 200
    result = answer.json()["result"]
    assert result == {"pdn": "2-0", "winner": "white", "reason": "resignation"}
    assert answer.json()["status"] == "finished"
    assert answer.json()["legal_moves"] == []
    assert bob.post(f"/api/games/{state['id']}/resign").status_code == 409
    finished = client.get("/api/games", params={"status": "finished"}).json()
    assert [g["id"] for g in finished] == [state["id"]]
    assert finished[0]["result"]["reason"] == "resignation"


def test_draw_offer_decline_accept(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob)
    draw = f"/api/games/{state['id']}/draw"
    assert bob.post(draw, json={"action": "accept"}).status_code == 409
    offered = client.post(draw, json={"action": "offer"}).json()
    assert offered["draw_offer"] == "white"
    assert client.post(draw, json={"action": "accept"}).status_code == 409  # own offer
    declined = bob.post(draw, json={"action": "decline"}).json()
    assert declined["draw_offer"] is None
    assert declined["status"] == "playing"
    client.post(draw, json={"action": "offer"})
    accepted = bob.post(draw, json={"action": "accept"}).json()
    assert accepted["status"] == "finished"
    assert accepted["result"] == {"pdn": "1-1", "winner": None, "reason": "agreement"}
    assert bob.post(draw, json={"action": "bogus"}).status_code == 400


def test_rematch_swaps_colours(client: TestClient) -> None:
    ana_id = sign_in(client, "Ana")
    bob = another(client)
    bob_id = sign_in(bob, "Bob")
    state = open_game(client, bob)
    assert client.post(f"/api/games/{state['id']}/rematch").status_code == 409  # not over
    client.post(f"/api/games/{state['id']}/resign")
    rematch = client.post(f"/api/games/{state['id']}/rematch")
    assert rematch.status_code == 200
    new = rematch.json()
    assert new["id"] != state["id"]
    assert (new["white"]["id"], new["black"]["id"]) == (bob_id, ana_id)
    assert new["you"] == "black"
    assert new["status"] == "playing"
    # The opponent asking too gets the same game; the old game points to it.
    assert bob.post(f"/api/games/{state['id']}/rematch").json()["id"] == new["id"]
    assert client.get(f"/api/games/{state['id']}").json()["rematch"] == new["id"]


def test_rematch_against_the_computer(client: TestClient) -> None:
    sign_in(client, "Ana")
    state = client.post(
        "/api/games",
        json={"variant": "brazilian", "opponent": "computer", "level": 1, "color": "white"},
    ).json()
    client.post(f"/api/games/{state['id']}/resign")
    new = client.post(f"/api/games/{state['id']}/rematch").json()
    assert new["you"] == "black"
    assert new["white"]["kind"] == "computer"
    wait_for(client, new["id"], lambda s: s["ply"] == 1)


def _play_out(client: TestClient, bob: TestClient, game_id: str, plies: int) -> dict[str, Any]:
    state: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
    for _ in range(plies):
        if state["status"] != "playing":
            break
        mover = client if state["turn"] == "white" else bob
        move = state["legal_moves"][-1]["notation"]
        answer = mover.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": state["ply"]})
        assert answer.status_code == 200, answer.text
        state = answer.json()
    return state


def test_pdn_download_replays(client: TestClient) -> None:
    sign_in(client, "Ana")
    bob = another(client)
    sign_in(bob, "Bob")
    state = open_game(client, bob, variant="international")
    state = _play_out(client, bob, state["id"], 12)
    client.post(f"/api/games/{state['id']}/resign")
    answer = client.get(f"/api/games/{state['id']}/pdn")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    assert "attachment" in answer.headers["content-disposition"]
    (record,) = read_pdn(answer.text)
    assert record.tags["White"] == "Ana"
    assert record.tags["Black"] == "Bob"
    assert record.result == "0-2"
    game = record.replay()
    assert game.board.fen == state["fen"]
    assert [m.notation for m in game.moves] == [m["notation"] for m in state["moves"]]


def test_bad_game_requests(client: TestClient) -> None:
    sign_in(client, "Ana")
    assert client.post("/api/games", json={"variant": "nope"}).status_code == 400
    assert client.post("/api/games", json={"level": 11}).status_code == 400
    assert client.post("/api/games", json={"clock": "soon"}).status_code == 400
    assert client.post("/api/games", json={"clock": "0"}).status_code == 400
    assert client.post("/api/games", json={"extra": 1}).status_code == 400
    assert client.get("/api/games", params={"status": "lost"}).status_code == 400


def test_large_bodies_are_refused(client: TestClient) -> None:
    sign_in(client, "Ana")
    answer = client.post("/api/session", content=b'{"name": "' + b"a" * 20_000 + b'"}')
    assert answer.status_code == 413
    assert answer.json() == {"detail": "request body too large"}


def test_moves_are_rate_limited(make_app: Any) -> None:
    with TestClient(make_app(rate_capacity=5, rate_per_second=0.01)) as client:
        sign_in(client, "Ana")
        state = client.post("/api/games", json={"opponent": "open"}).json()
        codes = [
            client.post(
                f"/api/games/{state['id']}/moves", json={"move": "1-2", "ply": 0}
            ).status_code
            for _ in range(8)
        ]
        assert 429 in codes
        assert codes[-1] == 429


def test_pages_and_openapi(client: TestClient) -> None:
    for path in ("/", "/games/abc", "/rules/international"):
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/html")
    assert client.get("/openapi.json").json()["info"]["title"] == "Damier"
    for page in ("/docs", "/redoc"):  # their scripts come from a CDN: blank offline
        assert client.get(page).status_code == 404
