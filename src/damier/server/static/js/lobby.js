// The lobby: a name, the game lists (polled), and the form that creates a game.
import { api, controlOf, h, resultText, seatLabel, showError } from "./api.js";

const errorBox = document.getElementById("error");
const REFRESH_MS = 4000;
const SETTINGS_KEY = "damier.newGame";

let me = null;
const titles = new Map();

function fail(error) {
  showError(errorBox, error.message || String(error));
}

function variantTitle(name) {
  return titles.get(name) || name;
}

function gameLink(id, text) {
  return h("a", { href: `/games/${encodeURIComponent(id)}` }, text);
}

function mine(game) {
  return Boolean(me) && [game.white, game.black].some((seat) => seat && seat.id === me.id);
}

function showMe() {
  const who = document.getElementById("who");
  const status = document.getElementById("name-status");
  if (me) {
    who.textContent = `Playing as ${me.name}`;
    status.textContent = `You play as ${me.name}.`;
    const input = document.getElementById("name-input");
    if (!input.value) input.value = me.name;
  } else {
    who.textContent = "Guest";
    status.textContent = "Choose a name, or play as a guest.";
  }
}

function table(headings, rows, emptyText) {
  if (!rows.length) return h("p", { class: "empty" }, emptyText);
  return h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, headings.map((text) => h("th", { scope: "col" }, text)))),
    h("tbody", {}, rows),
  );
}

function openRow(game) {
  const creatorSeat = game.white && game.white.id ? game.white : game.black;
  const creatorColor = creatorSeat === game.white ? "white" : "black";
  let action;
  if (mine(game)) {
    action = h("a", { class: "button", href: `/games/${encodeURIComponent(game.id)}` }, "Your game");
  } else {
    action = h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-join": game.id,
        "aria-label": `Join ${seatLabel(creatorSeat)}'s ${variantTitle(game.variant)} game`,
        onclick: (event) => join(game.id, event.currentTarget),
      },
      "Join",
    );
  }
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, controlOf(game.clock) || "no clock"),
    h("td", {}, `${seatLabel(creatorSeat)} (${creatorColor})`),
    h("td", { class: "action" }, action),
  );
}

function liveRow(game) {
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, `${seatLabel(game.white)} – ${seatLabel(game.black)}`),
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, controlOf(game.clock) || "no clock"),
    h(
      "td",
      { class: "action" },
      h(
        "a",
        { class: "button", href: `/games/${encodeURIComponent(game.id)}` },
        mine(game) ? "Play" : "Watch",
      ),
    ),
  );
}

function finishedRow(game) {
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, `${seatLabel(game.white)} – ${seatLabel(game.black)}`),
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, game.result ? `${game.result.pdn || ""} ${resultText(game.result)}` : ""),
    h("td", { class: "action" }, gameLink(game.id, "View")),
  );
}

function newestFirst(games) {
  const time = (game) => (typeof game.created === "number" ? game.created : Date.parse(game.created) || 0);
  return [...games].sort((a, b) => time(b) - time(a));
}

let refreshing = false;
async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    const [open, playing, finished] = await Promise.all([
      api.games("open"),
      api.games("playing"),
      api.games("finished"),
    ]);
    // Do not rebuild a list while one of its buttons has the focus (keyboard users).
    const focused = document.activeElement;
    const put = (id, node) => {
      const box = document.getElementById(id);
      if (box.contains(focused) && focused !== document.body) return;
      box.replaceChildren(node);
    };
    put(
      "open-games",
      table(["Variant", "Clock", "Created by", ""], newestFirst(open).map(openRow), "No open games: create one."),
    );
    put(
      "live-games",
      table(["Players", "Variant", "Clock", ""], newestFirst(playing).map(liveRow), "No game is being played."),
    );
    put(
      "finished-games",
      table(["Players", "Variant", "Result", ""], newestFirst(finished).slice(0, 20).map(finishedRow), "No finished games yet."),
    );
  } catch (error) {
    fail(error);
  } finally {
    refreshing = false;
  }
}

async function join(id, button) {
  if (button) button.disabled = true;
  try {
    await api.join(id);
    location.href = `/games/${encodeURIComponent(id)}`;
  } catch (error) {
    if (button) button.disabled = false;
    fail(error);
    refresh();
  }
}

function readSettings() {
  const form = document.getElementById("create-form");
  const data = new FormData(form);
  const opponent = data.get("opponent");
  const settings = {
    variant: data.get("variant"),
    opponent,
    color: data.get("color"),
    clock: data.get("clock") || null,
  };
  if (opponent === "computer") settings.level = Number(data.get("level"));
  return settings;
}

function restoreSettings() {
  let saved = null;
  try {
    saved = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "null");
  } catch {
    saved = null;
  }
  if (!saved) return;
  const form = document.getElementById("create-form");
  if (saved.variant && titles.has(saved.variant)) form.variant.value = saved.variant;
  for (const name of ["opponent", "color"]) {
    const input = form.querySelector(`input[name="${name}"][value="${saved[name]}"]`);
    if (input) input.checked = true;
  }
  if (saved.level) form.level.value = String(saved.level);
  if (saved.clock !== undefined) form.clock.value = saved.clock || "";
}

function syncForm() {
  const form = document.getElementById("create-form");
  const computer = form.querySelector('input[name="opponent"]:checked')?.value === "computer";
  document.getElementById("level-row").hidden = !computer;
  form.level.disabled = !computer;
  document.getElementById("variant-rules").href = `/rules/${encodeURIComponent(form.variant.value)}`;
  document.getElementById("variant-rules").textContent = `Rules of ${variantTitle(form.variant.value)}`;
}

async function setup() {
  const levels = document.getElementById("level");
  for (let level = 1; level <= 10; level += 1) {
    levels.append(h("option", { value: level, selected: level === 3 }, `Level ${level}`));
  }

  const form = document.getElementById("create-form");
  form.addEventListener("change", syncForm);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = document.getElementById("create-button");
    const settings = readSettings();
    try {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
    } catch {
      /* private mode */
    }
    button.disabled = true;
    try {
      const game = await api.createGame(settings);
      location.href = `/games/${encodeURIComponent(game.id)}`;
    } catch (error) {
      button.disabled = false;
      fail(error);
    }
  });

  document.getElementById("name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = document.getElementById("name-input").value.trim();
    if (!name) return;
    try {
      me = await api.setName(name);
      showMe();
      refresh();
    } catch (error) {
      fail(error);
    }
  });

  const [variants, who] = await Promise.all([api.variants(), api.me()]);
  me = who;
  showMe();
  const select = document.getElementById("variant");
  for (const variant of variants) {
    titles.set(variant.name, variant.title || variant.name);
    select.append(
      h("option", { value: variant.name, selected: variant.name === "international" }, variant.title || variant.name),
    );
  }
  restoreSettings();
  syncForm();
  await refresh();
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

setup().catch(fail);
