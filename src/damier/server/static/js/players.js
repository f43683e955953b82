// The leaderboards (/players): the best active players of a variant, as lichess ranks
// them (an established rating, a rated game lately), and your own place.
import { api, getJSON, h, showError } from "./api.js";
import { $, playerLink, showWho, table } from "./player-views.js";

async function show(variant) {
  const board = await getJSON(`/api/leaderboards/${encodeURIComponent(variant)}`);
  $("rules-note").textContent =
    `Registered players with a rating deviation under ${board.deviation_limit} ` +
    `and a rated game in the last ${board.active_days} days.`;
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
    table(["#", "Player", "Rating", "Deviation", "Rated games"], rows, "Nobody is ranked in this variant yet.", { id: "leaderboard-table" }),
  );
  let place = "Log in to a registered account to be ranked.";
  if (you && you.place) place = `You are number ${you.place} (${Math.round(you.rating)}).`;
  else if (you) place = `You are not ranked: ${you.why_not}.`;
  $("your-place").textContent = place;
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
