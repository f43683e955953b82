// The puzzle trainer: /puzzles lists the variants, /puzzles/{variant} trains in one, and
// /puzzles/{variant}?shot={id} opens a shot missed in a game (found by its review): the
// same trainer, never rated. "My missed shots" lists the player's own.
//
// The board is turned to the solver. He plays by clicking (the MovePicker over the moves the
// server lists); every move goes to the server with the ones before it, and the server
// answers right (with the defender's reply, played here at once), solved or wrong. The
// browser knows no solution until the attempt is over.
import { ApiError, api, getJSON, h, postJSON, showError, variantLinks } from "./api.js";
import { N_, t, tn } from "./i18n.js";
import { Board } from "./board.js";
import { MovePicker } from "./picker.js";
import { applyMove, normalizeMove, parseFen, squareIndex } from "./position.js";

const $ = (id) => document.getElementById(id);
const REPLY_DELAY_MS = 350;
const SOLUTION_STEP_MS = 700;
const THEMES = {
  sacrifice: N_("sacrifice"),
  sacrifices: N_("sacrifices"),
  "quiet-move": N_("quiet move"),
  short: N_("short line"),
  medium: N_("medium line"),
  long: N_("long line"),
  "multi-capture": N_("multiple capture"),
  crowning: N_("crowning"),
  "king-caught": N_("king caught"),
  ending: N_("ending"),
  "game-over": N_("game over"),
};
const TO_PLAY = {
  white: N_("White to play and win: find the move."),
  black: N_("Black to play and win: find the move."),
};
const HISTORY = {
  solved: { rated: N_("Solved {puzzle} ({rating}), you {you}"), unrated: N_("Solved {puzzle} ({rating}), not rated") },
  failed: { rated: N_("Failed {puzzle} ({rating}), you {you}"), unrated: N_("Failed {puzzle} ({rating}), not rated") },
};

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
  shot: null, // the missed shot being solved ({puzzle, shot, mine}), or null
  titles: {}, // variant name -> its title, from the sets
};
const picker = new MovePicker();

function error(message) {
  showError($("error"), message);
}

const themeName = (theme) => t(THEMES[theme] || theme);
const themesText = (themes) => themes.map(themeName).join(", ") || "—";
const shotHref = (shot) => `/puzzles/${encodeURIComponent(shot.variant)}?shot=${encodeURIComponent(shot.id)}`;

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
  page.titles = Object.fromEntries(sets.map((set) => [set.variant, t(set.title)]));
  $("sets").replaceChildren(
    ...sets.map((set) =>
      h(
        "li",
        {},
        h(
          "a",
          { href: `/puzzles/${encodeURIComponent(set.variant)}` },
          t(set.title),
          h("span", { class: "count" }, tn("{n} puzzle", "{n} puzzles", set.count)),
        ),
      ),
    ),
  );
  const { shots } = await getJSON("/api/puzzles/shots");
  $("choice-shots-box").hidden = !shots.length;
  $("choice-shots").replaceChildren(...shots.map((shot) => shotItem(shot, true)));
}

// --- the missed shots -----------------------------------------------------------------------

/** One of "my missed shots": the move played instead, how the practice went. */
function shotItem(shot, withVariant) {
  const played = t("{move} was played instead", { move: shot.played });
  const link = h("a", { href: shotHref(shot) }, withVariant ? `${page.titles[shot.variant] || shot.variant}: ${played}` : played);
  if (!withVariant) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      history.replaceState(null, "", shotHref(shot));
      openShot(shot.id);
    });
  }
  let state = t("not tried yet");
  if (shot.solved) state = t("solved");
  else if (shot.attempts) state = tn("{n} attempt, not solved", "{n} attempts, not solved", shot.attempts);
  return h("li", { class: shot.solved ? "solved" : shot.attempts ? "failed" : null, "data-shot": shot.id }, link, ` · ${state}`);
}

async function loadShots() {
  let answer;
  try {
    answer = await getJSON(`/api/puzzles/shots?variant=${encodeURIComponent(page.variant)}`);
  } catch {
    return;
  }
  $("shots-box").hidden = !answer.shots.length && !page.shot;
  $("shots").replaceChildren(...answer.shots.map((shot) => shotItem(shot, false)));
  if (!answer.shots.length) $("shots").replaceChildren(h("li", { class: "empty" }, t("None yet: they are found when one of your games is reviewed.")));
}

/** The trainer on a missed shot (practice: never rated). */
async function openShot(id) {
  clearTimers();
  let answer;
  try {
    answer = await getJSON(`/api/puzzles/shots/${encodeURIComponent(id)}`);
  } catch (problem) {
    error(problem.message);
    leaveShot();
    await nextPuzzle();
    return;
  }
  page.shot = answer;
  page.puzzle = answer.puzzle;
  page.board.setAngle(answer.puzzle.color === "white" ? 0 : 180);
  $("puzzle-rating").textContent = Math.round(answer.puzzle.rating);
  $("puzzle-themes").textContent = themesText(answer.puzzle.themes);
  const story = answer.mine
    ? t("In your game you played {move} here and missed a winning shot.", { move: answer.shot.played })
    : t("In this game {move} was played here and a winning shot was missed.", { move: answer.shot.played });
  $("shot-info").replaceChildren(story, " ", h("a", { href: `/games/${encodeURIComponent(answer.shot.game_id)}` }, t("See the game")));
  $("shot-info").hidden = false;
  showTitle();
  start();
}

/** Back to the puzzles of the variant. */
function leaveShot() {
  if (!page.shot && !location.search) return;
  page.shot = null;
  $("shot-info").hidden = true;
  history.replaceState(null, "", location.pathname);
  showTitle();
}

function showTitle() {
  const title = page.shot ? t("Find the shot: {variant}", { variant: page.detail.title }) : t("Puzzles: {variant}", { variant: page.detail.title });
  $("title").textContent = title;
  document.title = `${title} — Damier`;
}

// --- the trainer ----------------------------------------------------------------------------

async function loadVariant(name) {
  const detail = await api.variant(name);
  page.variant = detail.name;
  page.detail = detail;
  page.index = squareIndex(detail.geometry);
  const board = new Board($("board"), detail.geometry, { label: t("{variant} board", { variant: detail.title }), interactive: true });
  board.onSquare = onSquare;
  board.canDrag = (square) => !page.over && !page.busy && picker.path.length <= 1 && picker.movable().has(square);
  board.onDragStart = (square) => {
    if (picker.selected !== square) picker.select(square);
    renderMarks();
  };
  page.board = board;
  showTitle();
  variantLinks(detail.name, detail.title);
}

async function fillChoices() {
  const sets = await getJSON("/api/puzzles");
  const mine = sets.find((set) => set.variant === page.variant);
  // A shot missed in a variant without puzzles of its own is in the list all the same.
  const own = mine ? [] : [h("option", { value: page.variant, selected: true }, page.detail.title)];
  $("variant").replaceChildren(
    ...own,
    ...sets.map((set) => h("option", { value: set.variant, selected: set.variant === page.variant }, `${t(set.title)} (${set.count})`)),
  );
  const themes = Object.entries(mine?.themes || {});
  $("theme").replaceChildren(
    h("option", { value: "" }, t("Any theme")),
    ...themes.map(([theme, count]) => h("option", { value: theme }, `${themeName(theme)} (${count})`)),
  );
}

async function nextPuzzle() {
  clearTimers();
  leaveShot();
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
  $("puzzle-themes").textContent = themesText(puzzle.themes);
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
  let note = "";
  if (page.shot) note = ` ${t("(practice: not rated)")}`;
  else if (puzzle.tried) note = ` ${t("(not rated: tried before)")}`;
  const count = tn("{n} move to find.", "{n} moves to find.", puzzle.solver_moves);
  verdict("", `${t(TO_PLAY[puzzle.color] || TO_PLAY.white)} ${count}${note}`);
  $("retry").hidden = true;
  $("next").hidden = true;
  $("solution").hidden = false;
  $("choose").hidden = true;
  render();
}

function showPlayer(player) {
  if (!player) return;
  $("my-rating").textContent = t("{rating} ({solved} of {attempts} solved)", {
    rating: Math.round(player.rating),
    solved: player.solved,
    attempts: player.attempts,
  });
  $("streak").textContent = t("{streak} (best {best})", { streak: player.streak, best: player.best_streak });
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
    verdict("right", t("Right! Keep going."));
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
    finish(result, "solved", t("Solved!"));
    return;
  }
  addLine(move.notation, "wrong");
  finish(result, "wrong", t("Wrong: {move} was the move.", { move: result.expected }));
}

function finish(result, kind, text) {
  page.over = true;
  page.solution = result.solution;
  picker.setMoves([]);
  let rating = "";
  if (result.rated && result.player) {
    rating = ` ${t("Your puzzle rating: {rating}.", { rating: Math.round(result.player.rating) })}`;
    showPlayer(result.player);
  } else if (!result.rated) {
    rating = ` ${t("(Not rated.)")}`;
  }
  if (result.puzzle_rating != null) $("puzzle-rating").textContent = Math.round(result.puzzle_rating);
  if ($("mode").value === "streak" && kind === "wrong" && result.rated) rating += ` ${t("The streak is over.")}`;
  verdict(kind, text + rating);
  $("retry").hidden = false;
  $("next").hidden = false;
  $("solution").hidden = kind === "solved";
  render();
  loadHistory();
  if (page.shot) loadShots();
}

/** Give up (a failure when it is the first attempt) and play the solution out. */
async function showSolution() {
  if (!page.over) {
    try {
      const result = await postJSON(`/api/puzzles/${encodeURIComponent(page.puzzle.id)}/attempt`, {
        moves: page.played,
        give_up: true,
      });
      finish(result, "wrong", t("The solution: {moves}.", { moves: result.solution.join(" ") }));
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
    ...answer.attempts.map((entry) => {
      const rated = entry.rated && entry.rating != null;
      const text = HISTORY[entry.solved ? "solved" : "failed"][rated ? "rated" : "unrated"];
      const values = {
        puzzle: entry.puzzle_id.split("-").pop(),
        rating: Math.round(entry.puzzle_rating),
        you: rated ? Math.round(entry.rating) : "",
      };
      return h("li", { class: entry.solved ? "solved" : "failed" }, t(text, values));
    }),
  );
  if (!answer.attempts.length) $("history").replaceChildren(h("li", { class: "empty" }, t("No puzzle tried yet.")));
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
  const shot = new URLSearchParams(location.search).get("shot");
  try {
    const me = await api.me().catch(() => null);
    $("who").textContent = me ? t("Playing as {name}", { name: me.name }) : t("Guest");
    if (parts.length < 2) {
      await showChoice();
      return;
    }
    $("trainer").hidden = false;
    await loadVariant(decodeURIComponent(parts[1]));
    listen();
    await fillChoices();
    if (shot) await openShot(shot);
    else await nextPuzzle();
    await loadHistory();
    await loadShots();
  } catch (problem) {
    error(problem.message);
  }
}

main();
