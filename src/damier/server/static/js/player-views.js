// What the players' pages share (profile.js, players.js, archive.js): the header's
// "who", links to players and games, a game's result from one player's side, and tables.
import { api, h, resultText, seatLabel } from "./api.js";
import { language, t } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

/** Fills the header's "who" with the current player (a link to his page); returns him. */
export async function showWho() {
  let me = null;
  try {
    me = await api.me();
  } catch {
    me = null;
  }
  const who = $("who");
  if (who) {
    // The sentence's own words around the link ("{name}" may stand anywhere in it).
    const [before, after = ""] = t("Playing as {name}").split("{name}");
    who.replaceChildren(me ? h("span", {}, before, playerLink(me.name), after) : t("Guest"));
  }
  return me;
}

export function playerHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

export function playerLink(name, label = name) {
  if (!name) return h("span", { class: "muted" }, "?");
  return h("a", { href: playerHref(name) }, label);
}

/** A seat of a game summary as a link to the player (the computer and guests as text). */
export function seatCell(seat) {
  if (!seat || seat.kind === "computer" || !seat.id) return seatLabel(seat);
  return seat.guest ? t("{name} (guest)", { name: seat.name }) : playerLink(seat.name);
}

export function day(seconds) {
  if (seconds == null) return "";
  return new Date(seconds * 1000).toLocaleDateString(language, { dateStyle: "medium" });
}

/** A game's or a match's status in the player's language ("playing", "open"). */
export function statusWord(status) {
  const words = { open: t("open"), playing: t("playing"), finished: t("finished"), aborted: t("aborted") };
  return words[status] ?? status ?? "";
}

/** "Won", "Lost", "Draw" for the player `id` in a two-player game, else the result. */
export function outcomeFor(game, id) {
  const result = game.result;
  if (!result) return game.status === "finished" ? "" : statusWord(game.status);
  if (result.reason === "aborted") return t("Aborted");
  if (game.players !== 2 || !id) return resultText(result);
  const mine = game.white?.id === id ? "white" : game.black?.id === id ? "black" : null;
  if (!mine) return resultText(result);
  if (!result.winner) return t("Draw");
  return result.winner === mine ? t("Won") : t("Lost");
}

export function gameLink(game, label = t("Open")) {
  return h("a", { href: `/games/${encodeURIComponent(game.id)}` }, label);
}

/** A table of class "games": headings and rows of cells (strings or nodes). */
export function table(headings, rows, emptyText, attributes = {}) {
  if (!rows.length) return h("p", { class: "empty" }, emptyText);
  return h(
    "table",
    { class: "games", ...attributes },
    h("thead", {}, h("tr", {}, headings.map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, rows.map((cells) => (cells instanceof Node ? cells : h("tr", {}, cells.map((c) => h("td", {}, c)))))),
  );
}

/** "1850?" for a provisional rating. */
export function ratingText(rating, provisional) {
  return `${Math.round(rating)}${provisional ? "?" : ""}`;
}
