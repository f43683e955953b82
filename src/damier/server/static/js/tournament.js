// A tournament (/tournaments/{id}): the countdown to its start, joining and withdrawing,
// the standings with their tie-breaks, each round's pairings with links to the games, the
// crosstable, the PDN of every game and, at the end, the podium. The tournament's socket
// (/ws/tournaments/{id}) says when it changes, and the page reads it again then; while the
// socket is down the page asks every few seconds. When the player's own new game starts,
// it takes him there. A spectator may watch the round's games on small boards (each
// board follows its game's socket).
import { GameSocket, getJSON, h, postJSON, showError, variantLinks } from "./api.js";
import { Board } from "./board.js";
import { N_, t, tn } from "./i18n.js";
import { parseFen, squareIndex } from "./position.js";

const POLL_MS = 3000;
const SAFETY_MS = 30000; // while the socket is open: a read now and then all the same
const MAX_BOARDS = 24;
const $ = (id) => document.getElementById(id);
const tournamentId = decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || "");
const url = `/api/tournaments/${encodeURIComponent(tournamentId)}`;

const SYSTEMS = { "round-robin": N_("Round robin"), swiss: N_("Swiss"), arena: N_("Arena") };
const PLACES = [N_("1st"), N_("2nd"), N_("3rd")];
const TIE_BREAKS = {
  direct: N_("Result between the tied players"),
  buchholz: N_("Buchholz (Solkoff)"),
  "median-buchholz": N_("Median Buchholz (truncated)"),
  "sonneborn-berger": N_("Sonneborn-Berger"),
};
const tieBreakName = (b) => (TIE_BREAKS[b.key] ? t(TIE_BREAKS[b.key]) : b.name);

/** 1, ½, 2½ for a score. */
export function points(value) {
  if (value === null || value === undefined) return "";
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

const roundCount = (n) => tn("{n} round", "{n} rounds", n);
const playerCount = (n) => tn("{n} player", "{n} players", n);

function duration(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const days = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60];
  const text = hms.map((n) => String(n).padStart(2, "0")).join(":");
  return days ? t("{days} d {time}", { days, time: text }) : text;
}

/** ⚡ after the name of a player who went berserk in an arena's game (+1 once it paid). */
function berserkMark(board, bit) {
  if (!(board.berserk & bit)) return null;
  const paid = board.bonus & bit;
  return h("span", { title: paid ? t("Berserk: a point more") : t("Berserk") }, paid ? " ⚡+1" : " ⚡");
}

function formatText(tour, title) {
  const clock = t("clock {clock}", { clock: tour.clock });
  if (tour.system === "arena") {
    const minutes = Math.round((tour.ends_at - tour.starts_at) / 60);
    const arena = tn(
      "Arena of {n} minute: 2 points a win, 1 a draw, double after two wins in a row",
      "Arena of {n} minutes: 2 points a win, 1 a draw, double after two wins in a row",
      minutes,
    );
    return `${arena} · ${title} · ${clock}`;
  }
  const system = tour.system === "round-robin" && tour.cycles === 2 ? t("Double round robin") : t(SYSTEMS[tour.system] || tour.system);
  const rounds = tour.rounds ? `, ${roundCount(tour.rounds)}` : "";
  const games = tour.games === 2 ? `, ${t("two games a pairing (colours swapped)")}` : "";
  return `${system}${rounds}${games} · ${title} · ${clock}`;
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
      const tour = await getJSON(url);
      if (!this.variant) {
        this.variant = await getJSON(`/api/variants/${encodeURIComponent(tour.variant)}`).catch(() => null);
        this.title = this.variant?.title;
        variantLinks(tour.variant, this.title || tour.variant);
      }
      this.show(tour);
    } catch (error) {
      if (!this.t) {
        $("tournament").replaceChildren(
          h("h1", {}, t("Tournament")),
          h("p", { class: "status", id: "t-status" }, error.status === 404 ? t("There is no such tournament.") : t("The tournament cannot be shown: {error}.", { error: error.message || error })),
          h("p", {}, h("a", { href: "/" }, t("Back to the lobby"))),
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

  show(tour) {
    this.t = tour;
    this.arrived = performance.now();
    const mine = tour.you?.game ?? null;
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
    const tour = this.t;
    const status = (...parts) => h("p", { class: "status", id: "t-status" }, ...parts);
    const countdown = (seconds) => h("span", { class: "countdown", id: "t-countdown" }, duration(seconds));
    if (tour.status === "coming") {
      const entered = tn("{n} player entered", "{n} players entered", tour.players);
      return status(`${t("Starts in")} `, countdown(tour.starts_at - this.now()), ` · ${entered}`);
    }
    if (tour.status === "playing" && tour.system === "arena") {
      const left = tour.ends_at - this.now();
      if (left <= 0) return status(t("Time is up: the last games are being played."));
      return status(`${t("Ends in")} `, countdown(left), ` · ${playerCount(tour.players)} · ${t("a free player is paired at once")}`);
    }
    if (tour.status === "playing") {
      return status(`${t("Round {round} of {rounds} is being played", { round: tour.round, rounds: tour.rounds })} · ${playerCount(tour.players)}`);
    }
    if (tour.cancelled) return status(t("Cancelled: fewer than two players at the start."));
    if (tour.system === "arena") return status(t("Finished. Winner: {winner}.", { winner: tour.winner }));
    const finished = tn("Finished after {n} round. Winner: {winner}.", "Finished after {n} rounds. Winner: {winner}.", tour.rounds, { winner: tour.winner });
    return status(finished);
  }

  actions() {
    const tour = this.t;
    const you = tour.you;
    if (tour.status === "finished") return null;
    if (tour.system === "arena" && tour.status === "playing" && tour.ends_at <= this.now()) return null;
    if (you?.joined && !you.withdrawn) {
      const withdraw = tour.status === "playing" ? t("Withdraw (your game being played goes on: resign it or it is lost on time)") : t("Withdraw");
      const berserk =
        tour.system === "arena"
          ? h(
              "button",
              { type: "button", id: "t-berserk", "aria-pressed": you.berserk ? "true" : "false", title: t("Half your time in your next games, a point more for a win of at least seven moves"), onclick: () => this.act("berserk", { on: !you.berserk }) },
              you.berserk ? t("Berserk: on ⚡") : t("Berserk: off"),
            )
          : null;
      if (tour.system === "arena" && tour.status === "playing") {
        const pause = h("button", { type: "button", id: "t-pause", title: t("Not paired again until you resume; your points stay"), onclick: () => this.act("pause", { on: true }) }, t("Pause"));
        return h("p", { class: "row" }, h("span", {}, t("You are in.")), berserk, pause);
      }
      return h("p", { class: "row" }, h("span", {}, t("You are in.")), berserk, h("button", { type: "button", class: "danger", id: "t-withdraw", onclick: () => this.act("withdraw") }, withdraw));
    }
    if (you?.paused && tour.status === "playing") {
      const resume = h("button", { type: "button", class: "primary", id: "t-resume", onclick: () => this.act("pause", { on: false }) }, t("Resume"));
      return h("p", { class: "row" }, h("span", { id: "t-paused" }, t("You have paused: you are paired again once you resume.")), resume);
    }
    if (tour.status === "playing" && tour.system === "round-robin") return h("p", { class: "muted" }, t("A round robin takes no new players once started."));
    const password = tour.private ? h("input", { type: "password", id: "t-password", placeholder: t("Password"), "aria-label": t("The tournament's password"), autocomplete: "off" }) : null;
    const join = () => this.act("join", { password: password ? password.value : null });
    let label = tour.status === "playing" ? t("Join (from the next round)") : t("Join");
    if (tour.system === "arena" && tour.status === "playing") label = you?.withdrawn ? t("Join again") : t("Join");
    return h("p", { class: "row" }, password, h("button", { type: "button", class: "primary", id: "t-join", onclick: join }, label));
  }

  podium() {
    const tour = this.t;
    if (tour.status !== "finished" || tour.cancelled) return null;
    const top = tour.standings.filter((s) => s.rank <= 3).slice(0, 3);
    const order = [top[1], top[0], top[2]].filter(Boolean);
    return h(
      "div",
      { class: "podium", id: "t-podium", "aria-label": t("Podium") },
      order.map((s) => h("div", { class: `place-${s.rank}` }, h("div", { class: "muted" }, PLACES[s.rank - 1] ? t(PLACES[s.rank - 1]) : ""), h("div", {}, s.name), h("div", { class: "muted" }, points(s.score)))),
    );
  }

  render() {
    const tour = this.t;
    document.title = `${tour.name} — Damier`;
    const yourGame = tour.you?.game ? h("p", { class: "notice", id: "t-your-game" }, `${t("Your game is being played:")} `, h("a", { href: `/games/${encodeURIComponent(tour.you.game)}` }, t("go to your game"))) : null;
    const names = tour.entrants.map((e) => e.name).join(", ");
    const entrants = tour.status === "coming" ? h("p", { id: "t-entrants" }, tour.entrants.length ? t("Entered: {names}.", { names }) : t("Nobody has entered yet.")) : null;
    const by = t("by {name}", { name: tour.creator });
    $("tournament").replaceChildren(
      ...[
        h("h1", { id: "t-name" }, tour.name),
        h("p", { class: "muted" }, `${formatText(tour, this.title || tour.variant)} · ${by}${tour.private ? ` · ${t("private")}` : ""}`),
        this.statusLine(),
        this.podium(),
        yourGame,
        this.actions(),
        entrants,
        tour.pairings.length ? h("p", {}, h("a", { class: "button", id: "t-pdn", href: `${url}/pdn`, download: true }, t("Download every game (PDN)"))) : null,
      ].filter(Boolean),
    );
    this.renderStandings();
    this.renderPairings();
    this.renderBoards();
    this.renderCross();
    clearInterval(this.ticker);
    const target = tour.status === "coming" ? tour.starts_at : tour.status === "playing" && tour.system === "arena" ? tour.ends_at : null;
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
    const tour = this.t;
    $("standings-card").hidden = tour.standings.length === 0;
    const heads = ["#", t("Player"), t("Points"), t("Games"), "+ = −", ...tour.tie_breaks.map(tieBreakName)];
    const rows = tour.standings.map((s) =>
      h(
        "tr",
        { class: s.id === this.me ? "you" : null, "data-player": s.id },
        h("td", {}, String(s.rank)),
        h("td", {}, s.name, s.fire ? h("span", { title: t("On fire: two wins in a row, the next game counts double") }, " 🔥") : null, s.withdrawn ? h("span", { class: "muted" }, ` ${tour.system === "arena" ? t("(paused)") : t("(withdrawn)")}`) : null),
        h("td", {}, points(s.score)),
        h("td", {}, String(s.games)),
        h("td", {}, `${s.wins} ${s.draws} ${s.losses}`),
        tour.tie_breaks.map((b) => h("td", {}, points(s.ties[b.key]))),
      ),
    );
    const then = t(", then ");
    const tieBreaks = tour.tie_breaks.map(tieBreakName).join(then);
    $("standings").replaceChildren(
      h("table", { class: "games", id: "t-standings" }, h("thead", {}, h("tr", {}, heads.map((text) => h("th", { scope: "col" }, text)))), h("tbody", {}, rows)),
      h("p", { class: "muted" }, tour.tie_breaks.length ? t("Ties are parted by: {tie_breaks}.", { tie_breaks: tieBreaks }) : t("Players on the same points share the place.")),
    );
  }

  renderPairings() {
    const tour = this.t;
    $("pairings-card").hidden = tour.pairings.length === 0;
    if (tour.system === "arena") {
      $("pairings-title").textContent = t("Games");
      const boards = tour.pairings.flatMap((round) => round.boards).reverse().slice(0, 50);
      $("pairings").replaceChildren(this.boardsTable(boards));
      return;
    }
    const rounds = [...tour.pairings].reverse().map((round) => {
      const open = round.number === tour.round;
      return h("details", { open, "data-round": round.number }, h("summary", {}, t("Round {n}", { n: round.number })), this.boardsTable(round.boards));
    });
    $("pairings").replaceChildren(...rounds);
  }

  boardsTable(boards) {
    const arena = this.t.system === "arena";
    const rows = boards.map((board) => {
      const links = board.games
        .filter((g) => g.game)
        .map((g) => h("a", { href: `/games/${encodeURIComponent(g.game)}`, class: "game-link" }, g.result ? `${g.result} ↗` : t("watch")));
      let score = "";
      if (board.kind === "bye") score = t("bye ({points})", { points: points(board.white_points) });
      else if (board.white_points !== null) score = `${points(board.white_points)} – ${points(board.black_points)}`;
      if (board.kind === "default") score += ` ${t("(by default)")}`;
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
    const heads = [arena ? null : t("Board"), t("White"), t("Black"), t("Score"), t("Games")].filter(Boolean);
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
    const tour = this.t;
    $("cross-card").hidden = tour.crosstable.length === 0;
    const heads = [t("Player"), ...tour.crosstable.map((_, i) => String(i + 1)), t("Points")];
    const scores = Object.fromEntries(tour.standings.map((s) => [s.id, s.score]));
    const rows = tour.crosstable.map((row, i) =>
      h("tr", {}, h("td", {}, `${i + 1}. ${row.name}`), row.cells.map((cell) => h("td", {}, cell)), h("td", {}, points(scores[row.id]))),
    );
    $("crosstable").replaceChildren(h("table", { class: "games cross", id: "t-cross" }, h("thead", {}, h("tr", {}, heads.map((x) => h("th", { scope: "col" }, x)))), h("tbody", {}, rows)));
  }
}

async function start() {
  const me = await getJSON("/api/session").catch(() => null);
  $("who").textContent = me ? t("Playing as {name}", { name: me.name }) : t("Guest");
  const page = new TournamentPage(me ? me.id : null);
  await page.poll();
  page.listen();
}

start().catch((error) => showError($("error"), error.message || String(error)));
