// The rules page: a variant's title, summary and rules, and its start position.
import { N_, t, tn } from "./i18n.js";
import { api, h, showError, variantLinks } from "./api.js";
import { Board } from "./board.js";
import { parseFen, squareIndex } from "./position.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "international");
const $ = (id) => document.getElementById(id);

// Fields of the variant answer that are not rules text.
const SKIP = new Set(["name", "title", "summary", "geometry", "width", "height", "board", "start_fen"]);

// The rules' fields the page shows, in words (t() says them in the player's language).
const FIELDS = [
  N_("First"), N_("Kings"), N_("Capture choice"), N_("Crowning"), N_("Removal"), N_("Men capture kings"),
  N_("Giveaway"), N_("Crowning wins"), N_("Line moves"), N_("Draw rules"), N_("Options"), N_("Players"), N_("Family"),
];

// The rules' values and the draw rules' names, in words.
const VALUES = [
  N_("at-end"), N_("continue-as-king"), N_("earliest-king"), N_("ends-move"), N_("flying"), N_("free"),
  N_("immediate"), N_("most-kings"), N_("most-pieces"), N_("most-value"), N_("short"), N_("with-king"),
  N_("repetition"), N_("quiet moves"), N_("endgame"), N_("bare material"), N_("quiet rounds"), N_("stable material"),
];

function label(key) {
  const text = key.replaceAll("_", " ");
  return t(text[0].toUpperCase() + text.slice(1));
}

/** "QuietMoves" -> "quiet moves": the rules' names (draw rules) in words, each once. */
function words(names) {
  return [...new Set(names.map((name) => String(name).replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()))];
}

function valueNode(value, key = "") {
  if (key === "draw_rules" && Array.isArray(value)) return value.length ? words(value).map((word) => t(word)).join(", ") : t("none");
  if (key === "options" && Array.isArray(value) && value.every((o) => o && o.name && o.summary)) {
    // As the lobby shows them: the name to add to the variant's, then what it changes.
    return value.length
      ? h("ul", {}, value.map((o) => h("li", {}, h("strong", {}, o.name), ` — ${o.summary}`)))
      : t("none");
  }
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  if (Array.isArray(value)) {
    if (!value.length) return t("none");
    if (value.every((item) => typeof item !== "object")) return value.map((item) => t(String(item))).join(", ");
    return h("ul", {}, value.map((item) => h("li", {}, valueNode(item))));
  }
  if (typeof value === "object") {
    return h("dl", {}, Object.entries(value).flatMap(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, valueNode(v, k))]));
  }
  return t(String(value));
}

/** The rules text: paragraphs for a string, a list for a list, a table for an object. */
function rulesNode(rules) {
  if (typeof rules === "string") {
    return rules
      .split(/\n\s*\n/)
      .map((paragraph) => paragraph.trim())
      .filter(Boolean)
      .map((paragraph) => {
        const lines = paragraph.split("\n").map((line) => line.trim());
        if (lines.every((line) => /^[-*•]\s/.test(line))) {
          return h("ul", {}, lines.map((line) => h("li", {}, line.replace(/^[-*•]\s+/, ""))));
        }
        return h("p", {}, paragraph);
      });
  }
  if (Array.isArray(rules) && rules.every((item) => typeof item === "string")) {
    return rules.map((paragraph) => h("p", {}, paragraph));
  }
  if (Array.isArray(rules)) return h("ul", {}, rules.map((item) => h("li", {}, valueNode(item))));
  return valueNode(rules);
}

async function main() {
  const [variant, variants, me] = await Promise.all([api.variant(name), api.variants(), api.me()]);
  $("who").textContent = me ? t("Playing as {name}", { name: me.name }) : t("Guest");
  document.title = t("{variant} — rules — Damier", { variant: variant.title || variant.name });
  $("title").textContent = variant.title || variant.name;
  variantLinks(variant.name, variant.title || variant.name);
  $("summary").textContent = variant.summary || "";
  const box = $("rules-text");
  const rules = variant.rules_text ?? variant.rules ?? variant.rules_summary ?? variant.description;
  if (rules !== undefined) {
    box.append(h("h2", {}, t("Rules")), ...[rulesNode(rules)].flat());
  }
  const extra = Object.entries(variant).filter(
    ([key]) => !SKIP.has(key) && !["rules_text", "rules_summary", "description"].includes(key),
  );
  if (extra.length) {
    box.append(
      h("h2", {}, rules !== undefined ? t("Details") : t("Rules")),
      h("dl", {}, extra.flatMap(([key, value]) => [h("dt", {}, label(key)), h("dd", {}, valueNode(value, key))])),
    );
  }
  const geometry = variant.geometry;
  const board = new Board($("board"), geometry, { label: t("{variant}: start position", { variant: variant.title || variant.name }) });
  const startFen = geometry.start_fen || variant.start_fen;
  board.setPosition(parseFen(squareIndex(geometry), startFen));
  // Only a board of rows and columns has a width and a height (the others: their cells).
  const rectangular = (geometry.players || 2) === 2 && geometry.cells.every((cell) => cell.row !== null && cell.row !== undefined);
  const size = rectangular
    ? tn("{width}×{height} board, {n} playable square", "{width}×{height} board, {n} playable squares", geometry.cells.length, {
        width: geometry.width,
        height: geometry.height,
      })
    : tn("{n} playable cell", "{n} playable cells", geometry.cells.length);
  $("board-caption").replaceChildren(`${t("{size}. Start:", { size })} `, h("code", { class: "fen" }, startFen));
  $("play-link").href = "/";
  $("play-link").addEventListener("click", () => {
    try {
      const saved = JSON.parse(localStorage.getItem("damier.newGame") || "{}");
      localStorage.setItem("damier.newGame", JSON.stringify({ ...saved, variant: variant.name }));
    } catch {
      /* private mode */
    }
  });
  $("variant-links").replaceChildren(
    ...variants.map((v) =>
      h("li", {}, v.name === variant.name ? h("strong", {}, v.title || v.name) : h("a", { href: `/rules/${encodeURIComponent(v.name)}` }, v.title || v.name)),
    ),
  );
}

main().catch((error) => {
  showError($("error"), error.status === 404 ? t("There is no variant called “{name}”.", { name }) : error.message, 60000);
  if (error.status === 404) $("play-link").hidden = true; // nothing to play
});
