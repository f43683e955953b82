// The lobby's tournaments: the coming, running and finished ones (polled), and the form
// that creates one (for registered players). The tournament page is tournament.js.
import { getJSON, h, postJSON, showError } from "./api.js";
import { N_, language, t, tn } from "./i18n.js";

const REFRESH_MS = 10000;
const $ = (id) => document.getElementById(id);
const SYSTEMS = { "round-robin": N_("Round robin"), swiss: N_("Swiss"), arena: N_("Arena") };

function when(seconds) {
  const date = new Date(seconds * 1000);
  return date.toLocaleString(language, { dateStyle: "short", timeStyle: "short" });
}

function row(tour) {
  const link = h("a", { href: `/tournaments/${encodeURIComponent(tour.id)}` }, tour.name);
  let state = t("starts {when}", { when: when(tour.starts_at) });
  if (tour.status === "playing") {
    state = tour.system === "arena"
      ? t("ends {when}", { when: when(tour.ends_at) })
      : t("round {round} of {rounds}", { round: tour.round, rounds: tour.rounds });
  }
  if (tour.status === "finished") state = tour.winner ? t("won by {name}", { name: tour.winner }) : t("cancelled");
  let system = t(SYSTEMS[tour.system] || tour.system);
  if (tour.system === "swiss") system += ` ${tn("{n} round", "{n} rounds", tour.rounds)}`;
  if (tour.system === "arena") system += ` ${t("{n} min", { n: Math.round((tour.ends_at - tour.starts_at) / 60) })}`;
  return h("tr", { "data-tournament": tour.id }, h("td", {}, link, tour.private ? " 🔒" : ""), h("td", {}, `${tour.variant} · ${tour.clock} · ${system}`), h("td", {}, String(tour.players)), h("td", {}, state));
}

function list(lists) {
  const all = [...lists.playing, ...lists.coming, ...lists.finished.slice(0, 10)];
  if (!all.length) return h("p", { class: "empty" }, t("No tournaments yet."));
  return h(
    "table",
    { class: "games", id: "tournament-list" },
    h("thead", {}, h("tr", {}, [t("Tournament"), t("Format"), t("Players"), ""].map((x) => h("th", { scope: "col" }, x)))),
    h("tbody", {}, all.map(row)),
  );
}

async function refresh() {
  try {
    $("tournaments").replaceChildren(list(await getJSON("/api/tournaments")));
  } catch (error) {
    showError($("error"), error.message || String(error));
  }
}

function field(label, control) {
  return h("div", {}, h("label", { for: control.id }, label), h("br"), control);
}

function select(id, options, chosen) {
  return h("select", { id, name: id }, options.map(([value, text]) => h("option", { value, selected: value === chosen }, text)));
}

async function form() {
  const [me, variants] = await Promise.all([getJSON("/api/session").catch(() => null), getJSON("/api/variants")]);
  const box = $("tournament-create");
  if (!me || me.guest) {
    box.replaceChildren(h("p", { class: "muted" }, t("Register (Account, on the left) to create a tournament.")));
    return;
  }
  const two = variants.filter((v) => (v.players || 2) === 2);
  const variant = select("t-variant", two.map((v) => [v.name, v.title ? t(v.title) : v.name]), "international");
  const systems = [["swiss", t("Swiss")], ["round-robin", t("Round robin")], ["double-round-robin", t("Double round robin")], ["arena", t("Arena")]];
  const system = select("t-system", systems, "swiss");
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, max: 30, value: 5 });
  const minutes = h("input", { id: "t-minutes", type: "number", min: 5, max: 720, value: 30 });
  const games = select("t-games", [["1", t("One game")], ["2", t("Two games, colours swapped")]], "1");
  const clock = select("t-clock", ["3+2", "5+3", "10+5", "15+10"].map((c) => [c, c]), "5+3");
  const starts = h("input", { id: "t-starts", type: "number", min: 0, max: 43200, value: 10 });
  const name = h("input", { id: "t-title", maxlength: 80, required: true, placeholder: t("Name of the tournament") });
  const password = h("input", { id: "t-new-password", type: "password", maxlength: 128, autocomplete: "new-password", placeholder: t("(none: anyone may join)") });
  const roundsField = field(t("Rounds"), rounds);
  const minutesField = field(t("Minutes"), minutes);
  const gamesField = field(t("Each pairing plays"), games);
  const sync = () => {
    roundsField.hidden = system.value !== "swiss";
    minutesField.hidden = system.value !== "arena";
    gamesField.hidden = system.value === "arena";
  };
  system.addEventListener("change", sync);
  sync();
  const submit = async (event) => {
    event.preventDefault();
    const double = system.value === "double-round-robin";
    const body = {
      name: name.value,
      variant: variant.value,
      clock: clock.value,
      system: double ? "round-robin" : system.value,
      cycles: double ? 2 : 1,
      rounds: system.value === "swiss" ? Number(rounds.value) : null,
      minutes: system.value === "arena" ? Number(minutes.value) : null,
      games: Number(games.value),
      starts_in: Number(starts.value) * 60,
      password: password.value || null,
    };
    try {
      const created = await postJSON("/api/tournaments", body);
      location.href = `/tournaments/${encodeURIComponent(created.id)}`;
    } catch (error) {
      showError($("error"), error.message || String(error));
    }
  };
  box.replaceChildren(
    h(
      "form",
      { class: "stack tournament-form", id: "tournament-form", onsubmit: submit },
      field(t("Name"), name),
      h("div", { class: "row" }, field(t("Variant"), variant), field(t("Clock"), clock)),
      h("div", { class: "row" }, field(t("System"), system), roundsField, minutesField, gamesField),
      h("div", { class: "row" }, field(t("Starts in (minutes)"), starts), field(t("Password"), password)),
      h("button", { type: "submit", class: "primary", id: "tournament-create-button" }, t("Create tournament")),
    ),
  );
}

refresh();
setInterval(refresh, REFRESH_MS);
form().catch((error) => showError($("error"), error.message || String(error)));
