// Positions without rules: square names, FEN reading, and the effect of a move the server
// has already checked (its path and captured squares).

/**
 * Square name lookup for a variant's geometry: every accepted spelling (the board's own
 * name, its algebraic name, lower case) maps to the board's own name.
 */
export function squareIndex(geometry) {
  const index = new Map();
  const rows = new Map();
  for (const cell of geometry.cells) {
    if (cell.row === null || cell.row === undefined) continue; // not a rectangular board
    const name = String(cell.name);
    const algebraic = `${String.fromCharCode(97 + cell.column)}${geometry.height - cell.row}`;
    index.set(algebraic.toLowerCase(), name);
    rows.set(name, cell.row);
  }
  for (const cell of geometry.cells) index.set(String(cell.name).toLowerCase(), String(cell.name));
  const numeric = geometry.cells.every((cell) => /^\d+$/.test(String(cell.name)));
  return {
    numeric,
    /** The board's own name for a square written in any accepted way, or null. */
    name(square) {
      return index.get(String(square).trim().toLowerCase()) ?? null;
    },
    row(name) {
      return rows.get(name);
    },
    has(square) {
      return index.has(String(square).trim().toLowerCase());
    },
  };
}

/** The players by their FEN letter (multi-player boards use them all), and the dead pieces. */
export const COLORS = ["white", "black", "red", "green", "yellow", "purple", "orange", "cyan"];
const LETTERS = new Map([...COLORS.map((color) => [color[0].toUpperCase(), color]), ["X", "dead"]]);

/**
 * Reads a FEN (`W:W31-50:B1-20`, `B:WK4,21-32:B1-12`, `W:Wa2,Kb2:Ba7`, `R:WWa1:BBa1:RKRc3`)
 * into `{turn: "white"|"black"|"red"|..., pieces: Map(name -> {color, king})}`.
 * Unknown squares are skipped: the server wrote the FEN, so it is trusted.
 */
export function parseFen(index, fen) {
  const pieces = new Map();
  let body = String(fen || "").trim();
  const wrapped = body.match(/^\[\s*FEN\s+"(.*)"\s*\]$/s);
  if (wrapped) body = wrapped[1].trim();
  body = body.replace(/\.$/, "").replace(/\s+/g, "");
  const fields = body.split(":");
  const turn = LETTERS.get((fields[0] || "W").toUpperCase()) ?? "white";
  for (const field of fields.slice(1)) {
    if (!field) continue;
    const color = LETTERS.get(field[0].toUpperCase());
    if (!color) continue; // H/F move counters
    for (const raw of field.slice(1).split(",")) {
      const token = raw.trim().toLowerCase();
      if (!token) continue;
      // "K" marks a king; on algebraic boards "k2" may be a man on the k-file.
      const king = token.startsWith("k") && (index.numeric || !index.has(token));
      const rest = king ? token.slice(1) : token;
      const range = index.numeric && rest.match(/^(\d+)-(\d+)$/);
      const squares = [];
      if (range) {
        for (let n = Number(range[1]); n <= Number(range[2]); n += 1) squares.push(String(n));
      } else {
        squares.push(rest);
      }
      for (const square of squares) {
        const name = index.name(square);
        if (name !== null) pieces.set(name, { color, king });
      }
    }
  }
  return { turn, pieces };
}

/** A move's path and captured squares in the board's own names. */
export function normalizeMove(index, move) {
  const path = (move.path || []).map((s) => index.name(s) ?? String(s));
  const captured = (move.captured || []).map((s) => index.name(s) ?? String(s));
  return { ...move, path, captured };
}

/**
 * The position after `move` (already legal): the piece leaves path[0], the captured pieces
 * go, the piece lands on the last square and is crowned on its crowning row (row 0 for
 * White, the last row for Black). With `crownInPassing` (Russian rules) a man that lands on
 * its crowning row during a capture is crowned there.
 */
export function applyMove(index, geometry, position, move, crownInPassing = false) {
  const { path, captured } = normalizeMove(index, move);
  const pieces = new Map(position.pieces);
  const from = path[0];
  const to = path[path.length - 1];
  const piece = pieces.get(from);
  if (!piece) return null;
  pieces.delete(from);
  for (const square of captured) pieces.delete(square);
  const crowningRow = piece.color === "white" ? 0 : geometry.height - 1;
  let king = piece.king;
  const landings = crownInPassing ? path.slice(1) : [to];
  if (landings.some((square) => index.row(square) === crowningRow)) king = true;
  pieces.set(to, { color: piece.color, king });
  return { turn: position.turn === "white" ? "black" : "white", pieces };
}

export function samePosition(a, b) {
  if (!a || !b || a.turn !== b.turn || a.pieces.size !== b.pieces.size) return false;
  for (const [square, piece] of a.pieces) {
    const other = b.pieces.get(square);
    if (!other || other.color !== piece.color || other.king !== piece.king) return false;
  }
  return true;
}
