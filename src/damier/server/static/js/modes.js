// The lobby's variant, mode and options: the variants grouped by family, the variant's named
// options as switches (each with its one line), and the mode (a single game, a match, the
// losing game). Every change asks the server (`/api/modes`) whether the combination can be
// played, and says why not before anything is created.
import { N_, t, tn } from "./i18n.js";
import { getJSON, h } from "./api.js";

const FAMILIES = [
  ["10x10", N_("10×10 boards")],
  ["8x8", N_("8×8 boards")],
  ["12x12", N_("12×12 board")],
  ["orthogonal", N_("Orthogonal games (all squares)")],
  ["multi-player", N_("Boards of more players")],
  ["files", N_("This server's variant files")],
  ["other", N_("Other boards")],
];

const $ = (id) => document.getElementById(id);

export class ModePicker {
  constructor(form) {
    this.form = form;
    this.variants = new Map();
    this.check = null; // the server's answer for the current variant and options
    this.asked = 0;
  }

  /** The variant select, in groups by family. */
  fill(variants, selected) {
    for (const variant of variants) this.variants.set(variant.name, variant);
    for (const [family, label] of FAMILIES) {
      const members = variants.filter((variant) => (variant.family || "other") === family);
      if (!members.length) continue;
      const options = members.map((variant) =>
        h("option", { value: variant.name, selected: variant.name === selected }, variant.title || variant.name),
      );
      this.form.variant.append(h("optgroup", { label: t(label) }, options));
    }
  }

  mode() {
    return this.form.querySelector('input[name="mode"]:checked')?.value || "single";
  }

  options() {
    return [...this.form.querySelectorAll('input[name="option"]:checked')].map((input) => input.value);
  }

  /** The variant with its options switched on: "italian+dark-first". */
  spec() {
    return [this.form.variant.value, ...this.options()].join("+");
  }

  /** The variant a new game of the chosen mode plays (the losing form for "losing"). */
  played() {
    const chosen = this.check?.modes.find((mode) => mode.mode === this.mode());
    return chosen ? chosen.variant : this.spec();
  }

  /** One switch per named option of the chosen variant. */
  buildOptions(on = []) {
    const options = this.variants.get(this.form.variant.value)?.options || [];
    const rows = options.map((option) =>
      h(
        "label",
        { class: "option" },
        h("input", { type: "checkbox", name: "option", value: option.name, checked: on.includes(option.name) }),
        h("span", {}, h("strong", {}, option.name), ` — ${option.summary}`),
      ),
    );
    $("options-list").replaceChildren(...rows);
    $("options-field").hidden = !options.length;
  }

  /** Ask the server about the combination; show what it will be, or why it cannot be. */
  async refresh() {
    const ticket = ++this.asked;
    let check = null;
    let problem = "";
    try {
      check = await getJSON(`/api/modes?variant=${encodeURIComponent(this.spec())}`);
    } catch (error) {
      problem = error.message || String(error);
    }
    if (ticket !== this.asked) return; // another change came meanwhile
    this.check = check;
    const mode = this.mode();
    const chosen = check?.modes.find((item) => item.mode === mode);
    if (chosen && !chosen.ok) problem = t(chosen.reason);
    const plan = check?.match;
    $("match-row").hidden = mode !== "match" || !plan || Boolean(problem);
    if (mode === "match" && plan) {
      const select = $("match-games");
      const keep = select.value;
      select.replaceChildren(...plan.games.map((n) => h("option", { value: n, selected: String(n) === keep || (!plan.games.includes(Number(keep)) && n === 4) }, tn("{n} game", "{n} games", n))));
    }
    const opponent = this.form.querySelector('input[name="opponent"]:checked')?.value;
    if (!problem && mode === "match" && opponent === "open" && !this.form.clock.value) {
      problem = t("a match against a person needs a clock (a player who leaves loses his games on time)");
    }
    let text = "";
    if (problem) text = t("Not possible: {problem}", { problem });
    else if (mode === "single") text = t("A single game of {variant}.", { variant: t(check.title) });
    else if (mode === "losing") text = t("The losing form ({variant}): the player left without a move wins.", { variant: chosen.variant });
    else {
      const deck = plan.deck ? ` (${t("deck {deck}", { deck: plan.deck })})` : "";
      text = t("Colours alternate, a win is 1 point and a draw ½; {openings}{deck}.", { openings: t(plan.opening_games), deck });
    }
    const message = $("mode-check");
    message.textContent = text;
    message.classList.toggle("refused", Boolean(problem));
    $("create-button").disabled = Boolean(problem);
  }
}
