// The leaderboards (/players): the best active players of a variant, as lichess ranks
// them (an established rating, a rated game lately), and your own place.
import { api, getJSON, h, showError } from "./api.js";
import { t, tn } from "./i18n.js";
import { $, playerLink, showWho, table } from "./player-views.js";

async function show(variant) {
  const board = await getJSON(`/api/leaderboards/${encodeURIComponent(variant)}`);
  $("rules-note").textContent = tn(
    "Registered players with a rating deviation under {deviation} and a rated game in the last {n} day.",
    "Registered players with a rating deviation under {deviation} and a rated game in the last {n} days.",
    board.active_days,
    { deviation: board.deviation_limit },
  );
  const you = board.you;
  const rows = board.players.map((p) => {
    const mine = you && you.place === p.place;
    return h(
      "tr",
      { class: mine ? "you" : null, "data-player": p.id },
      h("td", {}, String(p.place)),
      h("td", {}, playerLink(p.name)),
      h("td", {}, String(Math.round(p.rating))),
      h("td", {}, `±${Math.round(p.deviation)}`),
      h("td", {}, String(p.games)),
    );
  });
  $("leaderboard").replaceChildren(
    table(
      ["#", t("Player"), t("Rating"), t("Deviation"), t("Rated games")],
      rows,
      t("Nobody is ranked in this variant yet."),
      { id: "leaderboard-table" },
    ),
  );
  let place = t("Log in to a registered account to be ranked.");
  if (you && you.place) place = t("You are number {place} ({rating}).", { place: you.place, rating: Math.round(you.rating) });
  else if (you) place = t("You are not ranked: {why}.", { why: whyNot(board, you) });
  $("your-place").textContent = place;
}

/** Why the viewer is not ranked, from the board's limits (the server says it in English). */
function whyNot(board, you) {
  if (you.rating == null || !you.games) return t("no rated game yet");
  if (you.deviation >= board.deviation_limit) return t("your rating is not yet established: play more rated games");
  return tn("no rated game in the last {n} day", "no rated game in the last {n} days", board.active_days);
}

async function main() {
  await showWho();
  const select = $("variant");
  const wanted = new URLSearchParams(location.search).get("variant") || "international";
  try {
    const variants = await api.variants();
    for (const v of variants.filter((v) => v.players === 2)) {
      select.append(h("option", { value: v.name, selected: v.name === wanted }, v.title || v.name));
    }
    if (!select.value) select.value = wanted;
    select.addEventListener("change", () => {
      history.replaceState(null, "", `/players?variant=${encodeURIComponent(select.value)}`);
      show(select.value).catch((error) => showError($("error"), error.message || String(error)));
    });
    await show(select.value || wanted);
  } catch (error) {
    showError($("error"), error.message || String(error));
  }
}

main();
