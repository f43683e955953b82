// The game archive (/archive): every finished game, newest first, filtered by player,
// opponent, variant, mode, result, dates and opening; a page at a time ("Older games"
// follows the answer's cursor); the filtered set's PDN in one download. The filters are
// the page's query string, so a filtered archive can be linked to (the profile does).
import { api, getJSON, h, showError } from "./api.js";
import { t } from "./i18n.js";
import { $, day, gameLink, outcomeFor, seatCell, showWho, table } from "./player-views.js";

const FIELDS = ["player", "opponent", "variant", "mode", "result", "since", "until", "opening"];
let cursor = null;
let rows = [];
let playerId = null;
const titles = new Map(); // variant name -> its title in the player's language

function query() {
  const params = new URLSearchParams();
  for (const field of FIELDS) {
    const value = $(`f-${field}`).value.trim();
    if (value) params.set(field, value);
  }
  return params;
}

function render() {
  const body = rows.map((g) =>
    h(
      "tr",
      { "data-game": g.id },
      h("td", {}, day(g.finished)),
      h("td", {}, titles.get(g.variant) || g.variant),
      h("td", {}, g.clock?.control || "—"),
      h("td", {}, seatCell(g.white), " – ", seatCell(g.black)),
      h("td", {}, playerId ? outcomeFor(g, playerId) : g.result?.pdn || ""),
      h("td", { class: "opening" }, g.opening.join(" ") + (g.ply > g.opening.length ? " …" : "")),
      h("td", {}, String(Math.ceil(g.ply / 2))),
      h("td", {}, g.rated ? t("rated") : t("casual")),
      h("td", {}, gameLink(g, t("Review"))),
    ),
  );
  const headings = [t("Finished"), t("Variant"), t("Clock"), t("Players"), t("Result"), t("Opening"), t("Moves"), "", ""];
  $("archive-list").replaceChildren(
    table(headings, body, t("No game matches these filters."), { id: "archive-table" }),
  );
  $("more").hidden = cursor === null;
}

async function load(more) {
  const params = query();
  if (more && cursor) params.set("after", cursor);
  const page = await getJSON(`/api/archive?${params}`);
  rows = more ? rows.concat(page.games) : page.games;
  cursor = page.next;
  render();
}

async function search() {
  const params = query();
  history.replaceState(null, "", `/archive${params.size ? `?${params}` : ""}`);
  $("pdn").href = `/api/archive/pdn?${params}`;
  playerId = null;
  const player = params.get("player");
  if (player) {
    try {
      playerId = (await getJSON(`/api/profiles/${encodeURIComponent(player)}`)).id;
    } catch {
      playerId = null;
    }
  }
  await load(false);
}

function report(error) {
  showError($("error"), error.message || String(error));
}

async function main() {
  await showWho();
  const select = $("f-variant");
  try {
    for (const v of await api.variants()) {
      titles.set(v.name, v.title || v.name);
      select.append(h("option", { value: v.name }, v.title || v.name));
    }
  } catch (error) {
    report(error);
  }
  const given = new URLSearchParams(location.search);
  for (const field of FIELDS) if (given.has(field)) $(`f-${field}`).value = given.get(field);
  $("filters").addEventListener("submit", (event) => {
    event.preventDefault();
    search().catch(report);
  });
  $("clear").addEventListener("click", () => {
    for (const field of FIELDS) $(`f-${field}`).value = "";
    search().catch(report);
  });
  $("more").addEventListener("click", () => load(true).catch(report));
  await search().catch(report);
}

main();
