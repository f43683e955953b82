// The HTTP API and the game WebSocket of docs/PLATFORM.md, for every page.
import { N_, t } from "./i18n.js";

/** An HTTP answer that was not 2xx: `status` and the server's `detail`. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail || `HTTP ${status}`);
    this.status = status;
    this.detail = detail;
  }
}

function detailText(detail) {
  if (detail == null) return "";
  if (typeof detail === "string") return detail;
  // FastAPI validation errors: [{"loc": [...], "msg": "..."}]
  if (Array.isArray(detail)) return detail.map((d) => d.msg || JSON.stringify(d)).join("; ");
  return JSON.stringify(detail);
}

/** A variant's title, summary and rules in plain words in the player's language (the
 *  catalog holds the built-in variants' ones; others stay as the server says them). */
function localVariant(variant) {
  if (!variant || typeof variant !== "object") return variant;
  const local = { ...variant };
  if (typeof variant.title === "string") local.title = t(variant.title);
  if (typeof variant.summary === "string") local.summary = t(variant.summary);
  if (Array.isArray(variant.options)) {
    local.options = variant.options.map((option) =>
      option && typeof option.summary === "string" ? { ...option, summary: t(option.summary) } : option,
    );
  }
  if (Array.isArray(variant.rules_text)) {
    local.rules_text = variant.rules_text.map((paragraph) => (typeof paragraph === "string" ? t(paragraph) : paragraph));
  }
  return local;
}

async function request(method, path, body) {
  const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, t("The server cannot be reached."));
  }
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const detail = data && typeof data === "object" ? detailText(data.detail) : String(data || "");
    throw new ApiError(response.status, detail || response.statusText);
  }
  return data;
}

export const getJSON = (path) => request("GET", path);
export const postJSON = (path, body = {}) => request("POST", path, body);

export const api = {
  variants: () => getJSON("/api/variants").then((list) => (Array.isArray(list) ? list.map(localVariant) : list)),
  variant: (name) => getJSON(`/api/variants/${encodeURIComponent(name)}`).then(localVariant),
  /** The current player, or null when there is no session yet. */
  me: () => getJSON("/api/session"),
  setName: (name) => postJSON("/api/session", { name }),
  games: (status) => getJSON(`/api/games?status=${encodeURIComponent(status)}`),
  createGame: (settings) => postJSON("/api/games", settings),
  game: (id) => getJSON(`/api/games/${encodeURIComponent(id)}`),
  /** Takes `seat` (a seat number), or the first open seat when it is not given. */
  join: (id, seat) => postJSON(`/api/games/${encodeURIComponent(id)}/join`, seat === undefined ? {} : { seat }),
  move: (id, move, ply) => postJSON(`/api/games/${encodeURIComponent(id)}/moves`, { move, ply }),
  resign: (id) => postJSON(`/api/games/${encodeURIComponent(id)}/resign`),
  draw: (id, action) => postJSON(`/api/games/${encodeURIComponent(id)}/draw`, { action }),
  rematch: (id) => postJSON(`/api/games/${encodeURIComponent(id)}/rematch`),
  abort: (id) => postJSON(`/api/games/${encodeURIComponent(id)}/abort`),
  takeback: (id, action) => postJSON(`/api/games/${encodeURIComponent(id)}/takeback`, { action }),
  claim: (id, result) => postJSON(`/api/games/${encodeURIComponent(id)}/claim`, { result }),
  pdnUrl: (id) => `/api/games/${encodeURIComponent(id)}/pdn`,
  createMatch: (settings) => postJSON("/api/matches", settings),
  match: (id) => getJSON(`/api/matches/${encodeURIComponent(id)}`),
  joinMatch: (id) => postJSON(`/api/matches/${encodeURIComponent(id)}/join`),
  ready: (id) => postJSON(`/api/matches/${encodeURIComponent(id)}/ready`),
  matchPdnUrl: (id) => `/api/matches/${encodeURIComponent(id)}/pdn`,
  /** Who is playing now, by variant and mode (either may be empty: all). */
  now: (variant, mode) => {
    const params = new URLSearchParams();
    if (variant) params.set("variant", variant);
    if (mode) params.set("mode", mode);
    return getJSON(`/api/now?${params}`);
  },
};

/**
 * The WebSocket of one game, reconnected with exponential backoff whenever it closes.
 * The server sends the full state on every (re)connection, so nothing is replayed here.
 * After a move it sends a delta (the new move, and the version it follows): it is appended
 * to the moves held here, or, when it does not follow them, the whole state is asked for.
 *
 * handlers: onState(game), onError(message), onStatus("connecting"|"open"|"closed", retryInMs),
 * onMessage(frame) for the other frames (presence, chat)
 */
export class GameSocket {
  constructor(gameId, handlers) {
    this.gameId = gameId;
    this.handlers = handlers;
    this.socket = null;
    this.attempt = 0;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.forget();
    this.onVisible = () => {
      if (document.visibilityState === "visible" && !this.isOpen() && !this.stopped) {
        this.reconnectNow();
      }
    };
    document.addEventListener("visibilitychange", this.onVisible);
    window.addEventListener("online", this.onVisible);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${location.host}/ws/games/${encodeURIComponent(this.gameId)}`;
  }

  /** Drop the state held (a new socket starts from the whole state it is sent). */
  forget() {
    this.game = null;
    this.version = -1;
    this.syncing = false;
  }

  /** The game a state frame brings, or null when it brings nothing new. */
  merge(frame) {
    if (frame.after === undefined) {
      if (frame.version < this.version) return null;
      this.syncing = false;
    } else if (this.game !== null && frame.after === this.version) {
      frame.game.moves = this.game.moves.concat(frame.played);
    } else {
      if (!this.syncing) this.syncing = this.send({ type: "sync" });
      return null;
    }
    this.version = frame.version;
    this.game = frame.game;
    return frame.game;
  }

  isOpen() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  connect() {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.handlers.onStatus?.("connecting");
    let socket;
    try {
      socket = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    this.forget();
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.handlers.onStatus?.("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "state" && message.game) {
        const game = this.merge(message);
        if (game !== null) this.handlers.onState?.(game);
      } else if (message.type === "error") this.handlers.onError?.(message.message || t("Refused"));
      else this.handlers.onMessage?.(message);
    });
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      clearInterval(this.pingTimer);
      this.socket = null;
      this.scheduleRetry();
    });
    // An error is always followed by close, which schedules the retry.
  }

  scheduleRetry() {
    if (this.stopped || this.retryTimer) return;
    const base = Math.min(15000, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.handlers.onStatus?.("closed", delay);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.connect();
    }, delay);
  }

  reconnectNow() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.attempt = 0;
    this.connect();
  }

  send(message) {
    if (!this.isOpen()) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearInterval(this.pingTimer);
    document.removeEventListener("visibilitychange", this.onVisible);
    window.removeEventListener("online", this.onVisible);
    if (this.socket) this.socket.close();
  }
}

/** Small DOM helper: h("a", {href: "/"}, "text", child, ...). */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") element.className = value;
    else if (key.startsWith("on") && typeof value === "function") {
      element.addEventListener(key.slice(2), value);
    } else if (value === true) element.setAttribute(key, "");
    else element.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** A clock control ("5+3") from a Clock value, a string or null. */
export function controlOf(clock) {
  if (!clock) return null;
  if (typeof clock === "string") return clock;
  return clock.control || null;
}

/** A player's name as the server gives it, with the computer's said in the language
 *  ("Computer (level 3)" -> "Ordinateur (niveau 3)"). */
export function playerName(name) {
  const named = /^Computer \(level (\d+)\)$/.exec(String(name ?? ""));
  if (named) return t("{name} (level {level})", { name: t("Computer"), level: named[1] });
  return name === "Computer" ? t("Computer") : name;
}

/** "Ana", "Computer (level 3)" or "(empty)" for a Seat. */
export function seatLabel(seat) {
  if (!seat) return "?";
  if (seat.kind === "computer") {
    const name = seat.name || "Computer";
    if (/level/i.test(name) || seat.level == null) return playerName(name);
    return t("{name} (level {level})", { name: playerName(name), level: seat.level });
  }
  if (seat.id === null || seat.id === undefined) return seat.name || t("(waiting)");
  return seat.name || t("Guest");
}

/** A result's reason in words: "no pieces" is "no pieces left", and the giveaway note says
 *  "having no move wins" (one pair of brackets at most: the result puts a colon before it). */
export function reasonText(reason) {
  let text = String(reason).replaceAll("_", " ").replace(/^no pieces\b/, "no pieces left");
  const giveaway = " (giveaway: no move wins)";
  let note = "";
  if (text.endsWith(giveaway)) {
    text = text.slice(0, -giveaway.length);
    note = ` ${t("(giveaway: having no move wins)")}`;
  }
  return t(text) + note;
}

// The results' reasons and the games' states, as the server says them (t() finds them).
export const REASONS = [
  N_("resignation"), N_("time forfeit"), N_("no pieces left"), N_("blocked"), N_("crowned first"),
  N_("nobody can move"), N_("out first"), N_("last team standing"), N_("last player standing"),
  N_("agreement"), N_("adjudication"), N_("opponent left"), N_("aborted"), N_("threefold repetition"),
  N_("one piece each"), N_("unchanged material"), N_("three kings v one"), N_("25-move rule"),
  N_("16-move rule"), N_("5-move rule"), N_("40-move rule"), N_("15-move rule (three kings against one)"),
  N_("15-move rule (only kings moved)"), N_("5-move rule (lone king on the main road)"),
  N_("25 rounds without a capture or a man move"), N_("waiting"), N_("playing"), N_("finished"),
  N_("open"), N_("white"), N_("black"), N_("draw offer"), N_("takeback request"),
];

const COLORS = {
  white: N_("White"), black: N_("Black"), red: N_("Red"), green: N_("Green"),
  yellow: N_("Yellow"), purple: N_("Purple"), orange: N_("Orange"), cyan: N_("Cyan"),
};

/** A colour's name, capitalised, in the player's language ("white" -> "Blanc"). */
export function colorName(color) {
  const key = String(color || "");
  return COLORS[key] ? t(COLORS[key]) : key.charAt(0).toUpperCase() + key.slice(1);
}

/** "White wins: resignation", "Red wins: last player standing", "Draw: agreement";
 *  a first place shared on a board of more players: "White and Red share first place". */
export function resultText(result) {
  if (!result) return "";
  if (result.reason === "aborted") return t("Game aborted (no result)");
  const reason = result.reason ? `: ${reasonText(result.reason)}` : "";
  if (result.winner) return t("{player} wins", { player: colorName(result.winner) }) + reason;
  const first = result.ranking?.[0];
  if (first && first.length < result.ranking.flat().length) {
    const players = first.map(colorName).join(` ${t("and")} `);
    return t("{players} share first place", { players }) + reason;
  }
  if (result.pdn === "1-1" || result.winner === null) return t("Draw") + reason;
  return `${result.pdn || t("Game over")}${reason}`;
}

/** Shows an error in a page's alert area for a few seconds. */
export function showError(element, message, ms = 6000) {
  if (!element) return;
  element.textContent = message;
  element.hidden = false;
  clearTimeout(element._timer);
  element._timer = setTimeout(() => {
    element.hidden = true;
    element.textContent = "";
  }, ms);
}

/** Scrolls `box` (a list that scrolls itself) so that `item`, one of its children, is in
 *  sight: only the box's own scrollTop and scrollLeft move, never the page's (a phone shows
 *  the board above the move list, and `scrollIntoView` would scroll the board away). */
export function scrollWithin(box, item) {
  if (!box || !item) return;
  const outer = box.getBoundingClientRect();
  const inner = item.getBoundingClientRect();
  // The box's inside: its border box less the borders and the scroll bars.
  const top = outer.top + box.clientTop;
  const left = outer.left + box.clientLeft;
  const bottom = top + box.clientHeight;
  const right = left + box.clientWidth;
  if (inner.top < top) box.scrollTop -= top - inner.top;
  else if (inner.bottom > bottom) box.scrollTop += Math.min(inner.bottom - bottom, inner.top - top);
  if (inner.left < left) box.scrollLeft -= left - inner.left;
  else if (inner.right > right) box.scrollLeft += Math.min(inner.right - right, inner.left - left);
}

/** Points the site header's Rules and Analysis board links (one header for every page,
 *  which links to International's) at the variant the page shows. */
export function variantLinks(name, title = name) {
  const path = encodeURIComponent(name);
  const rules = document.getElementById("rules-link");
  if (rules) {
    rules.href = `/rules/${path}`;
    rules.setAttribute("aria-label", t("Rules of {variant}", { variant: title }));
    rules.title = t("Rules of {variant}", { variant: title });
  }
  const analysis = document.getElementById("analysis-link");
  if (analysis) analysis.href = `/analysis/${path}`;
}
