// The lobby's "who is playing now": per variant and mode, how many games are being played,
// who waits for an opponent (a button to join him) and the games to watch; filtered by
// variant and mode (GET /api/now).
import { N_, t, tn } from "./i18n.js";
import { api, h, playerName } from "./api.js";

const MODES = { single: N_("Single game"), match: N_("Match"), losing: N_("Losing game") };
const $ = (id) => document.getElementById(id);

export class NowList {
  constructor(fail) {
    this.fail = fail;
    this.titles = new Map();
    for (const id of ["now-variant", "now-mode"]) $(id).addEventListener("change", () => this.refresh());
  }

  fillVariants(variants) {
    for (const variant of variants) {
      this.titles.set(variant.name, variant.title || variant.name);
      $("now-variant").append(h("option", { value: variant.name }, variant.title || variant.name));
    }
  }

  title(name) {
    const [base, ...options] = name.replace(/-giveaway$/, "").split("+");
    const title = this.titles.get(base) || base;
    return options.length ? `${title} + ${options.join(" + ")}` : title;
  }

  async join(entry, button) {
    button.disabled = true;
    try {
      if (entry.kind === "match") {
        await api.joinMatch(entry.id);
        location.href = `/matches/${encodeURIComponent(entry.id)}`;
      } else {
        await api.join(entry.id);
        location.href = `/games/${encodeURIComponent(entry.id)}`;
      }
    } catch (error) {
      button.disabled = false;
      this.fail(error);
      this.refresh();
    }
  }

  waiting(entry) {
    const what = entry.kind === "match" ? tn("a match of {n} game", "a match of {n} games", entry.games) : entry.seats > 1 ? tn("{n} seat open", "{n} seats open", entry.seats) : t("a game");
    return h(
      "li",
      { "data-waiting": entry.id },
      h("span", { class: entry.guest ? "now-name guest" : "now-name" }, playerName(entry.name) || t("Someone")),
      ` ${t("waits ({what}, {clock})", { what, clock: entry.clock || t("no clock") })} `,
      h("button", { type: "button", class: "primary", onclick: (event) => this.join(entry, event.currentTarget) }, t("Join")),
    );
  }

  live(entry) {
    const score = entry.score ? ` (${entry.score.join("–")})` : "";
    const href = entry.kind === "match" ? `/matches/${encodeURIComponent(entry.id)}` : `/games/${encodeURIComponent(entry.game)}`;
    // A guest's name in italics (a "(guest)" would change the link's accessible name).
    const names = entry.players.flatMap((name, index) => [
      index ? " – " : "",
      entry.guests?.[index] ? h("span", { class: "guest-name", title: t("a guest") }, name) : playerName(name),
    ]);
    return h("li", { "data-live": entry.id }, h("a", { href }, ...names, score));
  }

  async refresh() {
    const box = $("now-list");
    try {
      const answer = await api.now($("now-variant").value, $("now-mode").value);
      if (box.contains(document.activeElement) && document.activeElement !== document.body) return;
      if (!answer.groups.length) {
        box.replaceChildren(h("p", { class: "empty" }, t("Nobody is playing or waiting here.")));
        return;
      }
      box.replaceChildren(
        ...answer.groups.map((group) =>
          h(
            "div",
            { class: "now-group", "data-variant": group.variant, "data-mode": group.mode },
            h("h3", {}, `${this.title(group.variant)} · ${t(MODES[group.mode])}`),
            h("p", { class: "muted" }, tn("{n} game being played", "{n} games being played", group.playing)),
            group.waiting.length ? h("ul", { class: "waiting" }, group.waiting.map((entry) => this.waiting(entry))) : null,
            group.live.length ? h("ul", { class: "live" }, group.live.map((entry) => this.live(entry))) : null,
          ),
        ),
      );
    } catch (error) {
      this.fail(error);
    }
  }
}
