// A tournament (/tournaments/{id}): the countdown to its start, joining and withdrawing,
// the standings with their tie-breaks, each round's pairings with links to the games, the
// crosstable, the PDN of every game and, at the end, the podium. The tournament's socket
// (/ws/tournaments/{id}) says when it changes, and the page reads it again then; while the
// socket is down the page asks every few seconds. When the player's own new game starts,
// it takes him there. A spectator may watch the round's games on small boards (each
// board follows its game's socket).
import { GameSocket, getJSON, h, postJSON, showError } from "./api.js";
import { Board } from "./board.js";
import { t } from "./i18n.js";
import { parseFen, squareIndex } from "./position.js";

const POLL_MS = 3000;
const SAFETY_MS = 30000; // while the socket is open: a read now and then all the same
const MAX_BOARDS = 24;
const $ = (id) => document.getElementById(id);
const tournamentId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const url = `/api/tournaments/${encodeURIComponent(tournamentId)}`;

const SYSTEMS = { "round-robin": "Round robin", swiss: "Swiss", arena: "Arena" };

/** 1, ½, 2½ for a score. */
export function points(value) {
  if (value === null || value === undefined) return "";
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60];
  const text = hms.map((n) => String(n).padStart(2, "0")).join(":");
  return days ? `${days} d ${text}` : text;
}

/** ⚡ after the name of a player who went berserk in an arena's game (+1 once it paid). */
function berserkMark(board, bit) {
  if (!(board.berserk & bit)) return null;
  const paid = board.bonus & bit;
  return h("span", { title: paid ? "Berserk: a point more" : "Berserk" }, paid ? " ⚡+1" : " ⚡");
}

function formatText(t, title) {
  if (t.system === "arena") {
    return `Arena of ${Math.round((t.ends_at - t.starts_at) / 60)} minutes: 2 points a win, 1 a draw, double after two wins in a row · ${title} · clock ${t.clock}`;
  }
  const system = t.system === "round-robin" && t.cycles === 2 ? "Double round robin" : SYSTEMS[t.system];
  const rounds = t.rounds ? `, ${plural(t.rounds, "round")}` : "";
  const games = t.games === 2 ? ", two games a pairing (colours swapped)" : "";
  return `${system}${rounds}${games} · ${title} · clock ${t.clock}`;
}

class TournamentPage {
  constructor(me) {
    this.me = me; // the viewer's player id, or null
    this.t = null;
    this.arrived = 0; // performance.now() when the state came
    this.seenGame = undefined; // the player's game at the first answer
    this.title = null; // the variant's title, asked for once
    this.timer = null;
    this.ticker = null;
    this.variant = null; // the variant (its geometry for the small boards)
    this.socket = null; // the tournament's notice socket
    this.live = false; // whether it is open
    this.attempt = 0;
    this.busy = false; // a read under way
    this.again = false; // a notice came during it: read once more after
    this.watching = false; // the small boards are shown
    this.minis = new Map(); // game id -> {socket, board, tile}
  }

  /** The notice socket: each notice makes the page read the tournament again. */
  listen() {
    if (this.t?.status === "finished") return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    let socket;
    try {
      socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${encodeURIComponent(tournamentId)}`);
    } catch {
      this.retryListen();
      return;
    }
    this.socket = socket;
    let ping = null;
    socket.addEventListener("open", () => {
      this.attempt = 0;
      this.live = true;
      document.body.dataset.live = "socket";
      ping = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 25000);
      this.poll(); // what changed while it was down
    });
    socket.addEventListener("message", (event) => {
      let frame;
      try {
        frame = JSON.parse(event.data);
      } catch {
        return;
      }
      if (frame.type === "tournament") this.poll();
    });
    socket.addEventListener("close", (event) => {
      clearInterval(ping);
      if (this.socket !== socket) return;
      this.socket = null;
      this.live = false;
      document.body.dataset.live = "polling";
      if (event.code === 4404 || this.t?.status === "finished") return;
      this.poll(); // and polling goes on until the socket is back
      this.retryListen();
    });
  }

  retryListen() {
    const delay = Math.min(30000, 1000 * 2 ** this.attempt);
    this.attempt += 1;
    setTimeout(() => this.listen(), delay);
  }

  now() {
    return this.t.server_time + (performance.now() - this.arrived) / 1000;
  }

  async poll() {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    try {
      const t = await getJSON(url);
      if (!this.variant) {
        this.variant = await getJSON(`/api/variants/${encodeURIComponent(t.variant)}`).catch(() => null);
        this.title = this.variant?.title;
      }
      this.show(t);
    } catch (error) {
      if (!this.t) {
        $("tournament").replaceChildren(
          h("h1", {}, "Tournament"),
          h("p", { class: "status", id: "t-status" }, error.status === 404 ? "There is no such tournament." : `The tournament cannot be shown: ${error.message || error}.`),
          h("p", {}, h("a", { href: "/" }, "Back to the lobby")),
        );
        if (error.status === 404) return;
      } else showError($("error"), error.message || String(error));
    } finally {
      this.busy = false;
    }
    if (this.again) {
      this.again = false;
      this.poll();
      return;
    }
    clearTimeout(this.timer);
    if (this.t?.status !== "finished") {
      const soon = this.t?.status === "coming" && this.t.starts_at - this.now() < 10;
      this.timer = setTimeout(() => this.poll(), this.live ? SAFETY_MS : soon ? 1000 : POLL_MS);
    } else if (this.socket) {
      const socket = this.socket;
      this.socket = null;
      socket.close();
    }
  }

  show(t) {
    this.t = t;
    this.arrived = performance.now();
    const mine = t.you?.game ?? null;
    if (this.leaving) return; // on the way to his game: a later answer must not go again
    if (this.seenGame !== undefined && mine && mine !== this.seenGame) {
      this.leaving = true; // once: a second assignment would abort the first navigation
      location.href = `/games/${encodeURIComponent(mine)}`; // his new game: there he goes
      return;
    }
    this.seenGame = mine;
    this.render();
  }

  async act(path, body) {
    try {
      this.show(await postJSON(`${url}/${path}`, body));
    } catch (error) {
      showError($("error"), error.message || String(error));
    }
  }

  statusLine() {
    const t = this.t;
    if (t.status === "coming") return h("p", { class: "status", id: "t-status" }, `Starts in `, h("span", { class: "countdown", id: "t-countdown" }, duration(t.starts_at - this.now())), ` · ${plural(t.players, "player")} entered`);
    if (t.status === "playing" && t.system === "arena") {
      const left = t.ends_at - this.now();
      if (left <= 0) return h("p", { class: "status", id: "t-status" }, "Time is up: the last games are being played.");
      return h("p", { class: "status", id: "t-status" }, "Ends in ", h("span", { class: "countdown", id: "t-countdown" }, duration(left)), ` · ${plural(t.players, "player")} · a free player is paired at once`);
    }
    if (t.status === "playing") return h("p", { class: "status", id: "t-status" }, `Round ${t.round} of ${t.rounds} is being played · ${plural(t.players, "player")}`);
    if (t.cancelled) return h("p", { class: "status", id: "t-status" }, "Cancelled: fewer than two players at the start.");
    const after = t.system === "arena" ? "" : ` after ${plural(t.rounds, "round")}`;
    return h("p", { class: "status", id: "t-status" }, `Finished${after}. Winner: ${t.winner}.`);
  }

  actions() {
    const tour = this.t;
    const you = tour.you;
    if (tour.status === "finished") return null;
    if (tour.system === "arena" && tour.status === "playing" && tour.ends_at <= this.now()) return null;
    if (you?.joined && !you.withdrawn) {
      const note = tour.status === "playing" ? " (your game being played goes on: resign it or it is lost on time)" : "";
      const berserk =
        tour.system === "arena"
          ? h(
              "button",
              { type: "button", id: "t-berserk", "aria-pressed": you.berserk ? "true" : "false", title: "Half your time in your next games, a point more for a win of at least seven moves", onclick: () => this.act("berserk", { on: !you.berserk }) },
              you.berserk ? "Berserk: on ⚡" : "Berserk: off",
            )
          : null;
      if (tour.system === "arena" && tour.status === "playing") {
        const pause = h("button", { type: "button", id: "t-pause", title: t("Not paired again until you resume; your points stay"), onclick: () => this.act("pause", { on: true }) }, t("Pause"));
        return h("p", { class: "row" }, h("span", {}, "You are in."), berserk, pause);
      }
      return h("p", { class: "row" }, h("span", {}, "You are in."), berserk, h("button", { type: "button", class: "danger", id: "t-withdraw", onclick: () => this.act("withdraw") }, `Withdraw${note}`));
    }
    if (you?.paused && tour.status === "playing") {
      const resume = h("button", { type: "button", class: "primary", id: "t-resume", onclick: () => this.act("pause", { on: false }) }, t("Resume"));
      return h("p", { class: "row" }, h("span", { id: "t-paused" }, t("You have paused: you are paired again once you resume.")), resume);
    }
    if (tour.status === "playing" && tour.system === "round-robin") return h("p", { class: "muted" }, "A round robin takes no new players once started.");
    const password = tour.private ? h("input", { type: "password", id: "t-password", placeholder: "Password", "aria-label": "The tournament's password", autocomplete: "off" }) : null;
    const join = () => this.act("join", { password: password ? password.value : null });
    let late = tour.status === "playing" ? " (from the next round)" : "";
    if (tour.system === "arena" && tour.status === "playing") late = you?.withdrawn ? " again" : "";
    return h("p", { class: "row" }, password, h("button", { type: "button", class: "primary", id: "t-join", onclick: join }, `Join${late}`));
  }

  podium() {
    const t = this.t;
    if (t.status !== "finished" || t.cancelled) return null;
    const top = t.standings.filter((s) => s.rank <= 3).slice(0, 3);
    const order = [top[1], top[0], top[2]].filter(Boolean);
    return h(
      "div",
      { class: "podium", id: "t-podium", "aria-label": "Podium" },
      order.map((s) => h("div", { class: `place-${s.rank}` }, h("div", { class: "muted" }, ["1st", "2nd", "3rd"][s.rank - 1] || ""), h("div", {}, s.name), h("div", { class: "muted" }, points(s.score)))),
    );
  }

  render() {
    const t = this.t;
    document.title = `${t.name} — Damier`;
    const yourGame = t.you?.game ? h("p", { class: "notice", id: "t-your-game" }, "Your game is being played: ", h("a", { href: `/games/${encodeURIComponent(t.you.game)}` }, "go to your game")) : null;
    const entrants = t.status === "coming" ? h("p", { id: "t-entrants" }, t.entrants.length ? `Entered: ${t.entrants.map((e) => e.name).join(", ")}.` : "Nobody has entered yet.") : null;
    $("tournament").replaceChildren(
      ...[
        h("h1", { id: "t-name" }, t.name),
        h("p", { class: "muted" }, `${formatText(t, this.title || t.variant)} · by ${t.creator}${t.private ? " · private" : ""}`),
        this.statusLine(),
        this.podium(),
        yourGame,
        this.actions(),
        entrants,
        t.pairings.length ? h("p", {}, h("a", { class: "button", id: "t-pdn", href: `${url}/pdn`, download: true }, "Download every game (PDN)")) : null,
      ].filter(Boolean),
    );
    this.renderStandings();
    this.renderPairings();
    this.renderBoards();
    this.renderCross();
    clearInterval(this.ticker);
    const target = t.status === "coming" ? t.starts_at : t.status === "playing" && t.system === "arena" ? t.ends_at : null;
    if (target !== null) {
      this.ticker = setInterval(() => {
        const box = $("t-countdown");
        if (box) box.textContent = duration(target - this.now());
        if (target - this.now() <= 0) {
          clearInterval(this.ticker);
          this.poll();
        }
      }, 1000);
    }
  }

  renderStandings() {
    const t = this.t;
    $("standings-card").hidden = t.standings.length === 0;
    const heads = ["#", "Player", "Points", "Games", "+ = −", ...t.tie_breaks.map((b) => b.name)];
    const rows = t.standings.map((s) =>
      h(
        "tr",
        { class: s.id === this.me ? "you" : null, "data-player": s.id },
        h("td", {}, String(s.rank)),
        h("td", {}, s.name, s.fire ? h("span", { title: "On fire: two wins in a row, the next game counts double" }, " 🔥") : null, s.withdrawn ? h("span", { class: "muted" }, t.system === "arena" ? " (paused)" : " (withdrawn)") : null),
        h("td", {}, points(s.score)),
        h("td", {}, String(s.games)),
        h("td", {}, `${s.wins} ${s.draws} ${s.losses}`),
        t.tie_breaks.map((b) => h("td", {}, points(s.ties[b.key]))),
      ),
    );
    $("standings").replaceChildren(
      h("table", { class: "games", id: "t-standings" }, h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col" }, text)))), h("tbody", {}, rows)),
      h("p", { class: "muted" }, t.tie_breaks.length ? `Ties are parted by: ${t.tie_breaks.map((b) => b.name).join(", then ")}.` : "Players on the same points share the place."),
    );
  }

  renderPairings() {
    const t = this.t;
    $("pairings-card").hidden = t.pairings.length === 0;
    if (t.system === "arena") {
      $("pairings-title").textContent = "Games";
      const boards = t.pairings.flatMap((round) => round.boards).reverse().slice(0, 50);
      $("pairings").replaceChildren(this.boardsTable(boards));
      return;
    }
    const rounds = [...t.pairings].reverse().map((round) => {
      const open = round.number === t.round;
      return h("details", { open, "data-round": round.number }, h("summary", {}, `Round ${round.number}`), this.boardsTable(round.boards));
    });
    $("pairings").replaceChildren(...rounds);
  }

  boardsTable(boards) {
    const arena = this.t.system === "arena";
    const rows = boards.map((board) => {
      const links = board.games
        .filter((g) => g.game)
        .map((g) => h("a", { href: `/games/${encodeURIComponent(g.game)}`, class: "game-link" }, g.result ? `${g.result} ↗` : "watch"));
      let score = "";
      if (board.kind === "bye") score = `bye (${points(board.white_points)})`;
      else if (board.white_points !== null) score = `${points(board.white_points)} – ${points(board.black_points)}`;
      if (board.kind === "default") score += " (by default)";
      return h(
        "tr",
        {},
        arena ? null : h("td", {}, String(board.board)),
        h("td", {}, board.white.name, berserkMark(board, 1)),
        h("td", {}, board.black ? board.black.name : "—", berserkMark(board, 2)),
        h("td", {}, score),
        h("td", { class: "action" }, links.flatMap((link, i) => (i ? [" ", link] : [link]))),
      );
    });
    const heads = [arena ? null : "Board", "White", "Black", "Score", "Games"].filter(Boolean);
    return h("table", { class: "games" }, h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))), h("tbody", {}, rows));
  }

  /** The games being played now (the current round's, an arena's latest), by board. */
  liveGames() {
    const tour = this.t;
    const rounds = tour.system === "arena" ? tour.pairings : tour.pairings.filter((round) => round.number === tour.round);
    const games = [];
    for (const round of rounds) {
      for (const board of round.boards) {
        for (const link of board.games) {
          if (link.game && link.result === null && board.black) games.push({ id: link.game, board: board.board, white: link.white === board.white.id ? board.white : board.black, black: link.white === board.white.id ? board.black : board.white });
        }
      }
    }
    return games.slice(0, MAX_BOARDS);
  }

  /** The small boards: a button to show or hide them, and one board per game being played. */
  renderBoards() {
    const games = this.t.status === "playing" && this.variant ? this.liveGames() : [];
    $("boards-card").hidden = games.length === 0 && this.minis.size === 0;
    const toggle = $("t-watch");
    toggle.textContent = this.watching ? t("Hide the boards") : t("Watch the boards of the round");
    toggle.setAttribute("aria-pressed", this.watching ? "true" : "false");
    toggle.onclick = () => {
      this.watching = !this.watching;
      this.renderBoards();
    };
    const wanted = new Set(this.watching ? games.map((g) => g.id) : []);
    for (const [id, mini] of this.minis) {
      if (!wanted.has(id)) {
        mini.socket.close();
        mini.tile.remove();
        this.minis.delete(id);
      }
    }
    const box = $("t-boards");
    box.hidden = !this.watching;
    if (!this.watching) return;
    for (const game of games) {
      if (this.minis.has(game.id)) continue;
      const holder = h("div", { class: "mini-board" });
      const tile = h(
        "a",
        { class: "mini", href: `/games/${encodeURIComponent(game.id)}`, "data-game": game.id },
        h("div", { class: "mini-name" }, game.black.name),
        holder,
        h("div", { class: "mini-name" }, game.white.name),
      );
      box.append(tile);
      const board = new Board(holder, this.variant.geometry, { label: t("Board {n}", { n: game.board }), coordinates: "none" });
      const index = squareIndex(this.variant.geometry);
      const socket = new GameSocket(game.id, {
        onState: (state) => {
          board.setPosition(parseFen(index, state.fen));
          tile.dataset.ply = String(state.ply);
          if (state.status === "finished") tile.classList.add("over");
        },
      });
      socket.connect();
      this.minis.set(game.id, { socket, board, tile });
    }
  }

  renderCross() {
    const t = this.t;
    $("cross-card").hidden = t.crosstable.length === 0;
    const heads = ["Player", ...t.crosstable.map((_, i) => String(i + 1)), "Points"];
    const scores = Object.fromEntries(t.standings.map((s) => [s.id, s.score]));
    const rows = t.crosstable.map((row, i) =>
      h("tr", {}, h("td", {}, `${i + 1}. ${row.name}`), row.cells.map((cell) => h("td", {}, cell)), h("td", {}, points(scores[row.id]))),
    );
    $("crosstable").replaceChildren(h("table", { class: "games cross", id: "t-cross" }, h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))), h("tbody", {}, rows)));
  }
}

async function start() {
  const me = await getJSON("/api/session").catch(() => null);
  $("who").textContent = me ? `Playing as ${me.name}` : "Guest";
  const page = new TournamentPage(me ? me.id : null);
  await page.poll();
  page.listen();
}

start().catch((error) => showError($("error"), error.message || String(error)));
