// The board's colours and the pieces' style, chosen in the pickers of the game page and the
// analysis board and kept for the next visits (localStorage). A choice is a class on the
// root element (`board-green`, `pieces-flat`), which the style sheet turns into the board's
// custom properties and the pieces' look: no style attribute (the Content-Security-Policy
// forbids them). board.js imports this module, so every page that draws a board (rules,
// puzzles, tournaments) shows the choice, and a choice made in another tab follows.

export const THEMES = {
  board: { key: "damier.board", values: ["classic", "wood", "green", "blue", "contrast"] },
  pieces: { key: "damier.pieces", values: ["classic", "flat", "outlined"] },
};

/** The kept choice of `kind` ("board" or "pieces"), else the first. */
export function chosen(kind) {
  const { key, values } = THEMES[kind];
  let value = null;
  try {
    value = localStorage.getItem(key);
  } catch {
    // storage refused (private mode): the first value
  }
  return values.includes(value) ? value : values[0];
}

/** The root element's classes from the kept choices, and the pickers showing them. */
export function applyThemes() {
  const root = document.documentElement;
  for (const [kind, { values }] of Object.entries(THEMES)) {
    const value = chosen(kind);
    for (const other of values) root.classList.toggle(`${kind}-${other}`, other === value);
    for (const select of document.querySelectorAll(`select[data-theme="${kind}"]`)) select.value = value;
  }
}

/** Keeps `value` for `kind` and shows it. */
export function choose(kind, value) {
  if (!THEMES[kind]?.values.includes(value)) return;
  try {
    localStorage.setItem(THEMES[kind].key, value);
  } catch {
    // the choice lasts for the page
  }
  applyThemes();
}

/** A `<select data-theme="board|pieces">` whose options are the kind's values. */
export function themePicker(select) {
  const kind = select.dataset.theme;
  if (!THEMES[kind]) return;
  select.value = chosen(kind);
  select.addEventListener("change", () => choose(kind, select.value));
}

applyThemes();
window.addEventListener("storage", (event) => {
  if (Object.values(THEMES).some(({ key }) => key === event.key)) applyThemes();
});
