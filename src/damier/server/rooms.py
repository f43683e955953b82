"""Game rooms: each game's live WebSockets, and the fan-out of its state to them.

A published state is the game as everyone sees it, encoded to JSON once; each connection's
frame adds its own ``you``. A :class:`Notice` (a chat message, who is connected) goes to
all of a game's sockets, to its players' or to the others'. Without Redis the fan-out stays
in the process. With ``DAMIER_REDIS_URL`` every state and notice goes through a Redis
channel and every process delivers it to its own sockets, so any process can serve any game
(a state goes to the sockets of the process that made it at once, without the round trip).

The rooms also know who is here: the players whose sockets have all closed (since when) and
how many spectators watch; with Redis, counted over every process.

With Redis, faults are survived in the open: a notice that cannot go through Redis is
delivered to the process's own sockets (as every state is); when the subscription comes back
every socket of the process is brought to the game's state read from the database (it may
have missed changes meanwhile); each process vouches for its sockets' presence with a
heartbeat, so the players of a process that died are seen as gone once its heartbeat has
lapsed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import uuid
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

log = logging.getLogger("damier.server")

CHANNEL_PREFIX = "damier:game:"
NOTICE_PREFIX = "damier:notice:"
KEPT_NOTICES = 50
"""Chat messages kept per game for the sockets that open later (in each process)."""
KEPT_GAMES = 1_000
GONE_KEPT = 10_000
"""Players gone from games being played, remembered at most in a process without Redis."""
GONE_PREFIX = "damier:gone:"
"""A game's hash of the players gone (his id: since when, Unix seconds)."""
PRESENT_PREFIX = "damier:present:"
"""A game's hash of sockets per process: ``{process}|{name}`` (``name`` a seated player's id,
or SPECTATORS) to how many sockets of the game that process holds for him."""
PROCESSES = "damier:processes"
"""Every process's heartbeat: a sorted set of process ids, each scored with the moment (Unix
seconds) until which the process vouches for its sockets."""
SPECTATORS = "*"
"""The name under which the spectators' sockets are counted."""
PRESENCE_SECONDS = 86_400
"""How long Redis keeps a game's presence after its last change."""
HEARTBEAT_SECONDS = 10.0
LAPSE_SECONDS = 30.0
"""Each process renews its heartbeat every HEARTBEAT_SECONDS for LAPSE_SECONDS: the sockets
of a process silent for longer (killed, frozen, cut off) count no more."""
RETRY_SECONDS = 1.0
"""The pause before subscribing again after the subscription was lost."""
CONFIRM_SECONDS = 10.0
"""How long Redis may take to confirm a subscription before it is tried again."""
_STORE = """
local prefix, clock = ARGV[1] .. '|', tonumber(ARGV[2])
if ARGV[4] == '1' then
  for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
    if string.sub(field, 1, #prefix) == prefix then redis.call('HDEL', KEYS[1], field) end
  end
end
local function held(name)
  local fields = redis.call('HGETALL', KEYS[1])
  for i = 1, #fields, 2 do
    local bar = string.find(fields[i], '|', 1, true)
    if bar and string.sub(fields[i], bar + 1) == name then
      local until_ = redis.call('ZSCORE', KEYS[3], string.sub(fields[i], 1, bar - 1))
      if until_ and tonumber(until_) > clock then return true end
    end
  end
  return false
end
for i = 5, #ARGV, 3 do
  local name, count, since = ARGV[i], tonumber(ARGV[i + 1]), ARGV[i + 2]
  if count > 0 then
    redis.call('HSET', KEYS[1], prefix .. name, count)
    if name ~= '*' then redis.call('HDEL', KEYS[2], name) end
  else
    redis.call('HDEL', KEYS[1], prefix .. name)
    if since ~= '' and not held(name) then redis.call('HSET', KEYS[2], name, since) end
  end
end
redis.call('EXPIRE', KEYS[1], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 0
"""
"""Store a process's counts of sockets of one game (KEYS: its present and gone hashes, the
heartbeats; ARGV: the process, its clock, how long to keep the hashes, '1' to replace every
count of the process, then a name, his count and, for a count of 0, since when he is gone or
''). A name counted is here; one at 0 with a moment is gone from it unless a live process
holds a socket of his (one step, so that a socket opening elsewhere meanwhile is not lost)."""
_PRESENCE = """
local clock = tonumber(ARGV[1])
local fields = redis.call('HGETALL', KEYS[1])
local here, lapsed, spectators = {}, {}, 0
for i = 1, #fields, 2 do
  local bar = string.find(fields[i], '|', 1, true)
  local process, name = string.sub(fields[i], 1, bar - 1), string.sub(fields[i], bar + 1)
  local until_ = redis.call('ZSCORE', KEYS[3], process)
  until_ = until_ and tonumber(until_)
  if until_ and until_ > clock then
    if name == '*' then spectators = spectators + tonumber(fields[i + 1]) else here[name] = true end
  else
    redis.call('HDEL', KEYS[1], fields[i])
    if name ~= '*' then lapsed[name] = math.max(lapsed[name] or 0, until_ or clock) end
  end
end
for name, since in pairs(lapsed) do
  if not here[name] then redis.call('HSETNX', KEYS[2], name, string.format('%.3f', since)) end
end
return {redis.call('HGETALL', KEYS[2]), spectators}
"""
"""Who is gone from a game (KEYS: its present and gone hashes, the heartbeats; ARGV: the
clock): the counts of the processes whose heartbeat lapsed are dropped, and a player held
only by them is gone from the moment it lapsed; and how many spectators' sockets the live
processes hold."""
_HEARTBEAT = """
local before = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[5])
return {before or '', redis.call('ZCOUNT', KEYS[1], '(' .. ARGV[4], ARGV[2])}
"""
"""A process vouches for its sockets (KEYS: the heartbeats; ARGV: the process, its clock,
the new moment until which, its clock at its last heartbeat, the moment before which a
heartbeat is forgotten): the moment until which it vouched before ('' if none), and how
many processes' heartbeats lapsed since its last one."""


@dataclass
class State:
    """A game's state as published: its version, each seat's player id and colour (in turn
    order), whether it is being played, and the game as JSON without ``you``.

    A state after a move is a delta: ``game`` without its ``moves``, ``played`` the new
    moves (a JSON array) and ``after`` the version they follow; a socket that holds that
    version appends them (see ``docs/PLATFORM.md``). The whole move list, resent at every
    move, made the cost of a move grow with the game."""

    version: int
    seats: tuple[tuple[str | None, str], ...]
    playing: bool
    game: str
    after: int | None = None
    played: str = "[]"
    at: float | None = None
    """A delta's moment: when its move was played (the other processes play it at the same
    moment on their copies of the game)."""
    origin: str = ""
    """The process that published it through Redis (its sockets had it at once)."""
    _frames: dict[str | None, str] = field(default_factory=dict, init=False, repr=False)

    def frame(self, player_id: str | None) -> str:
        """The state frame for a socket of ``player_id``: one encoding per seat, shared by
        every socket of that seat, the spectators' too."""
        you = None
        if player_id is not None:
            you = next((color for id_, color in self.seats if id_ == player_id), None)
        frame = self._frames.get(you)
        if frame is None:
            seat = "null" if you is None else f'"{you}"'
            delta = "" if self.after is None else f'"after":{self.after},"played":{self.played},'
            game = f'"game":{self.game[:-1]},"you":{seat}}}'
            frame = f'{{"type":"state","version":{self.version},{delta}{game}}}'
            self._frames[you] = frame
        return frame

    def encode(self, origin: str) -> str:
        """For Redis, from process ``origin``: a JSON header line, the new moves' line, then
        the game."""
        header = json.dumps([self.version, self.seats, self.playing, self.after, self.at, origin])
        return f"{header}\n{self.played}\n{self.game}"

    @classmethod
    def decode(cls, payload: str | bytes) -> State:
        text = payload.decode() if isinstance(payload, bytes) else payload
        header, played, game = text.split("\n", 2)
        version, seats, playing, after, at, origin = json.loads(header)
        seated = tuple((id_, color) for id_, color in seats)
        return cls(int(version), seated, bool(playing), game, after, played, at, origin)


Audience = Literal["all", "players", "spectators"]


@dataclass(frozen=True)
class Notice:
    """A frame (JSON text) for the sockets of ``audience``: every one, those of the
    ``players`` (the seated player ids), or the others'; ``kept`` ones (chat) are replayed
    to the sockets that open later."""

    frame: str
    audience: Audience = "all"
    players: tuple[str, ...] = ()
    kept: bool = False

    def for_(self, player_id: str | None) -> bool:
        if self.audience == "all":
            return True
        seated = player_id is not None and player_id in self.players
        return seated == (self.audience == "players")

    def encode(self) -> str:
        return json.dumps([self.frame, self.audience, self.players, self.kept])

    @classmethod
    def decode(cls, payload: str | bytes) -> Notice:
        frame, audience, players, kept = json.loads(payload)
        return cls(frame, audience, tuple(players), bool(kept))


class Connection:
    """One WebSocket's outbox: frames (JSON text) wait in a bounded queue that a sender task
    drains. A client too slow to keep up loses its oldest frames (the newest state wins)."""

    def __init__(self, player_id: str | None, size: int = 64) -> None:
        self.player_id = player_id
        self.seated = False
        """Whether the socket is a seated player's (else a spectator's), as it opened."""
        self.queue: asyncio.Queue[str] = asyncio.Queue(maxsize=size)
        self.state: State | None = None
        """The newest state queued: what the socket's player last saw of the game."""

    def send(self, frame: dict[str, Any]) -> None:
        self._put(json.dumps(frame))

    def notify(self, text: str) -> None:
        """Queue a frame already encoded."""
        self._put(text)

    def _put(self, text: str) -> None:
        while True:
            try:
                self.queue.put_nowait(text)
                return
            except asyncio.QueueFull:
                with contextlib.suppress(asyncio.QueueEmpty):
                    self.queue.get_nowait()

    def open_with(self, snapshot: State) -> None:
        """Start with ``snapshot``, read after the socket joined its room: nothing was sent
        yet, and what came meanwhile is dropped (an older state may come through Redis
        after the snapshot was read: the change that made it does not wait for Redis), but
        a newer state, which follows the snapshot."""
        newer = self.state if self.state and self.state.version > snapshot.version else None
        while not self.queue.empty():
            self.queue.get_nowait()
        self.resend(snapshot)
        if newer is not None:
            self.deliver(newer)

    def deliver(self, state: State) -> None:
        """Queue a state unless it or a newer one was already queued (a socket that opens
        between a change and its broadcast through Redis gets the state in its snapshot)."""
        if self.state is not None and state.version <= self.state.version:
            return
        self.resend(state)

    def resend(self, state: State) -> None:
        """Queue a whole state whatever was queued before (the client asked for it: a delta
        did not follow what it holds)."""
        self.state = state
        self._put(state.frame(self.player_id))


@dataclass(frozen=True)
class Refresh:
    """How the rooms bring a game's sockets up to date by themselves (after Redis was away,
    or when another process's sockets lapsed)."""

    state: Callable[[str], Awaitable[State]]
    """The game's state as published, read from the database."""
    presence: Callable[[str, State], Awaitable[str]]
    """The presence frame of the game (who is gone, how many watch) at that state."""
    follow: Callable[[str, State], None] | None = None
    """Told of every state another process published, before the sockets: this process's
    copy of the game follows it (else each move made on another process would make this
    one replay the whole game from the database at its next move)."""


class Rooms:
    """In-process rooms."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}
        self._kept: OrderedDict[str, deque[Notice]] = OrderedDict()
        self._gone: OrderedDict[tuple[str, str], float] = OrderedDict()

    def join(self, game_id: str, connection: Connection) -> None:
        self._rooms.setdefault(game_id, set()).add(connection)

    def leave(self, game_id: str, connection: Connection) -> None:
        room = self._rooms.get(game_id)
        if room is not None:
            room.discard(connection)
            if not room:
                del self._rooms[game_id]

    def watchers(self, game_id: str) -> int:
        return len(self._rooms.get(game_id, ()))

    def connections(self, game_id: str) -> list[Connection]:
        """The game's sockets in this process."""
        return list(self._rooms.get(game_id, ()))

    def kept(self, game_id: str, player_id: str | None) -> list[str]:
        """The kept notices (the chat so far) that ``player_id`` may read, oldest first."""
        return [n.frame for n in self._kept.get(game_id, ()) if n.for_(player_id)]

    async def notify(self, game_id: str, notice: Notice) -> None:
        """Send a notice to the game's sockets of its audience."""
        self._notice(game_id, notice)

    async def arrive(self, game_id: str, connection: Connection, seated: bool) -> None:
        """A socket of the game opened (it has joined the room): its player is here."""
        connection.seated = seated
        if seated and connection.player_id is not None:
            self._gone.pop((game_id, connection.player_id), None)

    async def depart(self, game_id: str, connection: Connection, playing: bool, now: float) -> None:
        """A socket closed (it has left the room): a seated player without another socket
        of a game being played is gone from ``now``."""
        player = connection.player_id
        if not (connection.seated and playing and player is not None):
            return
        if any(c.player_id == player for c in self._rooms.get(game_id, ())):
            return
        self._gone[(game_id, player)] = now
        while len(self._gone) > GONE_KEPT:
            self._gone.popitem(last=False)

    async def presence(self, game_id: str, players: Iterable[str]) -> tuple[dict[str, float], int]:
        """Which of ``players`` are gone (since when), and how many spectators' sockets
        the game has."""
        gone = {p: since for p in players if (since := self._gone.get((game_id, p))) is not None}
        spectators = sum(1 for c in self._rooms.get(game_id, ()) if not c.seated)
        return gone, spectators

    def _notice(self, game_id: str, notice: Notice) -> None:
        if notice.kept:
            kept = self._kept.setdefault(game_id, deque(maxlen=KEPT_NOTICES))
            kept.append(notice)
            self._kept.move_to_end(game_id)
            while len(self._kept) > KEPT_GAMES:
                self._kept.popitem(last=False)
        for connection in list(self._rooms.get(game_id, ())):
            if notice.for_(connection.player_id):
                connection.notify(notice.frame)

    async def publish(self, game_id: str, state: State) -> None:
        """Send a game's new state to every socket of the game."""
        self._deliver(game_id, state)

    def _deliver(self, game_id: str, state: State) -> None:
        for connection in list(self._rooms.get(game_id, ())):
            connection.deliver(state)

    async def start(self, refresh: Refresh | None = None) -> None:
        return None

    async def stop(self) -> None:
        return None


def _name(connection: Connection) -> str:
    """Whom a socket counts for: its seated player, or the spectators."""
    if connection.seated and connection.player_id is not None:
        return connection.player_id
    return SPECTATORS


class RedisRooms(Rooms):
    """Rooms shared by every process through Redis pub/sub (one pattern subscription), and
    the presence of every process's sockets, each process vouching for its own with a
    heartbeat. ``clock`` is the wall clock of the heartbeats (the same in every process)."""

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        heartbeat: float = HEARTBEAT_SECONDS,
        lapse: float = LAPSE_SECONDS,
        refresh: Refresh | None = None,
    ) -> None:
        super().__init__()
        from redis.asyncio import Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff
        from redis.exceptions import RedisError

        # A command is tried once more at once (a pooled connection may predate a restart
        # of Redis) and waits 5 s at most: a move is stored before it is broadcast, and its
        # answer must not hang on a Redis that stopped answering.
        self._redis: Redis = Redis.from_url(
            url, retry=Retry(NoBackoff(), 1), socket_connect_timeout=2.0, socket_timeout=5.0
        )
        # The subscription waits for messages without a timeout and is never renewed behind
        # the listener's back: the listener subscribes again itself, then refreshes.
        self._subscriber: Redis = Redis.from_url(
            url, retry=Retry(NoBackoff(), 0), socket_connect_timeout=2.0
        )
        self._unreachable: tuple[type[BaseException], ...] = (RedisError, OSError)
        self._store = self._redis.register_script(_STORE)
        self._presence = self._redis.register_script(_PRESENCE)
        self._heartbeat = self._redis.register_script(_HEARTBEAT)
        self._process = uuid.uuid4().hex
        self._clock, self._every, self._lapse = clock, heartbeat, lapse
        self._here: dict[str, Counter[str]] = {}
        """This process's sockets per game and name (SPECTATORS or a seated player)."""
        self._unsynced: dict[str, State | None] = {}
        """Games whose presence could not be stored (Redis away), with the newest state known
        of each: stored again by the next heartbeat, and told to every process."""
        self._beaten: float | None = None
        self._refresh = refresh
        self._tasks: list[asyncio.Task[None]] = []
        self._outbox: deque[tuple[str, State]] = deque()
        """The states published here, on their way to the other processes (see publish)."""
        self._queued = asyncio.Event()
        self._subscribed = asyncio.Condition()
        self.subscriptions = 0
        """How many times the rooms have subscribed (and brought their sockets up to date)."""

    async def start(self, refresh: Refresh | None = None) -> None:
        self._refresh = refresh or self._refresh
        await self.heartbeat()
        self._tasks = [
            asyncio.create_task(self._listen(), name="damier-redis-rooms"),
            asyncio.create_task(self._beat(), name="damier-redis-heartbeat"),
            asyncio.create_task(self._send_states(), name="damier-redis-publisher"),
        ]
        await asyncio.wait_for(self.subscribed(0), timeout=10)

    async def stop(self) -> None:
        await self._send_queued()  # the last moves, for the processes that stay
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(*self._unreachable):  # its sockets are gone with it
            await self._redis.zrem(PROCESSES, self._process)
        await self._subscriber.aclose()
        await self._redis.aclose()

    async def subscribed(self, after: int) -> int:
        """Wait until the rooms have subscribed more than ``after`` times; how many."""
        async with self._subscribed:
            await self._subscribed.wait_for(lambda: self.subscriptions > after)
            return self.subscriptions

    async def publish(self, game_id: str, state: State) -> None:
        """Deliver the state to the sockets here at once, and queue it for the other
        processes: a task sends the queue through Redis, in order, all that waits in one
        round trip (a pipeline). The change does not wait for Redis's answer (nor do its
        sockets here), and under load the round trips are fewer than the states; its own
        state coming back from Redis is skipped."""
        self._deliver(game_id, state)
        self._outbox.append((game_id, state))
        self._queued.set()

    async def _send_states(self) -> None:
        while True:
            await self._queued.wait()
            self._queued.clear()
            await self._send_queued()

    async def _send_queued(self) -> None:
        while self._outbox:
            states = [self._outbox.popleft() for _ in range(len(self._outbox))]
            try:
                async with self._redis.pipeline(transaction=False) as pipeline:
                    for game_id, state in states:
                        pipeline.publish(CHANNEL_PREFIX + game_id, state.encode(self._process))
                    await pipeline.execute()
            except self._unreachable as error:
                # The other processes' subscriptions are lost too: they read the games again
                # from the database when they subscribe again.
                log.warning("redis rooms: %d states delivered here only: %s", len(states), error)

    async def notify(self, game_id: str, notice: Notice) -> None:
        try:
            await self._redis.publish(NOTICE_PREFIX + game_id, notice.encode())
        except self._unreachable as error:
            log.warning("redis rooms: notice of %s delivered here only: %s", game_id, error)
            self._notice(game_id, notice)

    async def arrive(self, game_id: str, connection: Connection, seated: bool) -> None:
        await super().arrive(game_id, connection, seated)
        name = _name(connection)
        self._here.setdefault(game_id, Counter())[name] += 1
        await self._count(game_id, name, None, connection.state)

    async def depart(self, game_id: str, connection: Connection, playing: bool, now: float) -> None:
        await super().depart(game_id, connection, playing, now)
        name = _name(connection)
        here = self._here.get(game_id)
        if here is None or here[name] <= 0:
            return  # never counted
        here[name] -= 1
        if not here[name]:
            del here[name]
            if not here:
                del self._here[game_id]
        gone = now if name != SPECTATORS and playing else None
        await self._count(game_id, name, gone, connection.state)

    def _held(self, game_id: str, name: str) -> int:
        return self._here.get(game_id, Counter())[name]

    def _keys(self, game_id: str) -> list[str]:
        return [PRESENT_PREFIX + game_id, GONE_PREFIX + game_id, PROCESSES]

    async def _count(
        self, game_id: str, name: str, gone: float | None, state: State | None
    ) -> None:
        """Store this process's count of ``name``'s sockets of the game (at 0, he is gone
        from ``gone`` unless another process holds him), again until it is the count after
        the write: two writes of one count may pass each other on their way. Without Redis,
        the next heartbeat stores the game's counts."""
        try:
            while True:
                held = self._held(game_id, name)
                since = "" if held or gone is None else repr(gone)
                await self._store(
                    keys=self._keys(game_id),
                    args=[self._process, self._clock(), PRESENCE_SECONDS, 0, name, held, since],
                )
                if self._held(game_id, name) == held:
                    return
        except self._unreachable as error:
            log.warning("redis rooms: presence in %s kept here for now: %s", game_id, error)
            known = self._unsynced.get(game_id)
            if known is None or (state is not None and state.version > known.version):
                self._unsynced[game_id] = state

    async def presence(self, game_id: str, players: Iterable[str]) -> tuple[dict[str, float], int]:
        try:
            stored, spectators = await self._presence(
                keys=self._keys(game_id), args=[self._clock()]
            )
        except self._unreachable as error:
            # Nobody is known to be gone (a player who left here may be connected to another
            # process: a claim waits for Redis), the spectators are those here.
            log.warning("redis rooms: presence in %s from here only: %s", game_id, error)
            return {}, sum(1 for c in self._rooms.get(game_id, ()) if not c.seated)
        fields = iter(stored)
        since = {key.decode(): float(value) for key, value in zip(fields, fields, strict=True)}
        gone = {p: since[p] for p in players if p in since}
        return gone, max(0, int(spectators))

    async def heartbeat(self) -> None:
        """Vouch for this process's sockets for ``lapse`` seconds more; if its heartbeat had
        lapsed (or Redis restarted empty) or some could not be stored, store them all again
        and tell every process's sockets of those games who is here; and if another
        process's heartbeat has lapsed since the last one (its players may be gone), tell
        the sockets here."""
        clock = self._clock()
        last = clock if self._beaten is None else self._beaten
        forget = clock - PRESENCE_SECONDS
        before, lapsed = await self._heartbeat(
            keys=[PROCESSES], args=[self._process, clock, clock + self._lapse, last, forget]
        )
        self._beaten = clock
        if not before or float(before) <= clock or self._unsynced:
            await self._tell_presence(await self._restore(), everywhere=True)
        if lapsed:
            await self._tell_presence(dict.fromkeys(self._rooms))

    async def _restore(self) -> dict[str, State | None]:
        """Store every count of this process again (each game's replacing what Redis had of
        it), with the departures that could not be stored; the games, with the newest state
        known of each."""
        unsynced, self._unsynced = self._unsynced, {}
        games = {game_id: self._latest(game_id) for game_id in self._here}
        for game_id, state in unsynced.items():
            games[game_id] = games.get(game_id) or state
        departed: dict[str, list[tuple[str, float]]] = {}
        for (game_id, player), since in self._gone.items():
            if game_id in unsynced:
                departed.setdefault(game_id, []).append((player, since))
        try:
            for game_id in games:
                while True:
                    held = dict(self._here.get(game_id, Counter()))
                    args: list[Any] = [self._process, self._clock(), PRESENCE_SECONDS, 1]
                    for name, count in held.items():
                        args += [name, count, ""]
                    for player, since in departed.get(game_id, ()):
                        if player not in held:
                            args += [player, 0, repr(since)]
                    await self._store(keys=self._keys(game_id), args=args)
                    if dict(self._here.get(game_id, Counter())) == held:
                        break
                unsynced.pop(game_id, None)
        finally:
            for game_id, state in unsynced.items():
                self._unsynced.setdefault(game_id, state)
        return games

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self._every)
            try:
                await self.heartbeat()
            except self._unreachable as error:
                log.warning("redis rooms: heartbeat failed: %s", error)
            except Exception:  # a bug: logged, and the heartbeat goes on
                log.exception("redis rooms: heartbeat failed")

    def _latest(self, game_id: str) -> State | None:
        """The newest state the game's sockets here were sent."""
        states = [c.state for c in self._rooms.get(game_id, ()) if c.state is not None]
        return max(states, key=lambda state: state.version, default=None)

    async def _tell_presence(
        self, games: dict[str, State | None], everywhere: bool = False
    ) -> None:
        """Send who is here in each of ``games`` (at the state given, else the newest its
        sockets here were sent) to its sockets here, or ``everywhere``."""
        if self._refresh is None:
            return
        for game_id, known in games.items():
            state = known or self._latest(game_id)
            if state is None:
                continue
            try:
                frame = await self._refresh.presence(game_id, state)
            except Exception as error:
                log.warning("redis rooms: presence of %s not refreshed: %s", game_id, error)
                continue
            if everywhere:
                await self.notify(game_id, Notice(frame))
            else:
                self._notice(game_id, Notice(frame))

    async def _bring_up_to_date(self) -> None:
        """Send every socket here its game's state, read from the database (sockets that
        already had it get nothing), then who is here."""
        if self._refresh is None:
            return
        for game_id in list(self._rooms):
            try:
                state = await self._refresh.state(game_id)
            except Exception as error:
                log.warning("redis rooms: state of %s not refreshed: %s", game_id, error)
                continue
            self._deliver(game_id, state)
        await self._tell_presence(dict.fromkeys(self._rooms))

    async def _listen(self) -> None:
        while True:
            try:
                async with self._subscriber.pubsub() as pubsub:
                    await _subscribe(pubsub, (CHANNEL_PREFIX + "*", NOTICE_PREFIX + "*"))
                    if self.subscriptions:  # again: changes may have been missed meanwhile
                        await self.heartbeat()
                        await self._bring_up_to_date()
                    async with self._subscribed:
                        self.subscriptions += 1
                        self._subscribed.notify_all()
                    async for message in pubsub.listen():
                        self._receive(message)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: subscribe again
                log.warning("redis rooms: subscription lost (%s); retrying", error)
                await asyncio.sleep(RETRY_SECONDS)

    def _receive(self, message: dict[str, Any]) -> None:
        if message.get("type") != "pmessage":
            return
        channel = message["channel"]
        if isinstance(channel, bytes):
            channel = channel.decode()
        if channel.startswith(NOTICE_PREFIX):
            self._notice(channel[len(NOTICE_PREFIX) :], Notice.decode(message["data"]))
            return
        game_id, state = channel[len(CHANNEL_PREFIX) :], State.decode(message["data"])
        if state.origin == self._process:
            return  # delivered here when published
        follow = self._refresh.follow if self._refresh is not None else None
        if follow is not None:
            try:
                follow(game_id, state)
            except Exception:  # the copy is dropped; the sockets must still hear of it
                log.exception("redis rooms: game %s not followed", game_id)
        self._deliver(game_id, state)


async def _subscribe(pubsub: Any, patterns: tuple[str, ...]) -> None:
    """Subscribe to ``patterns`` and wait until Redis has confirmed each: ``psubscribe``
    only sends the command, and a message published before Redis has read it is not
    routed here (a tournament's socket, which hears only of changes, would miss one)."""
    await pubsub.psubscribe(*patterns)
    waiting = set(patterns)
    async with asyncio.timeout(CONFIRM_SECONDS):
        while waiting:
            message = await pubsub.get_message(timeout=CONFIRM_SECONDS)
            if message is not None and message["type"] == "psubscribe":
                pattern = message["pattern"] or message["channel"]
                waiting.discard(pattern.decode() if isinstance(pattern, bytes) else pattern)
