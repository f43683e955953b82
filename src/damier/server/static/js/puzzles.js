// The puzzle trainer: /puzzles lists the variants, /puzzles/{variant} trains in one.
//
// The board is turned to the solver. He plays by clicking (the MovePicker over the moves the
// server lists); every move goes to the server with the ones before it, and the server
// answers right (with the defender's reply, played here at once), solved or wrong. The
// browser knows no solution until the attempt is over.
import { ApiError, api, getJSON, h, postJSON, showError } from "./api.js";
import { Board } from "./board.js";
import { MovePicker } from "./picker.js";
import { applyMove, normalizeMove, parseFen, squareIndex } from "./position.js";

const $ = (id) => document.getElementById(id);
const REPLY_DELAY_MS = 350;
const SOLUTION_STEP_MS = 700;

const page = {
  variant: null,
  detail: null,
  index: null,
  board: null,
  puzzle: null,
  played: [],
  over: false,
  busy: false,
  position: null,
  solution: null,
  timers: [],
};
const picker = new MovePicker();

function error(message) {
  showError($("error"), message);
}

function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function query() {
  const params = new URLSearchParams();
  if ($("theme").value) params.set("theme", $("theme").value);
  params.set("mode", $("mode").value);
  return params.toString();
}

function crownsInPassing() {
  const detail = page.detail;
  const promotion = detail?.rules?.crowning ?? detail?.rules?.promotion ?? detail?.promotion;
  return promotion === "continue-as-king";
}

function clearTimers() {
  for (const timer of page.timers) clearTimeout(timer);
  page.timers = [];
}

// --- the choice of a variant ----------------------------------------------------------------

async function showChoice() {
  $("choice").hidden = false;
  const sets = await getJSON("/api/puzzles");
  $("sets").replaceChildren(
    ...sets.map((set) =>
      h(
        "li",
        {},
        h(
          "a",
          { href: `/puzzles/${encodeURIComponent(set.variant)}` },
          set.title,
          h("span", { class: "count" }, `${set.count} puzzles`),
        ),
      ),
    ),
  );
}

// --- the trainer ----------------------------------------------------------------------------

async function loadVariant(name) {
  const detail = await api.variant(name);
  page.variant = detail.name;
  page.detail = detail;
  page.index = squareIndex(detail.geometry);
  const board = new Board($("board"), detail.geometry, { label: `${detail.title} board`, interactive: true });
  board.onSquare = onSquare;
  board.canDrag = (square) => !page.over && !page.busy && picker.path.length <= 1 && picker.movable().has(square);
  board.onDragStart = (square) => {
    if (picker.selected !== square) picker.select(square);
    renderMarks();
  };
  page.board = board;
  $("title").textContent = `Puzzles: ${detail.title}`;
  document.title = `Puzzles: ${detail.title} — Damier`;
  $("rules-link").href = `/rules/${encodeURIComponent(detail.name)}`;
}

async function fillChoices() {
  const sets = await getJSON("/api/puzzles");
  $("variant").replaceChildren(
    ...sets.map((set) => h("option", { value: set.variant, selected: set.variant === page.variant }, `${set.title} (${set.count})`)),
  );
  const mine = sets.find((set) => set.variant === page.variant);
  const themes = Object.entries(mine?.themes || {});
  $("theme").replaceChildren(
    h("option", { value: "" }, "Any theme"),
    ...themes.map(([theme, count]) => h("option", { value: theme }, `${theme} (${count})`)),
  );
}

async function nextPuzzle() {
  clearTimers();
  let next;
  try {
    next = await getJSON(`/api/puzzles/${encodeURIComponent(page.variant)}/next?${query()}`);
  } catch (problem) {
    error(problem.message);
    $("status").textContent = problem instanceof ApiError && problem.status === 404 ? problem.message : "";
    return;
  }
  const puzzle = next.puzzle;
  page.puzzle = puzzle;
  page.board.setAngle(puzzle.color === "white" ? 0 : 180);
  showPlayer(next.player);
  $("puzzle-rating").textContent = Math.round(puzzle.rating);
  $("puzzle-themes").textContent = puzzle.themes.join(", ") || "—";
  start();
}

/** The puzzle from its start (a new puzzle, or a retry). */
function start() {
  clearTimers();
  const puzzle = page.puzzle;
  page.played = [];
  page.over = false;
  page.solution = null;
  page.position = parseFen(page.index, puzzle.fen);
  picker.setMoves(puzzle.legal_moves.map((move) => normalizeMove(page.index, move)));
  page.lastMove = [];
  $("line").replaceChildren();
  verdict("", `${cap(puzzle.color)} to play and win: find the move. `
    + `${puzzle.solver_moves} move${puzzle.solver_moves > 1 ? "s" : ""} to find${puzzle.tried ? " (not rated: tried before)" : ""}.`);
  $("retry").hidden = true;
  $("next").hidden = true;
  $("solution").hidden = false;
  $("choose").hidden = true;
  render();
}

function showPlayer(player) {
  if (!player) return;
  $("my-rating").textContent = `${Math.round(player.rating)} (${player.solved} of ${player.attempts} solved)`;
  $("streak").textContent = `${player.streak} (best ${player.best_streak})`;
}

function verdict(kind, text) {
  const element = $("verdict");
  element.className = `verdict ${kind}`;
  element.textContent = text;
  $("status").textContent = text;
}

function addLine(notation, kind) {
  $("line").append(h("li", { class: kind }, notation));
}

function onSquare(square) {
  if (page.over || page.busy) return;
  const result = picker.click(square);
  if (result.kind === "move") {
    play(result.move);
    return;
  }
  if (result.kind === "choose") {
    $("choose-buttons").replaceChildren(
      ...result.moves.map((move) => h("button", { type: "button", onclick: () => play(move) }, move.notation)),
    );
    $("choose").hidden = false;
  }
  renderMarks();
}

async function play(move) {
  $("choose").hidden = true;
  page.busy = true;
  const moves = [...page.played, move.notation];
  // The move is shown at once; the server says whether it was the one.
  page.position = applyMove(page.index, page.detail.geometry, page.position, move, crownsInPassing()) || page.position;
  page.lastMove = normalizeMove(page.index, move).path;
  picker.setMoves([]);
  render();
  let result;
  try {
    result = await postJSON(`/api/puzzles/${encodeURIComponent(page.puzzle.id)}/attempt`, { moves });
  } catch (problem) {
    error(problem.message);
    page.busy = false;
    start();
    return;
  }
  page.busy = false;
  page.played = moves;
  if (result.status === "right") {
    addLine(move.notation, "solver");
    verdict("right", "Right! Keep going.");
    page.timers.push(setTimeout(() => {
      addLine(result.reply.notation, "defender");
      page.position = parseFen(page.index, result.fen);
      page.lastMove = normalizeMove(page.index, result.reply).path;
      picker.setMoves(result.legal_moves.map((m) => normalizeMove(page.index, m)));
      render();
    }, REPLY_DELAY_MS));
    return;
  }
  if (result.status === "solved") {
    addLine(move.notation, "solver");
    finish(result, "solved", "Solved!");
    return;
  }
  addLine(move.notation, "wrong");
  finish(result, "wrong", `Wrong: ${result.expected} was the move.`);
}

function finish(result, kind, text) {
  page.over = true;
  page.solution = result.solution;
  picker.setMoves([]);
  let rating = "";
  if (result.rated && result.player) {
    rating = ` Your puzzle rating: ${Math.round(result.player.rating)}.`;
    showPlayer(result.player);
  } else if (!result.rated) {
    rating = " (Not rated.)";
  }
  if (result.puzzle_rating != null) $("puzzle-rating").textContent = Math.round(result.puzzle_rating);
  if ($("mode").value === "streak" && kind === "wrong" && result.rated) rating += " The streak is over.";
  verdict(kind, text + rating);
  $("retry").hidden = false;
  $("next").hidden = false;
  $("solution").hidden = kind === "solved";
  render();
  loadHistory();
}

/** Give up (a failure when it is the first attempt) and play the solution out. */
async function showSolution() {
  if (!page.over) {
    try {
      const result = await postJSON(`/api/puzzles/${encodeURIComponent(page.puzzle.id)}/attempt`, {
        moves: page.played,
        give_up: true,
      });
      finish(result, "wrong", `The solution: ${result.solution.join(" ")}.`);
    } catch (problem) {
      error(problem.message);
      return;
    }
  }
  replaySolution();
}

async function replaySolution() {
  clearTimers();
  const line = page.solution || [];
  page.position = parseFen(page.index, page.puzzle.fen);
  page.lastMove = [];
  $("line").replaceChildren();
  render();
  // The solution's moves as paths: ask the analysis service for the line's positions.
  let view;
  try {
    view = await postJSON("/api/analysis/position", { variant: page.variant, fen: page.puzzle.fen, moves: line });
  } catch (problem) {
    error(problem.message);
    return;
  }
  view.line.forEach((move, i) => {
    page.timers.push(setTimeout(() => {
      page.position = applyMove(page.index, page.detail.geometry, page.position, move, crownsInPassing()) || page.position;
      page.lastMove = normalizeMove(page.index, move).path;
      addLine(move.notation, i % 2 === 0 ? "solver" : "defender");
      render();
    }, SOLUTION_STEP_MS * (i + 1)));
  });
}

async function loadHistory() {
  let answer;
  try {
    answer = await getJSON(`/api/puzzles/${encodeURIComponent(page.variant)}/history`);
  } catch {
    return;
  }
  showPlayer(answer.player);
  $("history").replaceChildren(
    ...answer.attempts.map((entry) =>
      h(
        "li",
        { class: entry.solved ? "solved" : "failed" },
        `${entry.solved ? "Solved" : "Failed"} ${entry.puzzle_id.split("-").pop()} (${Math.round(entry.puzzle_rating)})`,
        entry.rated && entry.rating != null ? `, you ${Math.round(entry.rating)}` : ", not rated",
      ),
    ),
  );
  if (!answer.attempts.length) $("history").replaceChildren(h("li", { class: "empty" }, "No puzzle tried yet."));
}

// --- drawing --------------------------------------------------------------------------------

function render() {
  page.board.setPosition(page.position);
  renderMarks();
}

function renderMarks() {
  const { next, finals } = picker.targets();
  page.board.setMarks({
    lastMove: page.lastMove || [],
    movable: picker.movable(),
    mustCapture: picker.path.length ? new Set() : picker.mustCapture(),
    selected: picker.selected,
    path: picker.path.slice(1),
    next,
    finals,
  });
}

// --- start ----------------------------------------------------------------------------------

function listen() {
  $("retry").addEventListener("click", start);
  $("next").addEventListener("click", nextPuzzle);
  $("solution").addEventListener("click", showSolution);
  $("variant").addEventListener("change", () => {
    location.href = `/puzzles/${encodeURIComponent($("variant").value)}`;
  });
  $("theme").addEventListener("change", nextPuzzle);
  $("mode").addEventListener("change", nextPuzzle);
}

async function main() {
  const parts = location.pathname.split("/").filter(Boolean);
  try {
    const me = await api.me().catch(() => null);
    $("who").textContent = me ? `Playing as ${me.name}` : "Guest";
    if (parts.length < 2) {
      await showChoice();
      return;
    }
    $("trainer").hidden = false;
    await loadVariant(decodeURIComponent(parts[1]));
    listen();
    await fillChoices();
    await nextPuzzle();
    await loadHistory();
  } catch (problem) {
    error(problem.message);
  }
}

main();
