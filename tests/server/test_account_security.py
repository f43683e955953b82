"""Accounts against a hostile client (issue 30): revocable sessions, a log-in throttle
that cannot be turned against the owner, no common passwords, a limit on new guests,
names a guest cannot borrow, security headers, and no cross-site requests."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import select
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from damier.server.routes.pages import STATIC
from damier.server.security import COOKIE
from damier.server.store.models import PlayerRow
from tests.server.conftest import AppFactory, FakeTime, open_game, sign_in

PASSWORD = "correct horse battery"
SECRET = "test-secret-not-for-production"  # conftest's settings


def browser(client: TestClient, address: str = "testclient") -> TestClient:
    """Another browser on the running app, from ``address``."""
    other = TestClient(client.app, client=(address, 50000))
    other.portal = client.portal
    return other


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/register", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    profile: dict[str, Any] = answer.json()
    return profile


def login(client: TestClient, name: str, password: str = PASSWORD) -> int:
    answer = client.post("/api/login", json={"name": name, "password": password})
    return answer.status_code


def me_with(client: TestClient, cookie: str) -> int:
    """The status of ``/api/me`` for a browser that shows ``cookie``."""
    thief = browser(client)
    thief.cookies.set(COOKIE, cookie)
    return thief.get("/api/me").status_code


def test_log_out_and_password_change_revoke_the_session_cookies(client: TestClient) -> None:
    profile = register(client, "Ana")
    stolen = client.cookies[COOKIE]
    assert me_with(client, stolen) == 200
    assert client.post("/api/logout").status_code == 204
    assert me_with(client, stolen) == 401  # the copy no longer works
    assert client.get("/api/me").status_code == 401

    # A cookie of the first form (the id alone) lasts for a guest, not past a log-out.
    old_form = URLSafeSerializer(SECRET, salt="damier-session").dumps(profile["id"])
    assert me_with(client, old_form) == 401
    guest = browser(client)
    guest_id = sign_in(guest, "Bo")
    guest_old_form = URLSafeSerializer(SECRET, salt="damier-session").dumps(guest_id)
    assert me_with(client, guest_old_form) == 200

    # A password change ends the other browsers' sessions, not this one's.
    home, phone = browser(client), browser(client)
    assert login(home, "Ana") == login(phone, "Ana") == 200
    changed = home.post(
        "/api/password", json={"password": PASSWORD, "new_password": "violet lantern orbit"}
    )
    assert changed.status_code == 204, changed.text
    assert home.get("/api/me").json()["id"] == profile["id"]
    assert phone.get("/api/me").status_code == 401
    assert login(browser(client), "Ana") == 401
    assert login(browser(client), "Ana", "violet lantern orbit") == 200
    wrong = home.post(
        "/api/password", json={"password": PASSWORD, "new_password": "another fine phrase"}
    )
    assert wrong.status_code == 401
    assert me_with(client, home.cookies[COOKIE]) == 200
    home.post("/api/logout")
    assert me_with(client, phone.cookies[COOKIE]) == 401


def test_wrong_passwords_from_elsewhere_do_not_lock_the_owner_out(
    make_app: AppFactory,
) -> None:
    clock = FakeTime()
    app = make_app(now=clock, login_capacity=3, login_per_second=0.1, login_pair_capacity=2)
    with TestClient(app) as client:
        register(client, "Ana")
        client.post("/api/logout")
        attacker = browser(client, "203.0.113.6")
        codes = []
        for _ in range(30):  # a try every ten seconds: as fast as the name's bucket refills
            codes.append(login(attacker, "ana", "not her password"))
            clock.advance(10)
        assert codes[:2] == [401, 401]
        assert set(codes[2:]) == {429}  # the attacker's own address is held up
        # The owner, from an address that has not failed, still gets in, and so does
        # a wrong guess of hers give way to the right one.
        owner = browser(client, "198.51.100.1")
        assert login(owner, "Ana", "wrong guess of mine") == 401
        assert login(owner, "Ana") == 200
        # Many addresses, one wrong guess each: the name is then under attack, and an
        # address that failed on it may not try again for a long while...
        for number in range(5):
            assert login(browser(client, f"192.0.2.{number}"), "Ana", "a wrong guess") == 401
        assert login(browser(client, "192.0.2.0"), "Ana", "a wrong guess") == 429
        # ...while one that never failed on it (the owner at a friend's) is let in.
        assert login(browser(client, "198.51.100.77"), "Ana") == 200


def test_common_and_blank_passwords_are_refused(client: TestClient) -> None:
    for password in ("12345678", "password", " " * 8, "\u3000" * 8, "Ana12345", "qwertyuiop"):
        answer = client.post("/api/register", json={"name": "Ana", "password": password})
        assert answer.status_code == 400, password
        assert "password" in answer.json()["detail"]
    register(client, "Ana")
    weak = client.post("/api/password", json={"password": PASSWORD, "new_password": "password1"})
    assert weak.status_code == 400
    assert login(client, "Ana") == 200  # unchanged


def test_new_guests_are_limited_per_address(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock, guest_capacity=3, guest_per_second=0.01)) as client:
        made = []
        for number in range(4):
            fresh = browser(client, "203.0.113.9")  # no cookie: a new guest each time
            made.append(fresh.post("/api/session", json={"name": f"Flood {number}"}))
        assert [answer.status_code for answer in made] == [200, 200, 200, 429]
        assert "too many new guests" in made[-1].json()["detail"]
        # Nor does a request that would make a guest on the way (creating a game).
        game = browser(client, "203.0.113.9").post(
            "/api/games", json={"variant": "russian", "opponent": "open"}
        )
        assert game.status_code == 429
        # A guest with its cookie goes on; other addresses are not held up.
        assert made[0].status_code == 200
        keeper = browser(client, "203.0.113.9")
        keeper.cookies.set(COOKIE, made[0].cookies[COOKIE])
        assert keeper.post("/api/session", json={"name": "Renamed"}).status_code == 200
        assert browser(client, "198.51.100.2").post("/api/session", json={"name": "Bo"}).is_success
        clock.advance(100)  # one more guest's worth of time
        again = browser(client, "203.0.113.9").post("/api/session", json={"name": "Later"})
        assert again.status_code == 200
        # An IPv6 subscriber has a /64 network of addresses: they count as one.
        codes = [
            browser(client, f"2001:db8:5:6::{number}")
            .post("/api/session", json={"name": "Six"})
            .status_code
            for number in range(1, 5)
        ]
        assert codes == [200, 200, 200, 429]
        assert (
            browser(client, "2001:db8:5:7::1").post("/api/session", json={"name": "S"}).is_success
        )


def test_a_registered_name_is_no_guests_and_guests_are_marked(client: TestClient) -> None:
    ana = browser(client)
    register(ana, "Ana")
    impostor = browser(client)
    for name in ("Ana", "ANA", "ａｎａ", "Ａna"):
        answer = impostor.post("/api/session", json={"name": name})
        assert answer.status_code == 409, name
    bob_id = sign_in(impostor, "Bob")
    # Registering a name takes it from the guests that had it.
    registered_bob = browser(client)
    register(registered_bob, "BOB")
    renamed = impostor.get("/api/me").json()
    assert renamed["id"] == bob_id and renamed["guest"] is True
    assert re.fullmatch(r"Guest \d{4}", renamed["name"]), renamed
    assert impostor.post("/api/session", json={"name": "bob"}).status_code == 409

    # Guests are marked where names are shown: the lobby, the seats and the chat.
    waiting = impostor.post("/api/games", json={"variant": "russian", "opponent": "open"})
    assert waiting.status_code == 201
    state = open_game(ana, impostor)
    assert (state["white"]["guest"], state["black"]["guest"]) == (False, True)
    assert [seat["guest"] for seat in state["seats"]] == [False, True]
    (group,) = client.get("/api/now", params={"variant": "russian"}).json()["groups"]
    assert [(entry["name"], entry["guest"]) for entry in group["waiting"]] == [
        (renamed["name"], True)
    ]
    assert [entry["guests"] for entry in group["live"]] == [[False, True]]
    path = f"/ws/games/{state['id']}"
    with ana.websocket_connect(path) as ana_socket, impostor.websocket_connect(path) as socket:
        socket.send_json({"type": "chat", "room": "players", "text": "hello"})
        frame = _chat(ana_socket)
        assert (frame["name"], frame["guest"]) == (renamed["name"], True)
        assert _chat(socket)["guest"] is True  # his own, back
        ana_socket.send_json({"type": "chat", "room": "players", "text": "hi"})
        assert _chat(socket)["guest"] is False


def _chat(socket: Any) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = socket.receive_json()
        if frame["type"] == "chat":
            return frame


def test_every_answer_has_the_security_headers(client: TestClient) -> None:
    answers = [
        client.get("/"),
        client.get("/api/variants"),
        client.get("/static/js/game.js"),
        client.get("/api/games/nosuchgame"),
        client.post("/api/session", json={}),
    ]
    for answer in answers:
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["x-frame-options"] == "DENY"
    # The pages keep to that policy: no inline script, handler or style.
    for page in sorted(Path(STATIC).glob("*.html")):
        html = page.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), page.name
        assert not re.search(r"\son[a-z]+\s*=", html), page.name
        assert not re.search(r"\sstyle\s*=|<style", html), page.name
    for script in sorted((Path(STATIC) / "js").glob("*.js")):
        assert not re.search(r"\bstyle:|setAttribute\(\"style\"", script.read_text()), script.name


def test_cross_site_requests_are_refused(client: TestClient) -> None:
    ana, bob = browser(client), browser(client)
    sign_in(ana, "Ana")
    sign_in(bob, "Bob")
    state = open_game(ana, bob)
    resign = f"/api/games/{state['id']}/resign"
    for headers in (
        {"origin": "https://evil.example"},
        {"referer": "https://evil.example/page.html"},
        {"origin": "null"},
        {"origin": "http://testserver.evil.example"},
    ):
        answer = ana.post(resign, headers=headers)
        assert answer.status_code == 403, headers
        assert "cross-site" in answer.json()["detail"]
    assert ana.post("/api/logout", headers={"origin": "https://evil.example"}).status_code == 403
    assert ana.get(f"/api/games/{state['id']}").json()["status"] == "playing"
    assert ana.get("/api/me").status_code == 200
    # The site's own pages, and clients that send neither header, may.
    assert ana.post(resign, headers={"origin": "http://testserver"}).status_code == 200
    again = open_game(ana, bob)
    assert bob.post(f"/api/games/{again['id']}/resign").status_code == 200
    # A socket opened from another site is refused before it opens.
    for path in (f"/ws/games/{state['id']}", "/ws/analysis"):
        with (
            pytest.raises((WebSocketDisconnect, WebSocketDenialResponse)),
            ana.websocket_connect(path, headers={"origin": "https://evil.example"}),
        ):
            pass


def test_the_migration_folds_names_and_renames_guests_of_registered_names(
    tmp_path: Path,
) -> None:
    """0008: every player gets a name key; a guest called like a registered player is
    renamed; cookies of the first form keep working for the players (generation 0)."""
    from alembic import command
    from sqlalchemy import create_engine, text

    from damier.server.store.db import alembic_config

    path = tmp_path / "old.sqlite3"
    url, engine_url = f"sqlite+aiosqlite:///{path}", f"sqlite:///{path}"

    def upgrade(revision: str) -> None:
        engine = create_engine(engine_url)
        with engine.begin() as connection:
            config = alembic_config(url)
            config.attributes["connection"] = connection
            command.upgrade(config, revision)
        engine.dispose()

    upgrade("0007")
    engine = create_engine(engine_url)
    with engine.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO players (id, name, created, name_key, password_hash)"
                " VALUES ('ana', 'Ana', 0, 'ana', '$argon2id$x'), ('fake', 'ＡＮＡ', 0, NULL,"
                " NULL), ('bo', 'Bo', 0, NULL, NULL)"
            )
        )
    engine.dispose()
    upgrade("0008")
    engine = create_engine(engine_url)
    with engine.connect() as connection:
        rows = {
            row.id: (row.name, row.name_key, row.session_generation)
            for row in connection.execute(select(PlayerRow.__table__))
        }
    engine.dispose()
    assert rows["ana"] == ("Ana", "ana", 0)
    assert rows["bo"] == ("Bo", "bo", 0)
    name, key, _ = rows["fake"]
    assert re.fullmatch(r"Guest \d{4}", name) and key == name.lower()
