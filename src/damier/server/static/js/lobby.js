// The lobby: a name, an account (register, log in, ratings, archive), the game lists
// (polled), and the form that creates a game: an opponent and a colour for two players,
// every seat (you, open, or the computer at a level) on a board of more.
import { api, colorName, controlOf, getJSON, h, postJSON, resultText, seatLabel, showError } from "./api.js";
import { t, tn } from "./i18n.js";
import { ModePicker } from "./modes.js";
import { NowList } from "./now.js";

const errorBox = document.getElementById("error");
const REFRESH_MS = 4000;
const SETTINGS_KEY = "damier.newGame";

let me = null;
const modes = new ModePicker(document.getElementById("create-form"));
const now = new NowList(fail);
const titles = new Map();
const details = new Map(); // variant name -> its detail (players, geometry), asked for once
let seatCount = 2;
const ARCHIVE_PAGE = 10;
let archive = [];
let archiveNext = null;

function fail(error) {
  showError(errorBox, error.message || String(error));
}

function variantTitle(name) {
  return titles.get(name) || name;
}

function gameLink(id, text) {
  return h("a", { href: `/games/${encodeURIComponent(id)}` }, text);
}

function seatsOf(game) {
  return game.seats || [game.white, game.black];
}

function mine(game) {
  return Boolean(me) && seatsOf(game).some((seat) => seat && seat.id === me.id);
}

function players(game) {
  return seatsOf(game).map(seatLabel).join(" – ");
}

function showMe() {
  const who = document.getElementById("who");
  const status = document.getElementById("name-status");
  if (me) {
    const page = h("a", { href: `/players/${encodeURIComponent(me.name)}` }, me.name);
    who.replaceChildren(t("Playing as"), " ", page);
    status.textContent = t("You play as {name}.", { name: me.name });
    const input = document.getElementById("name-input");
    if (!input.value) input.value = me.name;
  } else {
    who.textContent = t("Guest");
    status.textContent = t("Choose a name, or play as a guest.");
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
  const seats = seatsOf(game);
  const creatorSeat = seats.find((seat) => seat && seat.id) || game.white;
  const creatorColor = creatorSeat.color || (creatorSeat === game.white ? "white" : "black");
  const free = seats.filter((seat) => seat.kind === "human" && !seat.id).length;
  const more = seats.length > 2 ? ` · ${tn("{free} of {n} seat open", "{free} of {n} seats open", seats.length, { free })}` : "";
  let action;
  if (mine(game)) {
    action = h("a", { class: "button", href: `/games/${encodeURIComponent(game.id)}` }, t("Your game"));
  } else {
    action = h(
      "button",
      {
        type: "button",
        class: "primary",
        "data-join": game.id,
        "aria-label": t("Join {player}'s {variant} game", { player: seatLabel(creatorSeat), variant: variantTitle(game.variant) }),
        onclick: (event) => join(game.id, event.currentTarget),
      },
      t("Join"),
    );
  }
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, controlOf(game.clock) || t("no clock")),
    h("td", {}, `${seatLabel(creatorSeat)} (${colorName(creatorColor).toLowerCase()})${more}`),
    h("td", { class: "action" }, action),
  );
}

function liveRow(game) {
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, players(game)),
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, controlOf(game.clock) || t("no clock")),
    h(
      "td",
      { class: "action" },
      h(
        "a",
        { class: "button", href: `/games/${encodeURIComponent(game.id)}` },
        mine(game) ? t("Play") : t("Watch"),
      ),
    ),
  );
}

function finishedRow(game) {
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, players(game)),
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, game.result ? `${game.result.pdn || ""} ${resultText(game.result)}` : ""),
    h("td", { class: "action" }, gameLink(game.id, t("View"))),
  );
}

function newestFirst(games) {
  const time = (game) => (typeof game.created === "number" ? game.created : Date.parse(game.created) || 0);
  return [...games].sort((a, b) => time(b) - time(a));
}

// --- the account: register, log in, log out, ratings and the archive -------------------

function accountMessage(text) {
  document.getElementById("account-message").textContent = text;
}

function archiveRow(game) {
  const outcome = game.result ? `${game.result.pdn || ""} ${resultText(game.result)}` : t(game.status);
  return h(
    "tr",
    { "data-game": game.id },
    h("td", {}, players(game)),
    h("td", {}, variantTitle(game.variant)),
    h("td", {}, outcome),
    h("td", { class: "action" }, gameLink(game.id, t("View"))),
  );
}

async function loadArchive(more = false) {
  if (!me) return;
  const params = new URLSearchParams({ limit: String(ARCHIVE_PAGE) });
  if (more && archiveNext) params.set("before", archiveNext);
  const page = await getJSON(`/api/players/${encodeURIComponent(me.id)}/games?${params}`);
  archive = more ? archive.concat(page.games) : page.games;
  archiveNext = page.next;
  document
    .getElementById("archive")
    .replaceChildren(table([t("Players"), t("Variant"), t("Result"), ""], archive.map(archiveRow), t("No games yet.")));
  document.getElementById("archive-more").hidden = !archiveNext;
}

async function showAccount() {
  let profile = null;
  if (me) {
    try {
      profile = await getJSON(`/api/players/${encodeURIComponent(me.id)}`);
    } catch (error) {
      if (error.status !== 404) throw error;
    }
  }
  const registered = Boolean(profile && profile.registered);
  document.getElementById("account-guest").hidden = registered;
  document.getElementById("account-player").hidden = !registered;
  if (!registered) {
    const name = document.getElementById("account-name");
    if (me && !name.value) name.value = me.name;
    return;
  }
  document.getElementById("account-status").textContent = t("Logged in as {name}.", { name: profile.name });
  const rows = profile.ratings.map((rating) =>
    h(
      "tr",
      { "data-variant": rating.variant },
      h("td", {}, variantTitle(rating.variant)),
      h("td", {}, `${Math.round(rating.rating)} ±${Math.round(rating.deviation)}`),
      h("td", {}, tn("{n} game", "{n} games", rating.games)),
    ),
  );
  document
    .getElementById("ratings")
    .replaceChildren(table([t("Variant"), t("Rating"), t("Rated")], rows, t("No rated game yet: play another registered player.")));
  await loadArchive();
}

function setupAccount() {
  const form = document.getElementById("account-form");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const action = event.submitter && event.submitter.value === "register" ? "register" : "login";
    const name = document.getElementById("account-name").value.trim();
    const password = document.getElementById("account-password");
    if (!name || !password.value) return;
    try {
      const profile = await postJSON(`/api/${action}`, { name, password: password.value });
      password.value = "";
      me = { id: profile.id, name: profile.name };
      document.getElementById("name-input").value = me.name;
      accountMessage(action === "register" ? t("Registered: your games and ratings are kept.") : "");
      showMe();
      await showAccount();
      refresh();
    } catch (error) {
      accountMessage("");
      fail(error);
    }
  });
  document.getElementById("logout-button").addEventListener("click", async () => {
    try {
      await postJSON("/api/logout");
      me = null;
      archive = [];
      archiveNext = null;
      document.getElementById("name-input").value = "";
      document.getElementById("account-name").value = "";
      accountMessage(t("Logged out: you play as a guest."));
      showMe();
      await showAccount();
      refresh();
    } catch (error) {
      fail(error);
    }
  });
  document.getElementById("archive-more").addEventListener("click", () => loadArchive(true).catch(fail));
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
      now.refresh(),
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
      table([t("Variant"), t("Clock"), t("Created by"), ""], newestFirst(open).map(openRow), t("No open games: create one.")),
    );
    put(
      "live-games",
      table([t("Players"), t("Variant"), t("Clock"), ""], newestFirst(playing).map(liveRow), t("No game is being played.")),
    );
    put(
      "finished-games",
      table([t("Players"), t("Variant"), t("Result"), ""], newestFirst(finished).slice(0, 20).map(finishedRow), t("No finished games yet.")),
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

/** A seat's choice as the API takes it, from its select ("you", "open", "computer-3"). */
function seatChoice(value) {
  const [kind, level] = String(value).split("-");
  return kind === "computer" ? { kind, level: Number(level) } : { kind };
}

function readSettings() {
  const form = document.getElementById("create-form");
  const data = new FormData(form);
  const clock = data.get("clock") || null;
  const mode = modes.mode();
  const options = modes.options();
  if (seatCount > 2) {
    const seats = [...Array(seatCount).keys()].map((seat) => seatChoice(data.get(`seat-${seat}`)));
    return { variant: modes.played(), clock, seats, mode, options };
  }
  const opponent = data.get("opponent");
  const settings = { variant: modes.played(), opponent, color: data.get("color"), clock, mode, options };
  if (opponent === "computer") settings.level = Number(data.get("level"));
  else if (mode !== "match") settings.takebacks = data.get("takebacks") === "on"; // may be rated
  if (mode === "match") settings.games = Number(data.get("games")) || null;
  return settings;
}

/** One select per seat: you at the first, the computer (level 3) at the others. */
function buildSeats(count, saved) {
  const colors = ["white", "black", "red", "green", "yellow", "purple", "orange", "cyan"];
  const options = [
    ["you", t("You")],
    ["open", t("A person (open seat)")],
    ...[...Array(10).keys()].map((i) => [`computer-${i + 1}`, t("Computer, level {level}", { level: i + 1 })]),
  ];
  const rows = colors.slice(0, count).map((color, seat) => {
    const chosen = saved?.[seat] ? (saved[seat].kind === "computer" ? `computer-${saved[seat].level}` : saved[seat].kind) : seat ? "computer-3" : "you";
    const name = colorName(color);
    return h(
      "div",
      { class: "row" },
      h("label", { for: `seat-${seat}` }, h("span", { class: `swatch ${color}` }), ` ${name}`),
      h(
        "select",
        { id: `seat-${seat}`, name: `seat-${seat}` },
        options.map(([value, text]) => h("option", { value, selected: value === chosen }, text)),
      ),
    );
  });
  document.getElementById("seats-list").replaceChildren(...rows);
}

function variantDetail(name) {
  if (!details.has(name)) details.set(name, api.variant(name));
  return details.get(name);
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
  const base = saved.variant ? saved.variant.split("+")[0].replace(/-giveaway$/, "") : null;
  if (base && titles.has(base)) form.variant.value = base;
  modes.buildOptions(saved.options || []);
  for (const name of ["opponent", "color", "mode"]) {
    const input = form.querySelector(`input[name="${name}"][value="${saved[name]}"]`);
    if (input) input.checked = true;
  }
  if (saved.level) form.level.value = String(saved.level);
  if (saved.clock !== undefined) form.clock.value = saved.clock || "";
  return saved;
}

/** Show the seats of a board of more players instead of the opponent and colour. */
async function syncSeats(saved) {
  const form = document.getElementById("create-form");
  const name = form.variant.value;
  const count = (await variantDetail(name)).geometry.players || 2;
  if (form.variant.value !== name) return; // changed again meanwhile
  if (count !== seatCount) buildSeats(count, saved?.variant?.startsWith(name) ? saved.seats : null);
  seatCount = count;
  document.getElementById("seats-field").hidden = count <= 2;
  document.getElementById("opponent-field").hidden = count > 2;
  document.getElementById("color-field").hidden = count > 2;
}

function syncForm() {
  const form = document.getElementById("create-form");
  const computer = form.querySelector('input[name="opponent"]:checked')?.value === "computer";
  document.getElementById("level-row").hidden = !computer;
  document.getElementById("takebacks-row").hidden = computer; // the computer always grants them
  form.level.disabled = !computer;
  document.getElementById("variant-rules").href = `/rules/${encodeURIComponent(form.variant.value)}`;
  document.getElementById("variant-rules").textContent = t("Rules of {variant}", { variant: variantTitle(form.variant.value) });
}

async function setup() {
  const levels = document.getElementById("level");
  for (let level = 1; level <= 10; level += 1) {
    levels.append(h("option", { value: level, selected: level === 3 }, t("Level {level}", { level })));
  }

  const form = document.getElementById("create-form");
  form.addEventListener("change", (event) => {
    syncForm();
    if (event.target === form.variant) {
      modes.buildOptions();
      syncSeats().catch(fail);
    }
    modes.refresh();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = document.getElementById("create-button");
    const { mode, options, ...settings } = readSettings();
    try {
      localStorage.setItem(SETTINGS_KEY, JSON.stringify({ ...settings, mode, options }));
    } catch {
      /* private mode */
    }
    button.disabled = true;
    try {
      if (mode === "match") {
        const match = await api.createMatch({ ...settings, variant: modes.spec() });
        location.href = `/matches/${encodeURIComponent(match.id)}`;
        return;
      }
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
      showAccount().catch(fail);
    } catch (error) {
      fail(error);
    }
  });

  setupAccount();
  const [variants, who] = await Promise.all([api.variants(), api.me()]);
  me = who;
  showMe();
  for (const variant of variants) titles.set(variant.name, variant.title || variant.name);
  modes.fill(variants, "international");
  now.fillVariants(variants);
  modes.buildOptions();
  const saved = restoreSettings();
  syncForm();
  await Promise.all([syncSeats(saved), modes.refresh()]);
  showAccount().catch(fail);
  await refresh();
  setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, REFRESH_MS);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
}

// The first start of a server on a machine compiles its code for a minute: games between
// people open within seconds, the computer later. Meanwhile a notice says so (GET
// /api/status), and goes once everything is ready.
const STATUS_MS = 2000;

async function showWarmUp() {
  let box = null;
  for (;;) {
    let status;
    try {
      status = await getJSON("/api/status");
    } catch {
      return; // an older server, or none: no notice
    }
    if (!status.notice) {
      if (box) box.remove();
      return;
    }
    if (!box) {
      box = h("p", { class: "notice", role: "status", "data-warmup": "" });
      errorBox.after(box);
    }
    box.textContent = status.notice;
    await new Promise((resolve) => setTimeout(resolve, STATUS_MS));
  }
}

showWarmUp();
setup().catch(fail);
