// The pages' languages: t("...") and tn("one", "many", n) say a string in the player's
// language, from the gettext catalog the server serves as JSON (/api/i18n/{lang}).
// The language is the one chosen in the header's picker (kept in localStorage and in the
// damier_lang cookie, which the server honours for its own messages), else the first of
// the browser's languages that is served, else English. Importing this module translates
// the page's own text (its text nodes and aria-label, placeholder, title attributes) before
// the importing module runs (a top-level await), and puts the picker in the header.

export const LANGUAGES = {
  en: "English",
  fr: "Français",
  es: "Español",
  nl: "Nederlands",
  ru: "Русский",
  pt: "Português",
  it: "Italiano",
  tr: "Türkçe",
};
const COOKIE = "damier_lang";
const ATTRIBUTES = ["aria-label", "placeholder", "title", "alt"];

function chosen() {
  let stored = null;
  try {
    stored = localStorage.getItem(COOKIE);
  } catch {
    // storage refused (private mode): the cookie still says it
  }
  if (stored in LANGUAGES) return stored;
  const cookie = document.cookie.split(";").map((part) => part.trim().split("="))
    .find(([key]) => key === COOKIE);
  if (cookie && cookie[1] in LANGUAGES) return cookie[1];
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const code = String(tag).toLowerCase().split("-")[0];
    if (code in LANGUAGES) return code;
  }
  return "en";
}

/** Keep ``code`` for the next visits (the page and the server's answers). */
export function choose(code) {
  if (!(code in LANGUAGES)) return;
  try {
    localStorage.setItem(COOKIE, code);
  } catch {
    // the cookie keeps it
  }
  document.cookie = `${COOKIE}=${code}; path=/; max-age=31536000; samesite=lax`;
}

export let language = chosen();
let messages = {};
let plurals = [];

async function load() {
  if (language === "en") return;
  try {
    const response = await fetch(`/api/i18n/${language}`, { headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(String(response.status));
    const catalog = await response.json();
    messages = catalog.messages || {};
    plurals = catalog.plurals || [];
  } catch {
    language = "en"; // the page stays readable in English
  }
}

function fill(text, values) {
  if (!values) return text;
  return text.replace(/\{([a-z_0-9]*)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

/** ``msgid`` in the player's language; ``{name}`` placeholders take ``values``. */
export function t(msgid, values) {
  const found = messages[msgid];
  return fill(typeof found === "string" && found ? found : msgid, values);
}

/** Marks a message for the catalog without translating it (say it later with t()). */
export const N_ = (msgid) => msgid;

/** The plural form for ``n`` of the language (gettext's forms: Russian has three);
 * ``{n}`` is the count. */
export function tn(singular, plural, n, values) {
  const forms = messages[singular];
  const count = Math.abs(Math.trunc(Number(n)));
  let text = n === 1 ? singular : plural;
  if (Array.isArray(forms) && forms.length && forms.every(Boolean) && plurals.length) {
    const index = plurals[count < plurals.length ? count : 100 + (count % 100)] ?? 0;
    text = forms[Math.min(index, forms.length - 1)];
  }
  return fill(text, { n, ...values });
}

/** Translate the text nodes and attributes under ``root`` that the catalog knows (the
 * pages' own HTML; text set later by the modules goes through t()). */
export function translatePage(root = document.body) {
  if (language === "en" || !root) return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const raw = node.nodeValue;
    const key = raw.replace(/\s+/g, " ").trim();
    const found = key && messages[key];
    if (typeof found === "string" && found) {
      const lead = raw.match(/^\s*/)[0];
      const trail = raw.match(/\s*$/)[0];
      node.nodeValue = lead + found + trail;
    }
  }
  const selector = ATTRIBUTES.map((name) => `[${name}]`).join(",");
  for (const element of [root, ...root.querySelectorAll(selector)]) {
    for (const name of ATTRIBUTES) {
      const value = element.getAttribute?.(name);
      const found = value && messages[value.replace(/\s+/g, " ").trim()];
      if (typeof found === "string" && found) element.setAttribute(name, found);
    }
  }
}

/** The guests' mark, which the style sheet writes after their names (a CSS ``content``),
 * in the language: a constructed style sheet (the CSP allows it, not a style attribute). */
function guestMark() {
  if (language === "en" || typeof CSSStyleSheet === "undefined" || !("adoptedStyleSheets" in document)) return;
  const sheet = new CSSStyleSheet();
  const word = N_("guest");
  const mark = JSON.stringify(` (${t(word)})`);
  sheet.replaceSync(`.label.guest::after, .chat-name.guest::after, .now-name.guest::after { content: ${mark}; }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

function picker() {
  const header = document.querySelector("header.site");
  if (!header || header.querySelector("#language")) return;
  const label = document.createElement("label");
  label.htmlFor = "language";
  label.className = "visually-hidden";
  label.textContent = t("Language");
  const select = document.createElement("select");
  select.id = "language";
  select.className = "auto-width language";
  select.setAttribute("aria-label", t("Language"));
  for (const [code, name] of Object.entries(LANGUAGES)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    option.selected = code === language;
    select.append(option);
  }
  select.addEventListener("change", () => {
    choose(select.value);
    location.reload();
  });
  const who = header.querySelector("#who");
  header.insertBefore(label, who);
  header.insertBefore(select, who);
}

await load();
document.documentElement.lang = language;
translatePage();
const title = messages[document.title.replace(/\s+/g, " ").trim()];
if (typeof title === "string" && title) document.title = title;
guestMark();
picker();
