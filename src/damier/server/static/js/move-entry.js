// Typing a move (the game page and the analysis board), matched against the legal moves as
// it is typed, without any rules in the browser:
//
// - A text fits a legal move when it begins the move's notation ("32-2" fits 32-27 and
//   32-28), or names its squares: the departure square, then landing squares in order, the
//   last one final ("28x10", "c3-d4" on a lettered board). Separators are free: "-", "x",
//   ":" or a space.
// - As soon as exactly one legal move fits and the text names its departure square whole,
//   the move is played: "32" plays the only move from 32. While several fit they are shown
//   as buttons, and the player types on or picks one.
// - Enter plays the move whose notation the text is, else the only one that fits; a text
//   that fits no legal move is handed over as it is (the server answers why it refuses it).
// - With `typeAhead` (the analysis board), a text typed while the position loads is read
//   when it arrives, as if typed then: a player who types fast loses nothing.
import { t, tn } from "./i18n.js";
import { h } from "./api.js";

const SEPARATORS = /\s*[-x×:]\s*|\s+/g;
const SHOWN = 16; // the buttons shown at most (the count says the rest)

/** A move's text with one spelling for its separators: "28 x 19" -> "28-19". */
export function spelling(text) {
  return String(text ?? "").trim().toLowerCase().replace(SEPARATORS, "-");
}

/** Whether the board squares `names` are a move's squares: its departure, then squares it
 *  lands on in order, the last one its final square. */
function follows(names, path) {
  if (!names.length || names[0] !== String(path[0])) return false;
  if (names.length === 1) return true;
  if (names[names.length - 1] !== String(path[path.length - 1])) return false;
  let at = 1;
  for (const name of names.slice(1, -1)) {
    const found = path.findIndex((square, i) => i >= at && String(square) === name);
    if (found < 0) return false;
    at = found + 1;
  }
  return true;
}

/**
 * What `text` says among `moves` (legal moves, their paths in the board's names; `index`
 * reads a square written any accepted way): `fits` the moves it may name, `named` the one
 * it names whole (or null), `sure` whether that one may be played before Enter.
 */
export function readTyped(text, moves, index) {
  const typed = spelling(text);
  if (!typed) return { fits: [], named: null, sure: false };
  const names = typed.split("-").filter(Boolean).map((token) => index?.name(token) ?? token);
  const fits = moves.filter((move) => spelling(move.notation).startsWith(typed) || follows(names, move.path));
  const exact = fits.filter((move) => spelling(move.notation) === typed);
  let named = null;
  if (exact.length === 1) named = exact[0];
  else if (fits.length === 1) named = fits[0];
  const sure = fits.length === 1 && names[0] === String(fits[0].path[0]);
  return { fits, named, sure };
}

export class MoveEntry {
  /**
   * elements: {form, input, list (the buttons of the fitting moves), note (what the text
   * fits)}; options: {moves: () => the legal moves now (normalized), index: () => the
   * squares' index, play: (move or text) => void, blocked: () => why no move may be
   * played now ("" when one may), typeAhead: () => whether a text typed now, while
   * blocked, is read eagerly once the block lifts (optional: never)}.
   */
  constructor(elements, options) {
    this.elements = elements;
    this.options = options;
    this.held = false; // a text typed while blocked waits to be read eagerly
    const { form, input } = elements;
    input.addEventListener("input", () => this.update(true));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.submit();
    });
  }

  get text() {
    return this.elements.input.value.trim();
  }

  /** The fitting moves shown again (new legal moves); `eager`: a sure move is played. */
  update(eager = false) {
    const { list, note } = this.elements;
    const blocked = this.options.blocked();
    const read = !blocked ? readTyped(this.text, this.options.moves(), this.options.index()) : { fits: [], named: null, sure: false };
    if (blocked) this.held = this.held || (eager && Boolean(this.options.typeAhead?.()));
    else {
      eager = eager || this.held;
      this.held = false;
    }
    if (eager && read.sure) {
      this.play(read.named);
      return;
    }
    const several = read.fits.length > 1;
    list.replaceChildren(
      ...(several ? read.fits.slice(0, SHOWN) : []).map((move) =>
        h("button", { type: "button", "data-notation": move.notation, onclick: () => this.play(move) }, move.notation),
      ),
    );
    list.hidden = !several;
    if (!this.text) note.textContent = "";
    else if (blocked) note.textContent = blocked;
    else if (several) note.textContent = tn("{n} move fits: type on or choose.", "{n} moves fit: type on or choose.", read.fits.length);
    else if (read.named) note.textContent = t("Enter plays {move}.", { move: read.named.notation });
    else note.textContent = t("No legal move fits.");
  }

  /** The fitting moves shown again, a held text read as typed now, not played (the
   *  awaited position did not come). */
  refresh() {
    this.held = false;
    this.update();
  }

  submit() {
    const text = this.text;
    if (!text || this.options.blocked()) return;
    const { fits, named } = readTyped(text, this.options.moves(), this.options.index());
    if (named) this.play(named);
    else if (!fits.length) this.play(text);
    else this.update();
  }

  play(move) {
    const { input } = this.elements;
    input.value = "";
    this.held = false;
    this.clear();
    this.options.play(move);
  }

  clear() {
    const { list, note } = this.elements;
    list.replaceChildren();
    list.hidden = true;
    note.textContent = "";
  }
}
