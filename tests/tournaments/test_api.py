"""Tournaments through the API: a round robin and a Swiss played to the end with moves,
resignations and draws; entries, withdrawals, forfeits, passwords; a restart mid-way."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from damier.server.store.models import RatingRow
from tests.server.conftest import AppFactory, FakeTime, another, sign_in

PASSWORD = "correct horse battery"


def organiser(client: TestClient, name: str = "Org") -> None:
    answer = client.post("/api/register", json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    settings = {"name": "Autumn cup", "variant": "russian", "clock": "5+3", "starts_in": 60}
    answer = client.post("/api/tournaments", json={**settings, **body})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    assert created["status"] == "coming"
    return created


def enter(host: TestClient, tournament: str, names: list[str]) -> dict[str, TestClient]:
    """Each of ``names`` signs in (a guest) and joins; the clients by player id."""
    players = {}
    for name in names:
        client = another(host)
        player_id = sign_in(client, name)
        answer = client.post(f"/api/tournaments/{tournament}/join")
        assert answer.status_code == 200, answer.text
        assert answer.json()["you"]["joined"]
        players[player_id] = client
    return players


def state(client: TestClient, tournament: str) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def play(players: dict[str, TestClient], game_id: str, outcome: str) -> None:
    """Both players make a move, then ``outcome``: ``white`` or ``black`` wins (the other
    resigns) or ``draw`` (offered and accepted)."""
    any_client = next(iter(players.values()))
    game = any_client.get(f"/api/games/{game_id}").json()
    white, black = players[game["white"]["id"]], players[game["black"]["id"]]
    for ply, mover in enumerate((white, black)):
        game = mover.get(f"/api/games/{game_id}").json()
        move = game["legal_moves"][0]["notation"]
        answer = mover.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply})
        assert answer.status_code == 200, answer.text
    if outcome == "draw":
        assert white.post(f"/api/games/{game_id}/draw", json={"action": "offer"}).is_success
        assert black.post(f"/api/games/{game_id}/draw", json={"action": "accept"}).is_success
    else:
        loser = black if outcome == "white" else white
        assert loser.post(f"/api/games/{game_id}/resign").is_success


def play_round(
    players: dict[str, TestClient], tournament: dict[str, Any], rank: dict[str, int]
) -> dict[str, Any]:
    """Play every game of the current round (a return game once it has started): the
    better ``rank`` (lower) wins, equal ranks draw; answers the tournament once it has
    moved on."""
    number, host = tournament["round"], next(iter(players.values()))
    done: set[str] = set()
    deadline = time.monotonic() + 30
    while tournament["round"] == number and tournament["status"] == "playing":
        for board in tournament["pairings"][number - 1]["boards"]:
            for link in board["games"]:
                if link["game"] is None or link["game"] in done:
                    continue
                white = link["white"]
                black = (
                    board["black"]["id"] if white == board["white"]["id"] else board["white"]["id"]
                )
                if rank[white] == rank[black]:
                    outcome = "draw"
                else:
                    outcome = "white" if rank[white] < rank[black] else "black"
                play(players, link["game"], outcome)
                done.add(link["game"])
        assert time.monotonic() < deadline, tournament
        time.sleep(0.05)
        tournament = state(host, tournament["id"])
    return tournament


def wait_round(client: TestClient, tournament: str, number: int) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        current = state(client, tournament)
        if current["round"] > number or current["status"] == "finished":
            return current
        assert time.monotonic() < deadline, current
        time.sleep(0.05)


def test_a_four_player_round_robin_to_the_end(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="round-robin")
        assert created["rounds"] == 0 and created["creator"] == "Org"
        players = enter(host, created["id"], ["Ana", "Bob", "Cid", "Dan"])
        names = {player_id: index for index, player_id in enumerate(players)}
        waiting = state(host, created["id"])
        assert waiting["status"] == "coming" and waiting["players"] == 4
        assert [e["name"] for e in waiting["entrants"]] == ["Ana", "Bob", "Cid", "Dan"]
        clock.advance(61)
        tournament = state(host, created["id"])
        assert tournament["status"] == "playing" and tournament["rounds"] == 3
        first = tournament["pairings"][0]["boards"]
        # Berger round 1 of four: 1-4, 2-3.
        assert [(b["white"]["name"], b["black"]["name"]) for b in first] == [
            ("Ana", "Dan"),
            ("Bob", "Cid"),
        ]
        ana = next(c for p, c in players.items() if names[p] == 0)
        first_game = first[0]["games"][0]["game"]
        assert state(ana, created["id"])["you"]["game"] == first_game
        refused = ana.post(f"/api/games/{first_game}/abort")
        assert refused.status_code == 409 and "tournament" in refused.json()["detail"]
        assert ana.get(f"/api/games/{first_game}").json()["tournament"] == created["id"]
        rank = dict(names)
        rank[next(p for p in names if names[p] == 3)] = 2  # Cid and Dan draw their game
        for _ in range(3):
            tournament = play_round(players, tournament, rank)
        assert tournament["status"] == "finished"
        table = [(s["name"], s["score"], s["rank"]) for s in tournament["standings"]]
        assert table == [("Ana", 3.0, 1), ("Bob", 2.0, 2), ("Cid", 0.5, 3), ("Dan", 0.5, 3)]
        assert tournament["tie_breaks"][0]["key"] == "direct"
        assert tournament["winner"] == "Ana"
        rematch = ana.post(f"/api/games/{first_game}/rematch")
        assert rematch.status_code == 409 and "tournament" in rematch.json()["detail"]
        cross = {row["name"]: row["cells"] for row in tournament["crosstable"]}
        assert cross["Ana"] == ["×", "1", "1", "1"]
        assert cross["Cid"] == ["0", "0", "×", "½"]
        pdn = host.get(f"/api/tournaments/{created['id']}/pdn")
        assert pdn.status_code == 200
        assert pdn.text.count('[Event "Autumn cup"]') == 6
        assert '[Round "3"]' in pdn.text and '[Board "2"]' in pdn.text
        listed = host.get("/api/tournaments").json()
        assert [t["id"] for t in listed["finished"]] == [created["id"]]


def test_a_five_player_swiss_of_three_rounds(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="swiss", rounds=3)
        players = enter(host, created["id"], ["Ana", "Bob", "Cid", "Dan", "Eve"])
        rank = {player_id: index for index, player_id in enumerate(players)}
        clock.advance(61)
        tournament = state(host, created["id"])
        for _ in range(3):
            tournament = play_round(players, tournament, rank)
        assert tournament["status"] == "finished" and len(tournament["pairings"]) == 3
        met: set[frozenset[str]] = set()
        byes: list[str] = []
        for round_ in tournament["pairings"]:
            seated = []
            for board in round_["boards"]:
                seated.append(board["white"]["id"])
                if board["black"] is None:
                    assert board["kind"] == "bye" and board["white_points"] == 1.0
                    byes.append(board["white"]["id"])
                    continue
                seated.append(board["black"]["id"])
                pair = frozenset((board["white"]["id"], board["black"]["id"]))
                assert pair not in met, "a rematch"
                met.add(pair)
            assert sorted(seated) == sorted(players)
        assert len(byes) == len(set(byes)) == 3
        scores = {s["id"]: s["score"] for s in tournament["standings"]}
        assert sum(scores.values()) == 3 * 2 + 3  # two games and a bye a round
        assert tournament["standings"][0]["name"] == "Ana" and scores[byes[0]] >= 1
        for line in tournament["standings"]:
            assert set(line["ties"]) == {
                "buchholz",
                "median-buchholz",
                "sonneborn-berger",
                "direct",
            }


def test_who_may_create_join_and_withdraw(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock, tournament_creators="Org")) as host:
        guest = another(host)
        sign_in(guest, "Gus")
        body = {"name": "x", "variant": "russian", "clock": "5+3", "system": "round-robin"}
        refused = guest.post("/api/tournaments", json=body)
        assert refused.status_code == 403 and "registered" in refused.json()["detail"]
        other = another(host)
        organiser(other, "Someone")
        assert other.post("/api/tournaments", json=body).status_code == 403
        organiser(host)
        no_clock = host.post("/api/tournaments", json={**body, "clock": ""})
        assert no_clock.status_code == 400
        swiss = host.post("/api/tournaments", json={**body, "system": "swiss"})
        assert swiss.status_code == 400 and "rounds" in swiss.json()["detail"]
        created = create(host, system="round-robin", password="sesame")
        assert created["private"]
        tid = created["id"]
        assert guest.post(f"/api/tournaments/{tid}/join").status_code == 403
        wrong = guest.post(f"/api/tournaments/{tid}/join", json={"password": "nope"})
        assert wrong.status_code == 403
        joined = guest.post(f"/api/tournaments/{tid}/join", json={"password": "sesame"})
        assert joined.status_code == 200 and joined.json()["players"] == 1
        left = guest.post(f"/api/tournaments/{tid}/withdraw")
        assert left.status_code == 200 and left.json()["players"] == 0
        assert not left.json()["you"]["joined"]
        clock.advance(61)
        cancelled = state(host, tid)
        assert cancelled["status"] == "finished" and cancelled["cancelled"]
        assert (
            guest.post(f"/api/tournaments/{tid}/join", json={"password": "sesame"}).status_code
            == 409
        )


def test_a_player_who_leaves_forfeits_and_is_withdrawn_after_two(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="swiss", rounds=4)
        players = enter(host, created["id"], ["Ana", "Bob", "Cid", "Dan"])
        absent = list(players)[3]  # Dan never moves
        rank = {player_id: index for index, player_id in enumerate(players)}
        clock.advance(61)
        tournament = state(host, created["id"])
        for number in (1, 2):
            for board in tournament["pairings"][number - 1]["boards"]:
                game = board["games"][0]["game"]
                ids = {board["white"]["id"], board["black"]["id"]}
                if absent in ids:
                    if board["white"]["id"] != absent:  # his opponent moves, he does not
                        mover = players[board["white"]["id"]]
                        move = mover.get(f"/api/games/{game}").json()["legal_moves"][0]
                        body = {"move": move["notation"], "ply": 0}
                        assert mover.post(f"/api/games/{game}/moves", json=body).is_success
                    continue
                white, black = board["white"]["id"], board["black"]["id"]
                play(players, game, "white" if rank[white] < rank[black] else "black")
            # Dan does not move: his game is lost when his first-move time runs out.
            clock.advance(host.app.state.settings.first_move_seconds + 1)
            tournament = wait_round(host, created["id"], number)
        lost = next(
            b["games"][0]["game"]
            for b in tournament["pairings"][0]["boards"]
            if absent in (b["white"]["id"], b["black"]["id"])
        )
        game = host.get(f"/api/games/{lost}").json()
        assert game["tournament"] == created["id"]
        assert game["result"]["reason"] == "time forfeit"  # lost, not aborted
        dan = next(s for s in tournament["standings"] if s["id"] == absent)
        assert dan["score"] == 0 and dan["withdrawn"]
        assert absent not in [e["id"] for e in tournament["entrants"]]
        third = tournament["pairings"][2]["boards"]
        assert all(absent not in (b["white"]["id"], (b["black"] or {}).get("id")) for b in third)
        assert any(b["kind"] == "bye" for b in third)  # three players left


def test_a_tournament_survives_a_restart(make_app: AppFactory, database: Path) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="swiss", rounds=3, games=2)
        players = enter(host, created["id"], ["Ana", "Bob", "Cid", "Dan"])
        rank = {player_id: index for index, player_id in enumerate(players)}
        clock.advance(61)
        tournament = state(host, created["id"])
        board = tournament["pairings"][0]["boards"][0]
        assert [g["leg"] for g in board["games"]] == [0, 1]
        assert board["games"][1]["game"] is None  # the return game waits for the first
        tournament = play_round(players, tournament, rank)
        second = tournament["pairings"][1]
        cookies = {p: dict(c.cookies) for p, c in players.items()}
        host_cookies = dict(host.cookies)
    with TestClient(make_app(now=clock)) as host:
        host.cookies.update(host_cookies)
        again = {}
        for player_id, jar in cookies.items():
            client = another(host)
            client.cookies.update(jar)
            again[player_id] = client
        tournament = state(host, created["id"])
        assert tournament["round"] == 2 and tournament["pairings"][1] == second
        tournament = play_round(again, tournament, rank)
        tournament = play_round(again, tournament, rank)
        assert tournament["status"] == "finished"
        assert tournament["standings"][0]["name"] == "Ana"
        assert tournament["standings"][0]["score"] == 6.0  # two wins in each of 3 rounds
        pdn = host.get(f"/api/tournaments/{created['id']}/pdn").text
        assert pdn.count("[Event ") == 12 and '[Round "3.2"]' in pdn


@pytest.mark.parametrize("system", ["round-robin", "swiss"])
def test_an_unknown_tournament_is_404(client: TestClient, system: str) -> None:
    assert client.get("/api/tournaments/nope").status_code == 404


def test_a_swiss_takes_late_entries_and_withdrawals(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="swiss", rounds=3)
        tid = created["id"]
        players = enter(host, tid, ["Ana", "Bob", "Cid", "Dan"])
        rank = {player_id: index for index, player_id in enumerate(players)}
        clock.advance(61)
        tournament = play_round(players, state(host, tid), rank)
        late = enter(host, tid, ["Eve"])  # paired from round 2, no points for round 1
        players.update(late)
        eve = next(iter(late))
        rank[eve] = 4
        assert tournament["round"] == 2
        assert all(
            eve not in (b["white"]["id"], (b["black"] or {}).get("id"))
            for b in tournament["pairings"][1]["boards"]
        )
        tournament = state(host, tid)
        bob = list(players)[1]
        left = players[bob].post(f"/api/tournaments/{tid}/withdraw")
        assert left.status_code == 200 and left.json()["you"]["withdrawn"]
        tournament = play_round(players, tournament, rank)  # Bob's game is played still
        third = tournament["pairings"][2]["boards"]
        seated = {b["white"]["id"] for b in third} | {b["black"]["id"] for b in third if b["black"]}
        assert eve in seated and bob not in seated and len(seated) == 4
        tournament = play_round(players, tournament, rank)
        assert tournament["status"] == "finished"
        line = {s["id"]: s for s in tournament["standings"]}
        assert line[bob]["withdrawn"] and line[bob]["games"] == 2
        assert line[eve]["games"] == 1


def boards_of(tournament: dict[str, Any], number: int) -> list[dict[str, Any]]:
    boards: list[dict[str, Any]] = tournament["pairings"][number - 1]["boards"]
    return boards


def win_for(players: dict[str, TestClient], board: dict[str, Any], winner: str) -> None:
    """Play the board's game to a win of ``winner`` (a player id)."""
    outcome = "white" if board["white"]["id"] == winner else "black"
    play(players, board["games"][0]["game"], outcome)


def test_an_arena_pairs_free_players_at_once_and_doubles_on_fire(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        refused = host.post(
            "/api/tournaments",
            json={"name": "a", "variant": "russian", "clock": "3+2", "system": "arena"},
        )
        assert refused.status_code == 400 and "minutes" in refused.json()["detail"]
        created = create(host, system="arena", minutes=10)
        tid = created["id"]
        assert created["ends_at"] == created["starts_at"] + 600
        players = enter(host, tid, ["Ana", "Bob", "Cid", "Dan"])
        clock.advance(61)
        tournament = state(host, tid)
        assert tournament["status"] == "playing" and len(boards_of(tournament, 1)) == 2
        first, second = boards_of(tournament, 1)
        hero, foe = first["white"]["id"], first["black"]["id"]
        for number in (1, 2, 3):  # the first pair is paired again each time it is free
            board = next(
                b
                for b in boards_of(tournament, number)
                if hero in (b["white"]["id"], b["black"]["id"])
            )
            win_for(players, board, hero)
            tournament = wait_round(host, tid, number)
            assert {board["white"]["id"], board["black"]["id"]} == {hero, foe}
        line = {s["id"]: s for s in tournament["standings"]}
        assert line[hero]["score"] == 2 + 2 + 4 and line[hero]["fire"]
        assert (line[hero]["wins"], line[hero]["losses"]) == (3, 0)
        assert line[foe]["score"] == 0 and not line[foe]["fire"]
        # The other pair draws: both are free, and paired at once with each other.
        play(players, second["games"][0]["game"], "draw")
        tournament = wait_round(host, tid, 4)
        fifth = boards_of(tournament, 5)
        assert len(fifth) == 1
        assert {fifth[0]["white"]["id"], fifth[0]["black"]["id"]} == {
            second["white"]["id"],
            second["black"]["id"],
        }
        # The time is up: no game starts any more; those being played end (here on time,
        # nobody moving) and count.
        clock.advance(600)
        deadline = time.monotonic() + 30
        while tournament["status"] != "finished":
            assert time.monotonic() < deadline, tournament
            time.sleep(0.05)
            tournament = state(host, tid)
        assert len(tournament["pairings"]) == 5
        assert tournament["standings"][0]["id"] == hero
        assert tournament["crosstable"] == [] and tournament["tie_breaks"] == []
        late = another(host)
        sign_in(late, "Zoe")
        assert late.post(f"/api/tournaments/{tid}/join").status_code == 409


def test_a_berserk_player_has_half_his_time_and_a_point_more_for_a_long_win(
    make_app: AppFactory,
) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="arena", minutes=30, clock="3+2")
        tid = created["id"]
        players = enter(host, tid, ["Ana", "Bob"])
        ana, bob = list(players)
        swiss = create(host, system="swiss", rounds=1)
        assert (
            players[ana]
            .post(f"/api/tournaments/{swiss['id']}/berserk", json={"on": True})
            .status_code
            == 400
        )
        chose = players[ana].post(f"/api/tournaments/{tid}/berserk", json={"on": True})
        assert chose.status_code == 200 and chose.json()["you"]["berserk"]
        clock.advance(61)
        tournament = state(host, tid)
        board = boards_of(tournament, 1)[0]
        assert board["berserk"] == (1 if board["white"]["id"] == ana else 2)
        game_id = board["games"][0]["game"]
        game = host.get(f"/api/games/{game_id}").json()
        movers = {game["white"]["id"]: players[game["white"]["id"]]}
        movers[game["black"]["id"]] = players[game["black"]["id"]]
        for ply in range(14):  # seven moves each: the clock starts after the first two
            mover = movers[game["white"]["id"] if ply % 2 == 0 else game["black"]["id"]]
            game = mover.get(f"/api/games/{game_id}").json()
            move = game["legal_moves"][0]["notation"]
            answer = mover.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": ply})
            assert answer.status_code == 200, answer.text
            game = answer.json()
            if ply == 1:
                times = {game["white"]["id"]: game["clock"]["white"]}
                times[game["black"]["id"]] = game["clock"]["black"]
                assert times[ana] == 90 and times[bob] == 180
        assert players[bob].post(f"/api/games/{game_id}/resign").is_success
        tournament = wait_round(host, tid, 1)
        line = {s["id"]: s for s in tournament["standings"]}
        assert line[ana]["score"] == 2 + 1 and boards_of(tournament, 1)[0]["bonus"]
        # A short berserk win earns no extra point.
        board = boards_of(tournament, 2)[0]
        win_for(players, board, ana)
        tournament = wait_round(host, tid, 2)
        line = {s["id"]: s for s in tournament["standings"]}
        assert line[ana]["score"] == 3 + 2 and not boards_of(tournament, 2)[0]["bonus"]


@pytest.mark.slow  # a long run (the default run stays under 5 minutes)
def test_two_servers_on_one_database_pair_a_round_once(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as first, TestClient(make_app(now=clock)) as second:
        organiser(first)
        created = create(first, system="swiss", rounds=2)
        tid = created["id"]
        players = enter(first, tid, ["Ana", "Bob", "Cid", "Dan", "Eve", "Fay"])
        rank = {player_id: index for index, player_id in enumerate(players)}
        clock.advance(61)  # both servers' clock tasks race to start it
        deadline = time.monotonic() + 30
        while (tournament := state(second, tid))["status"] != "playing":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.5)  # let the other clock task try too
        tournament = state(first, tid)
        boards = boards_of(tournament, 1)
        assert len(boards) == 3 and all(b["games"][0]["game"] for b in boards)
        playing = second.get("/api/games", params={"status": "playing"}).json()
        assert sorted(g["id"] for g in playing) == sorted(b["games"][0]["game"] for b in boards)
        tournament = play_round(players, tournament, rank)
        time.sleep(0.5)
        again = state(second, tid)
        assert len(again["pairings"]) == 2 and len(boards_of(again, 2)) == 3
        assert again["pairings"] == state(first, tid)["pairings"]


def test_players_are_numbered_by_their_rating_in_the_variant(make_app: AppFactory) -> None:
    clock = FakeTime()
    with TestClient(make_app(now=clock)) as host:
        organiser(host)
        created = create(host, system="round-robin")
        players = enter(host, created["id"], ["Ana", "Bob", "Cid", "Dan"])
        _, _, cid, dan = players
        services = host.app.state.services  # type: ignore[attr-defined]

        async def rate() -> None:  # Dan 1900, Cid 1700, Ana and Bob unrated (1500)
            async with services.database.session() as session, session.begin():
                for player_id, rating in ((dan, 1900.0), (cid, 1700.0)):
                    session.add(
                        RatingRow(
                            player_id=player_id,
                            variant="russian",
                            rating=rating,
                            deviation=60.0,
                            volatility=0.06,
                            games=30,
                            updated=clock(),
                        )
                    )

        host.portal.call(rate)  # type: ignore[union-attr]
        clock.advance(61)
        tournament = state(host, created["id"])
        # Berger round 1 of four: 1-4, 2-3 with 1 Dan, 2 Cid, 3 Ana, 4 Bob (entry order).
        pairs = [(b["white"]["name"], b["black"]["name"]) for b in boards_of(tournament, 1)]
        assert pairs == [("Dan", "Bob"), ("Cid", "Ana")]
