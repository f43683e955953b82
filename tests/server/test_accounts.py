"""Registered players: register, log in, log out, profiles and the game archive."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from damier.server.security import COOKIE
from damier.server.store.models import PlayerRow
from tests.server.conftest import AppFactory, FakeTime, another, open_game, sign_in

PASSWORD = "correct horse battery"


def register(client: TestClient, name: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/register", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    profile: dict[str, Any] = answer.json()
    return profile


def test_register_login_logout(client: TestClient) -> None:
    profile = register(client, "Ana")
    assert profile == {"id": profile["id"], "name": "Ana", "registered": True, "ratings": []}
    assert client.get("/api/me").json() == {"id": profile["id"], "name": "Ana", "guest": False}

    out = client.post("/api/logout")
    assert out.status_code == 204
    assert COOKIE not in client.cookies
    assert client.get("/api/me").status_code == 401

    # Another browser logs in; the name is case-insensitive.
    elsewhere = another(client)
    answer = elsewhere.post("/api/login", json={"name": "ANA", "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    assert answer.json()["id"] == profile["id"]
    assert elsewhere.get("/api/me").json() == {"id": profile["id"], "name": "Ana", "guest": False}


def test_wrong_password_and_unknown_name_are_401(client: TestClient) -> None:
    register(client, "Ana")
    client.post("/api/logout")
    for name, password in (("Ana", "not the password"), ("Nobody", PASSWORD)):
        answer = client.post("/api/login", json={"name": name, "password": password})
        assert answer.status_code == 401
        assert answer.json() == {"detail": "wrong name or password"}
    assert client.get("/api/me").status_code == 401


def test_duplicate_name_is_409(client: TestClient) -> None:
    register(client, "Ana")
    other = another(client)
    for name in ("Ana", "ana", "ＡＮＡ"):
        answer = other.post("/api/register", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 409, name
        assert "taken" in answer.json()["detail"]
    # Nor may a guest call himself Ana (tests/server/test_account_security.py).
    assert other.post("/api/session", json={"name": "ana"}).status_code == 409
    sign_in(other, "Anna")
    register(other, "Bo")
    assert other.post("/api/session", json={"name": "ana"}).status_code == 409
    assert other.post("/api/session", json={"name": "Bob"}).status_code == 200
    assert other.post("/api/logout").status_code == 204
    assert other.post("/api/login", json={"name": "bob", "password": PASSWORD}).status_code == 200


def test_registering_twice_is_409(client: TestClient) -> None:
    register(client, "Ana")
    answer = client.post("/api/register", json={"name": "Ana2", "password": PASSWORD})
    assert answer.status_code == 409


def test_bad_credentials_are_400(client: TestClient) -> None:
    for body in (
        {"name": "Ana", "password": "short"},
        {"name": "", "password": PASSWORD},
        {"name": "Ana"},
        {"name": "Ana", "password": "x" * 2000},
    ):
        answer = client.post("/api/register", json=body)
        assert answer.status_code == 400, body
        assert isinstance(answer.json()["detail"], str)


def test_guest_keeps_its_games_after_registering(client: TestClient) -> None:
    guest_id = sign_in(client, "Ana")
    opponent = another(client)
    sign_in(opponent, "Bo")
    game = open_game(client, opponent)
    profile = register(client, "Ana Registered")
    assert profile["id"] == guest_id
    state = client.get(f"/api/games/{game['id']}").json()
    assert state["you"] == "white"
    assert state["white"]["name"] == "Ana Registered"
    archive = client.get(f"/api/players/{guest_id}/games").json()
    assert [g["id"] for g in archive["games"]] == [game["id"]]
    # Logged in again from a fresh browser, the game is still hers to play.
    client.post("/api/logout")
    client.post("/api/login", json={"name": "ana registered", "password": PASSWORD})
    assert client.get(f"/api/games/{game['id']}").json()["you"] == "white"


def test_profile_of_a_guest_and_unknown_player(client: TestClient) -> None:
    guest_id = sign_in(client, "Ana")
    answer = client.get(f"/api/players/{guest_id}")
    assert answer.json() == {"id": guest_id, "name": "Ana", "registered": False, "ratings": []}
    assert client.get("/api/players/nobody").status_code == 404
    assert client.get("/api/players/nobody/games").status_code == 404


def test_archive_is_paged_newest_first(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as client:
        player_id = sign_in(client, "Ana")
        created = []
        for _ in range(5):
            answer = client.post(
                "/api/games", json={"variant": "russian", "opponent": "open", "color": "white"}
            )
            assert answer.status_code == 201
            created.append(answer.json()["id"])
            if len(created) != 3:  # two games share a creation time
                clock.advance(1)
        newest_first = created[::-1]
        seen: list[str] = []
        before = None
        while True:
            query = {"limit": 2} | ({"before": before} if before else {})
            page = client.get(f"/api/players/{player_id}/games", params=query).json()
            assert len(page["games"]) <= 2
            seen += [game["id"] for game in page["games"]]
            before = page["next"]
            if before is None:
                break
        assert sorted(seen) == sorted(created)
        assert len(seen) == 5
        times = [
            g["created"] for g in client.get(f"/api/players/{player_id}/games").json()["games"]
        ]
        assert times == sorted(times, reverse=True)
        assert seen[0] == newest_first[0] and seen[-1] == newest_first[-1]
        # Someone else's games are not in the archive.
        other = another(client)
        sign_in(other, "Bo")
        other.post("/api/games", json={"variant": "russian", "opponent": "open"})
        assert len(client.get(f"/api/players/{player_id}/games").json()["games"]) == 5
        assert client.get(f"/api/players/{player_id}/games?before=nogame").status_code == 404
        assert client.get(f"/api/players/{player_id}/games?limit=0").status_code == 400


def test_login_attempts_are_rate_limited(make_app: AppFactory) -> None:
    with TestClient(make_app(login_capacity=3, login_per_second=0.001)) as client:
        register(client, "Ana")  # one attempt
        client.post("/api/logout")
        codes = [
            client.post(
                "/api/login", json={"name": "Ana", "password": "wrong password"}
            ).status_code
            for _ in range(3)
        ]
        assert codes == [401, 401, 429]
        answer = client.post("/api/login", json={"name": "Ana", "password": PASSWORD})
        assert answer.status_code == 429


def test_password_hashes_are_never_returned_nor_logged(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    profile = register(client, "Ana")
    answers = [
        client.get(f"/api/players/{profile['id']}").text,
        client.get("/api/me").text,
        client.post("/api/login", json={"name": "Ana", "password": PASSWORD}).text,
    ]
    services = client.app.state.services  # type: ignore[attr-defined]

    async def stored_hash() -> str:
        async with services.database.session() as session:
            value: str = (await session.scalars(select(PlayerRow.password_hash))).one()
            return value

    stored = client.portal.call(stored_hash)  # type: ignore[union-attr]
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in stored
    for answer in answers:
        assert "argon2" not in answer and "hash" not in answer
    assert stored not in caplog.text and "$argon2id$v=" not in caplog.text
    assert stored.rsplit("$", 1)[-1] not in caplog.text  # nor the hash's last part
    assert PASSWORD not in caplog.text


def test_database_debug_records_have_hashes_masked(caplog: pytest.LogCaptureFixture) -> None:
    """SQLite's driver logs every statement's values at DEBUG level."""
    import damier.server.services.accounts  # noqa: F401  (installs the filter)

    caplog.set_level(logging.DEBUG, logger="aiosqlite")
    secret = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo"
    logging.getLogger("aiosqlite").debug("executing %r", ("INSERT", ("Ana", secret, 1.0)))
    assert "INSERT" in caplog.text
    assert secret not in caplog.text and "c2FsdHNhbHQ" not in caplog.text
