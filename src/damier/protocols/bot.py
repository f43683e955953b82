"""``damier bot``: an engine plays people on a Damier platform, through the platform's own
HTTP API (docs/PLATFORM.md), as a browser would.

The bot signs in (a guest, or an account with its password), offers an open game of its
variant and clock in the lobby, and waits for a person to take it; then it reads the game
(``GET /api/games/{id}``, every :data:`POLL` seconds while the other side thinks) and plays
its engine's move when its turn comes (``POST /api/games/{id}/moves``), within the time its
clock allows. It declines draw offers and takebacks (an engine plays on), and offers the
next game when one ends. Any engine plays: Damier's at a level (``damier:8``) or a Hub
engine's command (:mod:`damier.protocols.engine_match`).

The client is an ``httpx.Client`` (the ``bot`` extra), whose base URL is the platform's;
the tests hand it the platform's in-process test client instead.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from damier.game import Game
from damier.protocols.engine_match import Limits, Player
from damier.protocols.hub_client import EngineError

if TYPE_CHECKING:
    import httpx

POLL = 0.3
"""Seconds between two reads of the game while the bot waits."""
RETRIES = 6
"""How many times a request the platform did not answer is sent again (waiting 1, 2, 4,
8, 10 and 10 s: about half a minute)."""
THINK = 10.0
"""The most the engine spends on a move (the clock's share is most often less)."""


class BotError(RuntimeError):
    """The platform refused what the bot asked (its answer's ``detail`` said why)."""


@dataclass(frozen=True)
class Seek:
    """The game the bot offers: its variant (of two players) and its clock (``5+3``,
    ``10``, ``30/move``)."""

    variant: str = "international"
    clock: str = "5+3"


class Bot:
    """One engine (``player``) seated on the platform ``client`` talks to."""

    def __init__(
        self,
        client: httpx.Client,
        player: Player,
        seek: Seek,
        think: float = THINK,
        say: Callable[[str], None] = print,
        poll: float = POLL,
    ) -> None:
        self.client = client
        self.player = player
        self.seek = seek
        self.think = think
        self.say = say
        self.poll = poll
        self.game_id: str | None = None

    # -- the platform ----------------------------------------------------------------

    def _call(
        self, method: str, path: str, body: dict[str, Any] | None = None, retries: int = RETRIES
    ) -> Any:
        """The platform's answer; a dropped connection is tried again ``retries`` times (a
        move sent twice is refused by its ``ply``), a refusal raises :class:`BotError`."""
        import httpx

        for attempt in range(retries + 1):
            try:
                answer = self.client.request(method, path, json=body)
                break
            except httpx.TransportError as error:
                if attempt == retries:
                    raise BotError(
                        f"{method} {path}: the platform does not answer ({error})"
                    ) from None
                self.say(f"the platform does not answer ({error}); trying again")
                time.sleep(min(2.0**attempt, 10.0))
        try:
            data = answer.json() if answer.content else None
        except ValueError:  # not the platform's API: a page, another server
            raise BotError(
                f"{method} {path}: {answer.status_code}, not an answer of Damier's platform"
            ) from None
        if answer.status_code >= 400:
            detail = data.get("detail", data) if isinstance(data, dict) else data
            raise BotError(f"{method} {path}: {answer.status_code} {str(detail)[:300]}")
        return data

    def sign_in(self, name: str, password: str | None = None, register: bool = False) -> str:
        """Sign in as ``name`` (with ``password``, an account; registered first if
        ``register`` and it is not there yet; without, a guest); returns the player id."""
        # (A platform that does not answer now is said at once, not tried for a minute.)
        if password is None:
            me = self._call("POST", "/api/session", {"name": name}, retries=0)
        else:
            account = {"name": name, "password": password}
            try:
                me = self._call("POST", "/api/login", account, retries=0)
            except BotError as refused:
                if not register:
                    raise
                try:
                    me = self._call("POST", "/api/register", account, retries=0)
                except BotError as error:  # (a name taken: the password was wrong)
                    raise BotError(f"{refused}; and as a new account: {error}") from None
        return str(me["id"])

    def offer(self) -> dict[str, Any]:
        """Offer an open game in the lobby; its state."""
        state: dict[str, Any] = self._call(
            "POST",
            "/api/games",
            {
                "variant": self.seek.variant,
                "opponent": "open",
                "color": "random",
                "clock": self.seek.clock,
            },
        )
        self.game_id = state["id"]
        return state

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self._call("GET", f"/api/games/{self.game_id}")
        return state

    # -- a game ----------------------------------------------------------------------

    def play_game(self, should_stop: Callable[[], bool] = lambda: False) -> dict[str, Any]:
        """Offer a game, play it to its end, and return its last state; ``should_stop`` is
        asked while waiting (True: the bot leaves, resigning a game under way)."""
        state = self.offer()
        page = f"{str(self.client.base_url).rstrip('/')}/games/{self.game_id}"
        self.say(f"offered game {self.game_id}: {self.seek.variant}, {self.seek.clock} ({page})")
        joined = False
        while state["status"] != "finished":
            if should_stop():
                self.leave(state)
                return self.state()
            if state["status"] == "playing" and not joined:
                joined = True
                self.player.new_game(_game(state))
                other = next(s["name"] for c, s in _seats(state) if c != state["you"])
                self.say(f"game {self.game_id}: {other} joined; the bot plays {state['you']}")
            if state["status"] == "playing":
                try:
                    state = self._answer(state)
                except EngineError as error:  # the opponent is not left waiting for a move
                    self.say(f"game {self.game_id}: the engine failed ({error})")
                    self.leave(state)
                    raise
            if state["status"] != "finished":
                time.sleep(self.poll)
                state = self.state()
        result = state["result"] or {}
        self.say(f"game {self.game_id}: {result.get('pdn', '*')} ({result.get('reason', '')})")
        return state

    def _answer(self, state: dict[str, Any]) -> dict[str, Any]:
        """The bot's part of ``state``: decline an offer, play its move when its turn."""
        you = state["you"]
        if state.get("takeback_offer") not in (None, you):
            state = self._call("POST", f"/api/games/{self.game_id}/takeback", {"action": "decline"})
        if state.get("draw_offer") not in (None, you) and state["status"] == "playing":
            state = self._call("POST", f"/api/games/{self.game_id}/draw", {"action": "decline"})
        if state["status"] != "playing" or state["turn"] != you:
            return state
        game = _game(state)
        move = self.player.choose(game, Limits(time=self._seconds(state)))
        body = {"move": move.notation, "ply": state["ply"]}
        try:
            played: dict[str, Any] = self._call("POST", f"/api/games/{self.game_id}/moves", body)
        except BotError as error:  # the game moved on meanwhile (it ended, or was taken back)
            self.say(f"game {self.game_id}: {move.notation} refused ({error}); reading it again")
            return self.state()
        return played

    def _seconds(self, state: dict[str, Any]) -> float:
        """The time for this move: the clock's share (:func:`damier.engine.move_time`)."""
        from damier.engine import move_time
        from damier.play import parse_clock

        clock = state.get("clock")
        if clock is None:
            return move_time(10, self.think)
        timer = parse_clock(clock["control"])
        increment = timer.control.increment if timer is not None else 0.0
        # (The network's round trip comes out of the bot's time too: a little is kept.)
        remaining = max(float(clock[state["you"]]) - 1.0, 0.0)
        return move_time(10, self.think, remaining, increment)

    def leave(self, state: dict[str, Any]) -> None:
        """Withdraw the offer (abort a game not yet under way), or resign a game that is."""
        if state["status"] == "open" or (state["status"] == "playing" and state["ply"] < 2):
            try:
                self._call("POST", f"/api/games/{self.game_id}/abort")
                self.say(f"game {self.game_id}: withdrawn")
                return
            except BotError:
                pass
        if state["status"] == "playing":
            self._call("POST", f"/api/games/{self.game_id}/resign")
            self.say(f"game {self.game_id}: resigned (the bot is stopping)")


def _seats(state: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [("white", state["white"]), ("black", state["black"])]


def _game(state: dict[str, Any]) -> Game:
    """The game as the platform says it: its start and its moves."""
    game = Game(state["variant"], state["start_fen"])
    for move in state["moves"]:
        game.push(move["notation"])
    return game
