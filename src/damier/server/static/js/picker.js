// Choosing one of the legal moves by clicking squares, without any rules in the browser:
// the server's legal moves (paths of square names) are the only source of truth.
//
// - Click a piece that has legal moves: it is selected; the squares it can reach next and
//   the final squares of its moves are highlighted.
// - Click a final square: the move is played when only one legal move goes there from the
//   clicked path so far.
// - Otherwise (several captures end there, or the square is a landing square on the way)
//   the clicked square is added to the path, and the player clicks the landing squares in
//   order until one legal move remains, which is then played.

function startsWith(path, prefix) {
  if (path.length < prefix.length) return false;
  return prefix.every((square, i) => path[i] === square);
}

export class MovePicker {
  /** moves: legal moves with `path` in the board's own names (see normalizeMove). */
  constructor(moves = []) {
    this.setMoves(moves);
  }

  setMoves(moves) {
    this.moves = moves;
    this.clear();
  }

  clear() {
    this.path = [];
    this.candidates = [];
  }

  get selected() {
    return this.path.length ? this.path[0] : null;
  }

  /** Squares whose piece has a legal move. */
  movable() {
    return new Set(this.moves.map((move) => move.path[0]));
  }

  /** Squares that must capture: every legal move captures (captures are compulsory). */
  mustCapture() {
    if (!this.moves.length || !this.moves.every((move) => move.captured.length > 0)) {
      return new Set();
    }
    return this.movable();
  }

  /** Highlighted targets: the next landing squares and the final squares of candidates. */
  targets() {
    const next = new Set();
    const finals = new Set();
    for (const move of this.candidates) {
      if (move.path.length > this.path.length) next.add(move.path[this.path.length]);
      finals.add(move.path[move.path.length - 1]);
    }
    return { next, finals };
  }

  select(square) {
    const candidates = this.moves.filter((move) => move.path[0] === square);
    if (!candidates.length) {
      this.clear();
      return { kind: "none" };
    }
    this.path = [square];
    this.candidates = candidates;
    return { kind: "selected", square };
  }

  /**
   * One click on `square`. Answers:
   *   {kind: "move", move} to play, {kind: "selected", square}, {kind: "partial", path},
   *   {kind: "choose", moves} (same path, different captures: let the player choose),
   *   {kind: "ambiguous", square} (several routes: click landing squares), {kind: "none"}.
   */
  click(square) {
    if (!this.path.length) return this.select(square);
    if (square === this.path[0] && this.path.length === 1) {
      this.clear();
      return { kind: "none" };
    }
    if (this.path.length > 1 && square === this.path[this.path.length - 1]) {
      // Clicking the last landing square again ends the move there (when a move does).
      const here = this.candidates.filter((move) => move.path.length === this.path.length);
      if (here.length === 1) return this.finish(here[0]);
      if (here.length > 1) return { kind: "choose", moves: here };
    }
    const extended = [...this.path, square];
    const exact = this.candidates.filter(
      (move) => move.path.length === extended.length && startsWith(move.path, extended),
    );
    const through = this.candidates.filter(
      (move) => move.path.length > extended.length && startsWith(move.path, extended),
    );
    const ending = this.candidates.filter((move) => move.path[move.path.length - 1] === square);
    if (exact.length === 1 && !through.length) return this.finish(exact[0]);
    if (exact.length > 1 && !through.length) return { kind: "choose", moves: exact };
    if (ending.length === 1 && !through.length) return this.finish(ending[0]);
    if (exact.length || through.length) {
      this.path = extended;
      this.candidates = [...exact, ...through];
      if (this.candidates.length === 1) return this.finish(this.candidates[0]);
      return { kind: "partial", path: [...this.path] };
    }
    if (ending.length > 1) {
      const same = ending.every(
        (move) => move.path.length === ending[0].path.length && startsWith(move.path, ending[0].path),
      );
      if (same) return { kind: "choose", moves: ending };
      return { kind: "ambiguous", square };
    }
    // Not a target: another piece of the player's, or a click elsewhere.
    return this.select(square);
  }

  finish(move) {
    this.clear();
    return { kind: "move", move };
  }
}
