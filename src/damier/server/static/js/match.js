// A match: its score, its games, who has which colour in the coming game and its opening,
// and the "Ready" button that starts it (it starts anyway when the pause is over). On the
// match page (/matches/{id}) it is the whole page; on the game page of a match's game it is
// a panel under the game, and it takes the players to the next game when it starts.
import { t, tn } from "./i18n.js";
import { api, h, playerName, resultText, showError, variantLinks } from "./api.js";

const POLL_MS = 1000;
const $ = (id) => document.getElementById(id);
const path = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
const onGamePage = path[0] === "games";

function points(value) {
  const whole = Math.floor(value);
  const half = value - whole >= 0.5 ? "½" : "";
  return whole === 0 && half ? half : `${whole}${half}`;
}

function name(match, side) {
  return playerName(match.players[side].name) || t("(waiting)");
}

function roundRow(match, round, gameId) {
  const white = name(match, round.white);
  const black = name(match, 1 - round.white);
  const score = round.points ? `${points(round.points[0])}–${points(round.points[1])}` : "";
  let outcome = t("coming");
  if (round.points) outcome = resultText(round.result);
  else if (round.game) outcome = t("being played");
  let link = null;
  if (round.game && round.game !== gameId) {
    const text = round.points ? t("View") : match.you !== null ? t("Play") : t("Watch");
    link = h("a", { href: `/games/${encodeURIComponent(round.game)}` }, text);
  }
  if (gameId) {
    // The game page's panel is narrow: the players in one cell, White first, the game's score
    // in the same order, and the link under the result.
    const [a, b] = round.points ? [round.points[round.white], round.points[1 - round.white]] : [];
    return h(
      "tr",
      { "data-round": round.number },
      h("td", {}, String(round.number)),
      h("td", { class: "players" }, `${white} – ${black}`),
      h("td", { class: "score" }, round.points ? `${points(a)}–${points(b)}` : ""),
      h("td", {}, outcome, link ? h("span", { class: "link" }, link) : null),
    );
  }
  return h(
    "tr",
    { "data-round": round.number },
    h("td", {}, String(round.number)),
    h("td", {}, white),
    h("td", {}, black),
    h("td", {}, round.opening.length ? round.opening.join(" ") : t("from the start")),
    h("td", {}, score),
    h("td", {}, outcome),
    h("td", { class: "action" }, link),
  );
}

function comingText(match, arrived) {
  const round = match.rounds[match.rounds.length - 1];
  if (match.status !== "playing" || !round || round.game) return null;
  const values = { number: round.number, white: name(match, round.white), black: name(match, 1 - round.white) };
  let text = round.opening.length
    ? t("Game {number}: {white} has White, {black} Black, from the opening {opening}.", { ...values, opening: round.opening.join(" ") })
    : t("Game {number}: {white} has White, {black} Black.", values);
  if (match.next_at) {
    const left = Math.max(0, Math.ceil(match.next_at - match.server_time - (performance.now() - arrived) / 1000));
    text += ` ${t("It starts when both players are ready, or in {seconds} s.", { seconds: left })}`;
  } else {
    text += ` ${t("It starts when both players are ready.")}`;
  }
  return text;
}

function statusText(match) {
  const [a, b] = match.players;
  const score = `${playerName(a.name) || "?"} ${points(a.score)} – ${points(b.score)} ${playerName(b.name) || t("(waiting)")}`;
  if (match.status === "open") {
    return tn("Waiting for an opponent to join this match of {n} game.", "Waiting for an opponent to join this match of {n} games.", match.games);
  }
  if (match.status === "finished") {
    return match.winner === null
      ? t("Match drawn: {score}.", { score })
      : t("Match over: {player} wins, {score}.", { player: name(match, match.winner), score });
  }
  return t("Score: {score}.", { score });
}

class MatchView {
  constructor(box, matchId, gameId) {
    this.box = box;
    this.matchId = matchId;
    this.gameId = gameId; // the game page's game (null on the match page)
    this.match = null;
    this.arrived = 0;
    this.timer = null;
    this.title = null; // the variant's title, asked for once
    this.missing = false; // the server has no such match
  }

  async poll() {
    try {
      this.match = await api.match(this.matchId);
      if (!this.title) {
        this.title = (await api.variant(this.match.variant)).title;
        variantLinks(this.match.variant, this.title);
      }
      this.arrived = performance.now();
      const current = this.match.current;
      if (current && this.match.you !== null && current !== this.gameId) {
        location.href = `/games/${encodeURIComponent(current)}`;
        return;
      }
      this.render();
    } catch (error) {
      if (this.match) showError($("error"), error.message || String(error));
      else this.failed(error);
    } finally {
      clearTimeout(this.timer);
      // Every second while the coming game waits (its countdown), slower while a game is
      // played; a finished match does not change, and a match that is not there never comes.
      const waiting = this.match && comingText(this.match, this.arrived) !== null;
      const over = this.match?.status === "finished" || this.missing;
      if (!over) this.timer = setTimeout(() => this.poll(), waiting ? POLL_MS : 3 * POLL_MS);
    }
  }

  /** The first answer was an error: it stands where the match would be (on the match page;
   *  the game page's panel stays hidden), and the page stops asking when there is no match. */
  failed(error) {
    this.missing = error.status === 404;
    if (this.gameId) {
      showError($("error"), error.message || String(error));
      return;
    }
    this.box.replaceChildren(
      h("h2", {}, t("Match")),
      h("p", { id: "match-status", class: "status" }, this.missing ? t("There is no such match.") : t("The match cannot be shown: {problem}.", { problem: error.message || error })),
      h("p", {}, h("a", { href: "/" }, t("Back to the lobby"))),
    );
  }

  async ready(button) {
    button.disabled = true;
    try {
      this.match = await api.ready(this.matchId);
      this.arrived = performance.now();
      this.poll();
    } catch (error) {
      button.disabled = false;
      showError($("error"), error.message || String(error));
    }
  }

  render() {
    const match = this.match;
    const coming = comingText(match, this.arrived);
    const you = match.you;
    let action = null;
    if (coming && you !== null) {
      action = match.players[you].ready
        ? h("p", { class: "muted" }, t("You are ready: waiting for {player}.", { player: name(match, 1 - you) }))
        : h("button", { type: "button", class: "primary", id: "match-ready", onclick: (event) => this.ready(event.currentTarget) }, t("Ready for the next game"));
    }
    let invite = null;
    if (match.status === "open" && you !== null) {
      invite = h("p", {}, `${t("Invite someone with this link:")} `, h("a", { href: location.href.split("#")[0] }, location.href));
    } else if (match.status === "open") {
      invite = h("button", { type: "button", class: "primary", id: "match-join", onclick: () => this.join() }, t("Join this match"));
    }
    const rounds = match.rounds.map((round) => roundRow(match, round, this.gameId));
    // The panel has no room for the openings, nor for a column of each player.
    const headings = this.gameId
      ? ["#", `${t("White")} – ${t("Black")}`, t("Score"), t("Result")]
      : [t("Game"), t("White"), t("Black"), t("Opening"), `${name(match, 0)}–${name(match, 1)}`, t("Result"), ""];
    const children = [
      h("h2", {}, this.gameId ? t("A game of a match of {n}", { n: match.games }) : tn("Match of {variant}, {n} game", "Match of {variant}, {n} games", match.games, { variant: this.title })),
      h("p", { id: "match-status", class: "status", role: "status" }, statusText(match)),
      coming ? h("p", { id: "match-coming" }, coming) : null,
      action,
      invite,
      h(
        "table",
        { class: "games", id: "match-rounds" },
        h("thead", {}, h("tr", {}, headings.map((text) => h("th", { scope: "col" }, text)))),
        h("tbody", {}, rounds),
      ),
      h("p", {}, h("a", { class: "button", href: api.matchPdnUrl(match.id), download: true }, t("Download the match (PDN)")), " ", this.gameId ? h("a", { href: `/matches/${encodeURIComponent(match.id)}` }, t("Match page")) : null),
    ];
    this.box.replaceChildren(...children.filter(Boolean));
    this.box.hidden = false;
  }

  async join() {
    try {
      await api.joinMatch(this.matchId);
      this.poll();
    } catch (error) {
      showError($("error"), error.message || String(error));
    }
  }
}

async function start() {
  if (onGamePage) {
    const game = await api.game(path[1]);
    if (!game.match) return;
    document.body.classList.add("in-match");
    new MatchView($("match-panel"), game.match, game.id).poll();
    return;
  }
  const me = await api.me();
  $("who").textContent = me ? t("Playing as {name}", { name: me.name }) : t("Guest");
  new MatchView($("match"), path[1], null).poll();
}

start().catch((error) => {
  showError($("error"), error.message || String(error));
  if (!onGamePage) $("match").replaceChildren(h("p", { class: "status" }, t("The match cannot be shown: {problem}.", { problem: error.message || error })));
});
