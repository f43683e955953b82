// The lobby's tournaments: the coming, running and finished ones (polled), and the form
// that creates one (for registered players). The tournament page is tournament.js.
import { getJSON, h, postJSON, showError } from "./api.js";

const REFRESH_MS = 10000;
const $ = (id) => document.getElementById(id);
const SYSTEMS = { "round-robin": "Round robin", swiss: "Swiss", arena: "Arena" };

function when(seconds) {
  const date = new Date(seconds * 1000);
  return date.toLocaleString([], { dateStyle: "short", timeStyle: "short" });
}

function row(t) {
  const link = h("a", { href: `/tournaments/${encodeURIComponent(t.id)}` }, t.name);
  let state = `starts ${when(t.starts_at)}`;
  if (t.status === "playing") state = t.system === "arena" ? `ends ${when(t.ends_at)}` : `round ${t.round} of ${t.rounds}`;
  if (t.status === "finished") state = t.winner ? `won by ${t.winner}` : "cancelled";
  let system = `${SYSTEMS[t.system]}${t.system === "swiss" ? ` ${t.rounds} rounds` : ""}`;
  if (t.system === "arena") system += ` ${Math.round((t.ends_at - t.starts_at) / 60)} min`;
  return h("tr", { "data-tournament": t.id }, h("td", {}, link, t.private ? " 🔒" : ""), h("td", {}, `${t.variant} · ${t.clock} · ${system}`), h("td", {}, String(t.players)), h("td", {}, state));
}

function list(lists) {
  const all = [...lists.playing, ...lists.coming, ...lists.finished.slice(0, 10)];
  if (!all.length) return h("p", { class: "empty" }, "No tournaments yet.");
  return h(
    "table",
    { class: "games", id: "tournament-list" },
    h("thead", {}, h("tr", {}, ["Tournament", "Format", "Players", ""].map((x) => h("th", { scope: "col" }, x)))),
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
    box.replaceChildren(h("p", { class: "muted" }, "Register (Account, on the left) to create a tournament."));
    return;
  }
  const two = variants.filter((v) => (v.players || 2) === 2);
  const variant = select("t-variant", two.map((v) => [v.name, v.title || v.name]), "international");
  const system = select("t-system", [["swiss", "Swiss"], ["round-robin", "Round robin"], ["double-round-robin", "Double round robin"], ["arena", "Arena"]], "swiss");
  const rounds = h("input", { id: "t-rounds", type: "number", min: 1, max: 30, value: 5 });
  const minutes = h("input", { id: "t-minutes", type: "number", min: 5, max: 720, value: 30 });
  const games = select("t-games", [["1", "One game"], ["2", "Two games, colours swapped"]], "1");
  const clock = select("t-clock", ["3+2", "5+3", "10+5", "15+10"].map((c) => [c, c]), "5+3");
  const starts = h("input", { id: "t-starts", type: "number", min: 0, max: 43200, value: 10 });
  const name = h("input", { id: "t-title", maxlength: 80, required: true, placeholder: "Name of the tournament" });
  const password = h("input", { id: "t-new-password", type: "password", maxlength: 128, autocomplete: "new-password", placeholder: "(none: anyone may join)" });
  const roundsField = field("Rounds", rounds);
  const minutesField = field("Minutes", minutes);
  const gamesField = field("Each pairing plays", games);
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
      field("Name", name),
      h("div", { class: "row" }, field("Variant", variant), field("Clock", clock)),
      h("div", { class: "row" }, field("System", system), roundsField, minutesField, gamesField),
      h("div", { class: "row" }, field("Starts in (minutes)", starts), field("Password", password)),
      h("button", { type: "submit", class: "primary", id: "tournament-create-button" }, "Create tournament"),
    ),
  );
}

refresh();
setInterval(refresh, REFRESH_MS);
form().catch((error) => showError($("error"), error.message || String(error)));
