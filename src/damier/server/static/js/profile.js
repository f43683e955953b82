// A player's page (/players/{name}): his ratings per variant with a chart of their history
// (SVG, as the review's graph: no chart library), his results, his games and matches, and
// his score against you. Everything comes from GET /api/profiles/{name}.
import { ApiError, api, getJSON, h, showError } from "./api.js";
import { t, tn } from "./i18n.js";
import { $, day, gameLink, outcomeFor, playerLink, ratingText, seatCell, showWho, statusWord, table } from "./player-views.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 600;
const HEIGHT = 180;
const PAD = { left: 44, right: 10, top: 10, bottom: 22 };
const titles = new Map(); // variant name -> its title in the player's language

function variantTitle(name) {
  return titles.get(name) || name;
}

function svg(tag, attributes = {}, text) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Round numbers for the rating axis: about four lines between `low` and `high`. */
function ticks(low, high) {
  const span = Math.max(high - low, 1);
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || raw;
  const values = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) values.push(v);
  return values;
}

/** The chart of one variant's rating after each rated game (the starting 1500 first). */
export function ratingChart(rating) {
  const points = [{ rating: 1500, at: null, game: null }, ...rating.history];
  const values = points.map((p) => p.rating);
  const low = Math.floor(Math.min(...values) - 20);
  const high = Math.ceil(Math.max(...values) + 20);
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const x = (i) => PAD.left + (points.length > 1 ? (i / (points.length - 1)) * innerW : innerW / 2);
  const y = (r) => PAD.top + (1 - (r - low) / (high - low)) * innerH;
  const root = svg("svg", {
    class: "rating-chart",
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    role: "img",
    "data-variant": rating.variant,
    "aria-label": tn(
      "{variant}: the rating after {n} rated game, now {rating}",
      "{variant}: the rating after each of {n} rated games, now {rating}",
      rating.history.length,
      { variant: variantTitle(rating.variant), rating: Math.round(rating.rating) },
    ),
  });
  for (const value of ticks(low, high)) {
    root.append(svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(value), y2: y(value), class: "grid" }));
    root.append(svg("text", { x: PAD.left - 6, y: y(value) + 4, class: "axis", "text-anchor": "end" }, String(value)));
  }
  root.append(svg("text", { x: PAD.left, y: HEIGHT - 6, class: "axis" }, t("first rating")));
  const last = rating.history[rating.history.length - 1];
  if (last) {
    root.append(svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, class: "axis", "text-anchor": "end" }, day(last.at)));
  }
  const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
  root.append(svg("polyline", { points: line, class: "rating-line" }));
  points.forEach((point, i) => {
    if (!point.game) return;
    const link = svg("a", { href: `/games/${encodeURIComponent(point.game)}`, class: "rating-point" });
    const dot = svg("circle", { cx: x(i).toFixed(1), cy: y(point.rating).toFixed(1), r: 3.5, "data-game": point.game });
    dot.append(svg("title", {}, t("{rating} after the game of {date}", { rating: Math.round(point.rating), date: day(point.at) })));
    link.append(dot);
    root.append(link);
  });
  return root;
}

/** "2 won · 0 drawn · 1 lost (3 games)": each count with its own plural. */
function tallyText(tally) {
  const parts = [
    tn("{n} won", "{n} won", tally.wins),
    tn("{n} drawn", "{n} drawn", tally.draws),
    tn("{n} lost", "{n} lost", tally.losses),
  ];
  return `${parts.join(" · ")} ${tn("({n} game)", "({n} games)", tally.games)}`;
}

function ratingsSection(page) {
  if (!page.ratings.length) {
    return h("p", { class: "empty" }, page.registered ? t("No rated games yet.") : t("Guests have no ratings: their games are not rated."));
  }
  const rows = page.ratings.map((r) => [
    h("a", { href: `#chart-${r.variant}` }, variantTitle(r.variant)),
    h("span", { title: r.provisional ? t("Provisional: too few games yet") : "" }, ratingText(r.rating, r.provisional)),
    `±${Math.round(r.deviation)}`,
    String(r.games),
    h("a", { href: `/players?variant=${encodeURIComponent(r.variant)}` }, t("Leaderboard")),
  ]);
  const charts = page.ratings.map((r) =>
    h(
      "figure",
      { class: "chart", id: `chart-${r.variant}` },
      h(
        "figcaption",
        {},
        t("{variant}: {rating}", { variant: variantTitle(r.variant), rating: ratingText(r.rating, r.provisional) }),
        r.provisional ? h("span", { class: "muted" }, ` ${t("(provisional)")}`) : "",
      ),
      ratingChart(r),
    ),
  );
  return h("div", {}, table([t("Variant"), t("Rating"), t("Deviation"), t("Rated games"), ""], rows, ""), ...charts);
}

function resultsSection(results) {
  if (!results.overall.games) return h("p", { class: "empty" }, t("No finished games yet."));
  const rows = results.variants.map((v) => [variantTitle(v.variant), String(v.wins), String(v.draws), String(v.losses), String(v.games)]);
  return h("div", {}, h("p", { id: "overall" }, tallyText(results.overall)), table(tallyHeadings(true), rows, ""));
}

/** The headings of a table of results by variant: wins, draws, losses (and games). */
function tallyHeadings(games) {
  const headings = [t("Variant"), t("Wins"), t("Draws"), t("Losses")];
  return games ? [...headings, t("Games")] : headings;
}

function gamesTable(games, id, emptyText) {
  const rows = games.map((g) => [
    day(g.created),
    variantTitle(g.variant),
    g.clock?.control || "—",
    h("span", {}, seatCell(g.white), " – ", seatCell(g.black)),
    outcomeFor(g, id),
    gameLink(g),
  ]);
  return table([t("Date"), t("Variant"), t("Clock"), t("Players"), t("Result"), ""], rows, emptyText);
}

function matchesTable(matches) {
  const rows = matches.map((m) => [
    day(m.created),
    variantTitle(m.variant),
    m.opponent_id && m.opponent ? playerLink(m.opponent) : m.opponent || t("(waiting)"),
    tn("{score} ({n} game)", "{score} ({n} games)", m.games, { score: `${m.points}–${m.opponent_points}` }),
    statusWord(m.status),
    h("a", { href: `/matches/${encodeURIComponent(m.id)}` }, t("Open")),
  ]);
  return table([t("Date"), t("Variant"), t("Opponent"), t("Score"), t("Status"), ""], rows, t("No matches yet."));
}

function render(page) {
  document.title = `${page.name} — Damier`;
  $("player-name").textContent = page.name;
  const since = day(page.created);
  $("player-note").textContent = page.registered
    ? t("Registered player since {date}", { date: since })
    : t("Guest since {date}", { date: since });
  $("ratings").replaceChildren(ratingsSection(page));
  $("results").replaceChildren(resultsSection(page.results));
  const versus = $("versus");
  versus.hidden = !page.versus_you;
  if (page.versus_you) {
    const v = page.versus_you;
    $("versus-body").replaceChildren(
      h("p", { id: "versus-overall" }, t("{player} against you: {tally}", { player: page.name, tally: tallyText(v.overall) })),
      table(tallyHeadings(false), v.variants.map((x) => [variantTitle(x.variant), String(x.wins), String(x.draws), String(x.losses)]), ""),
      v.overall.games
        ? h("p", {}, h("a", { href: `/archive?player=${encodeURIComponent(page.name)}&opponent=${encodeURIComponent(v.opponent)}` }, t("Your games together")))
        : "",
    );
  }
  $("current").replaceChildren(gamesTable(page.current, page.id, t("No game being played.")));
  $("recent").replaceChildren(gamesTable(page.recent, page.id, t("No finished games yet.")));
  $("matches").replaceChildren(matchesTable(page.matches));
  $("archive-link").href = `/archive?player=${encodeURIComponent(page.name)}`;
  $("archive-link").hidden = false;
}

async function main() {
  const name = decodeURIComponent(location.pathname.split("/")[2] || "");
  await showWho();
  try {
    for (const v of await api.variants()) titles.set(v.name, v.title || v.name);
  } catch {
    // the variants' names stand for their titles
  }
  try {
    render(await getJSON(`/api/profiles/${encodeURIComponent(name)}`));
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      $("player-name").textContent = t("No such player");
      $("player-note").textContent = t("Nobody is called {name}.", { name });
    } else {
      showError($("error"), error.message || String(error));
    }
  }
}

main();
