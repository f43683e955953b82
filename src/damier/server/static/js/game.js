// The game page: the board, the clocks, the moves and the actions of one game, kept live
// by the game's WebSocket. The server is the authority: the page shows its last state,
// offers only its legal moves, and counts the clocks down locally between two states.
//
// Positions for the move list: the browser has no rules, but every move comes with its
// path and captured squares, so the page replays the moves from `start_fen` (the piece
// leaves the first square, the captured pieces go, it lands on the last square and is
// crowned on its far row). The replay is used only when it ends on exactly the server's
// FEN; otherwise (a rule the replay does not know) the page keeps the positions it has
// seen itself: the start, the current position, and each state received while it is open.
//
// On a board of more players each seat has its colour and its side of the board: the board
// is turned so that the viewer's side is at the bottom, the seats are listed with the one
// to move marked, the players out of the game struck out and, at the end, their places.
//
// The table around the board: abort (until both have moved), takebacks, the claim once the
// opponent's connection has been gone long enough (the server's presence frames), the chat
// (chat.js), sounds (sound.js), coordinates, and premoves: while the opponent thinks, the
// player may pick one of his pieces and a square; when his turn comes the premove is played
// if exactly one legal move goes from that piece to that square (the server checks it like
// any move), and dropped otherwise.
import { api, ApiError, colorName, controlOf, GameSocket, h, resultText, scrollWithin, seatLabel, showError, variantLinks } from "./api.js";
import { t, tn } from "./i18n.js";
import { Board } from "./board.js";
import { ChatPanel } from "./chat.js";
import { sound } from "./sound.js";
import { MoveEntry } from "./move-entry.js";
import { themePicker } from "./themes.js";
import { MovePicker } from "./picker.js";
import { applyMove, COLORS, normalizeMove, parseFen, samePosition, squareIndex } from "./position.js";
import { ReviewPanel } from "./review.js";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const errorBox = $("error");

let state = null; // the last GameState from the server
let receivedAt = 0; // performance.now() when it arrived (the clocks count from there)
let variant = null;
let index = null;
let board = null;
let me = null;
let socket = null;
const picker = new MovePicker();
let entry = null; // the typed move (move-entry.js)
let positions = new Map(); // ply -> position ({turn, pieces})
let viewPly = null; // null: follow the game; a number: show the position after that ply
let seatOverride = null; // null: the board seen from the viewer's seat (White's for a spectator)
let pending = null; // {move, position} while a move waits for the server
let hint = "";
let loadingVariant = null;
let review = null; // the engine review panel (finished games)
let premove = null; // {from, to}: the move to play when the turn comes
let premoveFrom = null; // the piece picked for a premove, before its square
let presence = { gone: {}, spectators: 0 }; // the last presence frame
let clockOffset = 0; // server time - local time, seconds
let lowWarned = false;
let chat = null;
const COORDINATES = "damier.coordinates";

function coordinates() {
  try {
    return localStorage.getItem(COORDINATES) || "numbers";
  } catch {
    return "numbers";
  }
}

function fail(error) {
  const message = error instanceof ApiError ? error.detail || error.message : String(error.message || error);
  showError(errorBox, message);
}

function other(color) {
  return color === "white" ? "black" : "white";
}

function playerCount() {
  return state?.players || 2;
}

function seatOf(color) {
  return state.seats?.[COLORS.indexOf(color)] ?? state[color];
}

/** Whether the viewer holds a seat and is still in the game. */
function inGame() {
  return Boolean(state.you) && (state.active || [state.you]).includes(state.you);
}

function myTurn() {
  return Boolean(state && state.status === "playing" && state.you && state.you === state.turn);
}

function canMove() {
  return myTurn() && !pending && viewPly === null;
}

// --- states -------------------------------------------------------------------------------

function newer(game) {
  if (!state || game.id !== state.id) return true;
  if (state.status === "finished" && game.status !== "finished") return false;
  const timed = typeof game.server_time === "number" && typeof state.server_time === "number";
  if (game.ply > state.ply) return true;
  // Fewer moves: a takeback, if the state is newer (else a stale answer).
  if (game.ply < state.ply) return timed && game.server_time > state.server_time;
  return timed ? game.server_time >= state.server_time : true;
}

async function accept(game) {
  if (!game || (state && game.id !== state.id)) return;
  if (!newer(game)) return;
  if (!variant) {
    loadingVariant ??= loadVariant(game.variant);
    await loadingVariant;
    if (!newer(game)) return;
  }
  const previous = state;
  state = game;
  receivedAt = performance.now();
  if (typeof game.server_time === "number") clockOffset = game.server_time - Date.now() / 1000;
  pending = null;
  updatePositions(previous);
  announce(previous, game);
  chat?.update(game);
  const legal = myTurn() ? (game.legal_moves || []).map((move) => normalizeMove(index, move)) : [];
  const keep = picker.path.length && previous && previous.ply === game.ply && myTurn();
  if (!keep) {
    picker.setMoves(legal);
    hideChoice();
    hint = "";
  }
  render();
  entry?.update(); // the moves that fit what is typed, on the new position
  playPremove();
}

/** Sounds for what changed, and the error banner cleared when the game ends. */
function announce(previous, game) {
  if (!previous || previous.id !== game.id) return;
  if (game.ply > previous.ply) {
    const last = game.moves?.[game.ply - 1];
    sound.play(last?.captured?.length ? "capture" : "move");
  }
  if (previous.status !== "finished" && game.status === "finished") {
    sound.play("end");
    errorBox.hidden = true;
    errorBox.textContent = "";
  }
}

// --- premoves -----------------------------------------------------------------------------

function canPremove() {
  return Boolean(state && state.status === "playing" && inGame() && !myTurn() && viewPly === null && playerCount() === 2);
}

function premoveClick(square) {
  const piece = displayed().position.pieces.get(square);
  const mine = piece && piece.color === state.you;
  if (premoveFrom === null || mine) {
    premoveFrom = mine && premoveFrom !== square ? square : null;
    if (premoveFrom) premove = null;
  } else {
    premove = { from: premoveFrom, to: square };
    premoveFrom = null;
  }
  renderMarks();
  renderActions();
}

function cancelPremove() {
  premove = null;
  premoveFrom = null;
}

/** On the player's turn: the premove if exactly one legal move fits it, else dropped. */
function playPremove() {
  if (!premove && !premoveFrom) return;
  if (!state || state.status !== "playing") {
    cancelPremove();
    return;
  }
  if (!myTurn() || !premove) return;
  const { from, to } = premove;
  cancelPremove();
  const fits = (state.legal_moves || [])
    .map((move) => normalizeMove(index, move))
    .filter((move) => move.path[0] === from && move.path[move.path.length - 1] === to);
  if (fits.length === 1) {
    play(fits[0]);
  } else {
    hint = fits.length
      ? t("Premove {from}–{to} dropped: several moves fit.", { from, to })
      : t("Premove {from}–{to} dropped: not legal now.", { from, to });
    render();
  }
}

async function loadVariant(name) {
  variant = await api.variant(name);
  const geometry = variant.geometry;
  index = squareIndex(geometry);
  board = new Board($("board"), geometry, {
    interactive: true,
    label: t("{variant} board", { variant: variant.title || name }),
    coordinates: coordinates(),
  });
  board.onSquare = onSquare;
  board.canDrag = (square) => canMove() && picker.path.length <= 1 && picker.movable().has(square);
  board.onDragStart = (square) => {
    if (picker.selected !== square) picker.select(square);
    hideChoice();
    renderMarks();
  };
  variantLinks(name, variant.title || name);
}

function crownsInPassing() {
  const promotion = variant?.rules?.crowning ?? variant?.rules?.promotion ?? variant?.promotion;
  return promotion === "continue-as-king";
}

function updatePositions(previous) {
  const start = parseFen(index, state.start_fen || state.fen);
  const current = parseFen(index, state.fen);
  const replayed = [start];
  for (const move of state.moves || []) {
    const next = applyMove(index, variant.geometry, replayed[replayed.length - 1], move, crownsInPassing());
    if (!next) break;
    replayed.push(next);
  }
  if (replayed.length === state.ply + 1 && samePosition(replayed[state.ply], current)) {
    positions = new Map(replayed.map((position, ply) => [ply, position]));
  } else {
    const kept = new Map();
    if (previous && previous.id === state.id) {
      for (const [ply, position] of positions) if (ply < state.ply) kept.set(ply, position);
    }
    kept.set(0, start);
    kept.set(state.ply, current);
    positions = kept;
  }
  if (viewPly !== null && (viewPly >= state.ply || !positions.has(viewPly))) viewPly = null;
}

// --- moving -------------------------------------------------------------------------------

function onSquare(square) {
  if (!canMove()) {
    if (canPremove()) premoveClick(square);
    return;
  }
  const result = picker.click(square);
  hideChoice();
  hint = "";
  if (result.kind === "move") {
    play(result.move);
    return;
  }
  if (result.kind === "choose") {
    offerChoice(result.moves);
  } else if (result.kind === "ambiguous") {
    hint = t("Several captures end there: click the landing squares in order.");
  } else if (result.kind === "partial") {
    hint = t("Go on: click the next landing square.");
  }
  renderMarks();
  renderStatus();
}

function offerChoice(moves) {
  $("choose-text").textContent = t("These moves take the same path: choose one.");
  $("choose-buttons").replaceChildren(
    ...moves.map((move) =>
      h("button", { type: "button", onclick: () => { hideChoice(); play(move); } }, move.notation),
    ),
  );
  $("choose").hidden = false;
}

function hideChoice() {
  $("choose").hidden = true;
  $("choose-buttons").replaceChildren();
}

async function play(move) {
  if (!canMove()) return;
  const notation = typeof move === "string" ? move : move.notation;
  const ply = state.ply;
  picker.clear();
  if (typeof move !== "string") {
    const after = applyMove(index, variant.geometry, positions.get(ply) || parseFen(index, state.fen), move, crownsInPassing());
    pending = { move, position: after };
  } else {
    pending = { move: null, position: null };
  }
  render();
  try {
    const game = await api.move(state.id, notation, ply);
    pending = null;
    await accept(game);
  } catch (error) {
    pending = null;
    fail(error);
    if (error.status === 409 || error.status === 400) {
      try {
        await accept(await api.game(gameId));
      } catch {
        /* the socket will bring the state */
      }
    }
    picker.setMoves(myTurn() ? (state.legal_moves || []).map((m) => normalizeMove(index, m)) : []);
    render();
  }
}

async function action(run, button) {
  if (button) button.disabled = true;
  try {
    const game = await run();
    await accept(game);
  } catch (error) {
    fail(error);
  } finally {
    if (button) button.disabled = false;
    render();
  }
}

// --- rendering ----------------------------------------------------------------------------

function viewSeat() {
  if (seatOverride !== null) return seatOverride;
  return Math.max(0, COLORS.indexOf(state?.you));
}

function angle() {
  const seat = viewSeat();
  return variant.geometry.seat_angles?.[seat] ?? (seat ? 180 : 0);
}

function displayed() {
  if (viewPly !== null && positions.has(viewPly)) return { position: positions.get(viewPly), ply: viewPly };
  if (pending?.position) return { position: pending.position, ply: state.ply + 1 };
  return { position: positions.get(state.ply) || parseFen(index, state.fen), ply: state.ply };
}

function render() {
  if (!state || !board) return;
  if (state.status === "finished" && $("connection").textContent === t("Live.")) $("connection").textContent = "";
  if (board.angle !== angle()) board.setAngle(angle());
  $("flip").setAttribute("aria-pressed", String(viewSeat() !== 0));
  $("flip").textContent = playerCount() > 2 ? t("Turn board") : t("Flip board");
  board.setPosition(displayed().position);
  renderMarks();
  renderPlayers();
  renderStatus();
  renderActions();
  renderMoves();
  renderReview();
  tick();
}

function renderReview() {
  if (!review) return;
  review.show(state.id, state.status === "finished" && playerCount() === 2); // two-player reviews only
  if (review.review) review.select(displayed().ply);
}

function renderMarks() {
  if (!board || !state) return;
  const { ply } = displayed();
  let last = null;
  if (pending?.move) last = normalizeMove(index, pending.move);
  else if (ply > 0 && state.moves?.[ply - 1]) last = normalizeMove(index, state.moves[ply - 1]);
  // The last move whole: every landing square, a line along a capture, the taken pieces.
  const marks = { lastMove: last ? last.path : [] };
  if (last?.captured?.length) Object.assign(marks, { trail: last.path, captured: last.captured });
  if (canPremove() || premove) {
    marks.premove = premove ? [premove.from, premove.to] : [];
    marks.selected = premoveFrom;
  }
  if (state.status === "finished" && review?.review) {
    const best = review.bestMove(ply);
    if (best) marks.arrow = normalizeMove(index, best).path;
  }
  if (canMove()) {
    const { next, finals } = picker.targets();
    Object.assign(marks, {
      movable: picker.movable(),
      mustCapture: picker.path.length ? new Set() : picker.mustCapture(),
      selected: picker.selected,
      path: picker.path.slice(1),
      next,
      finals,
    });
    if (picker.path.length > 1) marks.trail = picker.path; // a capture being chosen
  }
  board.setMarks(marks);
}

function seatText(color) {
  let text = seatLabel(seatOf(color));
  if (state.you === color) text += ` ${t("(you)")}`;
  return text;
}

function ordinal(place) {
  if (place === 1) return t("1st");
  if (place === 2) return t("2nd");
  if (place === 3) return t("3rd");
  return t("{n}th", { n: place });
}

/** The seats of a board of more players: colour, name, clock, the turn, who is out, places. */
function renderSeats() {
  const list = $("seats");
  const many = playerCount() > 2;
  list.hidden = !many;
  $("player-top").hidden = many;
  $("player-bottom").hidden = many;
  if (!many) return;
  const places = new Map();
  (state.result?.ranking || []).forEach((group, place) => {
    for (const color of group) places.set(color, place + 1);
  });
  list.replaceChildren(
    ...state.seats.map((seat) => {
      const out = !state.active.includes(seat.color);
      const place = places.get(seat.color);
      const moving = state.status === "playing" && state.turn === seat.color;
      const classes = [out ? "out" : "", moving ? "to-move" : ""].join(" ").trim();
      const free = state.status === "open" && !state.you && seat.kind === "human" && !seat.id;
      const sit = free
        ? h("button", { type: "button", "data-seat": seat.color, onclick: (event) => join(COLORS.indexOf(seat.color), event.currentTarget) }, t("Sit at {color}", { color: cap(seat.color) }))
        : null;
      return h(
        "li",
        { "data-color": seat.color, class: classes || null, "aria-current": moving ? "true" : null },
        h(
          "span",
          { class: "name" },
          place ? h("span", { class: "place" }, ordinal(place)) : null,
          h("span", { class: `swatch ${seat.color}`, title: seat.color }),
          h("span", { class: seat.guest ? "label guest" : "label" }, seatText(seat.color)),
          out ? h("span", { class: "muted" }, t("out")) : null,
        ),
        sit,
        state.clock ? h("span", { class: "clock", role: "timer", "data-color": seat.color, "aria-label": t("{color} clock", { color: cap(seat.color).toLowerCase() }) }) : null,
      );
    }),
  );
}

function renderPlayers() {
  renderSeats();
  const names = (state.seats || [state.white, state.black]).map(seatLabel).join(" – ");
  document.title = `${names} · Damier`;
  const control = controlOf(state.clock);
  $("title").textContent = `${variant.title || state.variant} · ${control ? control : t("no clock")}`;
  if (playerCount() > 2) return;
  const bottom = viewSeat() === 1 ? "black" : "white";
  const top = other(bottom);
  for (const [id, color] of [["player-top", top], ["player-bottom", bottom]]) {
    const box = $(id);
    box.dataset.color = color;
    box.querySelector(".swatch").className = `swatch ${color}`;
    box.querySelector(".label").textContent = seatText(color);
    box.querySelector(".label").classList.toggle("guest", Boolean(seatOf(color)?.guest));
    box.classList.toggle("to-move", state.status === "playing" && state.turn === color);
    const clock = box.querySelector(".clock");
    clock.hidden = !state.clock;
    clock.dataset.color = color;
    clock.setAttribute("aria-label", t("{color} clock", { color: cap(color).toLowerCase() }));
  }
}

function statusText() {
  const offers = state.draw_offer === state.you ? t("You offer a draw.") : t("{color} offers a draw.", { color: cap(state.draw_offer) });
  const draw = state.draw_offer ? ` ${offers}` : "";
  if (state.status === "open") {
    if (state.you) {
      return playerCount() > 2
        ? t("Waiting for players to take the open seats. Send them the link below.")
        : t("Waiting for an opponent to join. Send them the link below.");
    }
    const free = (state.seats || []).find((seat) => seat.kind === "human" && !seat.id)?.color || "white";
    return t("Open game: join to play {color}.", { color: cap(free) });
  }
  if (state.status === "finished") return resultText(state.result); // the score: renderStatus
  if (pending) return t("Sending your move…");
  if (viewPly !== null) return t("{color} to move.", { color: cap(state.turn) }) + draw;
  if (myTurn()) {
    const must = picker.mustCapture().size ? ` ${t("You must capture.")}` : "";
    return t("Your turn.") + must + draw;
  }
  const mover = seatOf(state.turn);
  if (state.you && !inGame()) return `${t("You are out of the game.")} ${t("{color} to move.", { color: cap(state.turn) })}`;
  if (state.you) {
    if (mover?.kind === "computer") return t("The computer is thinking…") + draw;
    return t("Waiting for {player} to move.", { player: seatLabel(mover) }) + draw;
  }
  return t("{color} to move.", { color: cap(state.turn) }) + draw;
}

/** A takeback asked for, first on the status line: the opponent asks (answer with the buttons
 *  below), or the viewer's own request waits for the answer. */
function takebackText() {
  const offer = state.takeback_offer;
  if (!offer || state.status !== "playing") return "";
  if (offer === state.you) return t("You ask to take back your last move: waiting for {player}'s answer.", { player: seatLabel(seatOf(other(offer))) });
  const asker = seatLabel(seatOf(offer));
  return inGame()
    ? t("{player} asks to take back the last move: accept or decline.", { player: asker })
    : t("{player} asks to take back the last move.", { player: asker });
}

/** "ply 12", for a position whose move is not known. */
function plyText(ply) {
  return t("ply {n}", { n: ply });
}

function cap(color) {
  return color ? colorName(color) : "";
}

function renderStatus() {
  if (!state) return;
  const status = $("status");
  // The score of a finished game ("· 2-0") is kept on one line, its dot with it.
  const pdn = state.status === "finished" && state.result?.pdn && state.result.pdn !== "*" ? state.result.pdn : null;
  // A takeback asked for comes first; the asker's own request says all while he waits.
  const takeback = takebackText();
  const text = takeback && state.takeback_offer === state.you && !myTurn() ? takeback : [takeback, statusText()].filter(Boolean).join(" ");
  status.replaceChildren(
    text + (pdn ? " " : ""),
    pdn ? h("span", { class: "result-score" }, `· ${pdn}`) : "",
    hint ? ` ${hint}` : "",
  );
  status.classList.toggle("finished", state.status === "finished");
}

/** The analysis board on this game: its start and moves (forfeits are not moves). */
function analysisUrl(game) {
  const params = new URLSearchParams({ fen: game.start_fen });
  params.set("line", game.moves.map((move) => move.notation).join(" "));
  return `/analysis/${encodeURIComponent(game.variant)}?${params}`;
}

function renderActions() {
  const playing = state.status === "playing";
  const player = inGame();
  const offer = state.draw_offer;
  const agreed = state.draw_agreed || (offer ? [offer] : []);
  const asked = Boolean(offer) && !agreed.includes(state.you); // an offer waits for the viewer
  $("join").hidden = !(state.status === "open" && !player);
  $("invite").hidden = !(state.status === "open" && player);
  $("invite-url").value = location.href.split("#")[0];
  const offerButton = $("draw-offer");
  offerButton.hidden = !(playing && player && !asked);
  offerButton.disabled = agreed.includes(state.you);
  offerButton.textContent = agreed.includes(state.you) ? t("Draw offered") : t("Offer draw");
  $("draw-accept").hidden = !(playing && player && asked);
  $("draw-decline").hidden = $("draw-accept").hidden;
  $("resign").hidden = !(playing && player);
  renderTable(playing && player);
  if (state.status === "open" && player) $("abort").hidden = false; // the offer withdrawn
  $("rematch").hidden = !(state.status === "finished" && state.you && !state.tournament);
  showTournament(state.tournament);
  const rematchId = state.rematch?.id ?? state.rematch ?? null;
  $("rematch-link").hidden = !rematchId;
  if (rematchId) $("rematch-link").href = `/games/${encodeURIComponent(rematchId)}`;
  $("pdn").href = api.pdnUrl(state.id);
  $("analyse").hidden = state.status !== "finished";
  $("analyse").href = analysisUrl(state);
  $("pdn").setAttribute("download", `damier-${state.id}.pdn`);
  // Shown to a player while the game is played: the box keeps its focus and its text
  // between his moves (a move typed early waits for his turn and Enter).
  $("move-form").hidden = !(playing && player);
  const list = $("legal-moves");
  list.replaceChildren(...(myTurn() ? state.legal_moves || [] : []).map((move) => h("option", { value: move.notation })));
}

function renderMoves() {
  const box = $("moves");
  const moves = state.moves || [];
  const startTurn = parseFen(index, state.start_fen || state.fen).turn;
  const shown = displayed().ply;
  const cells = [];
  // A number for each round of moves: two plies, or one move of each player on a board of more.
  // Two players: a grid of a number and two moves a row. More: each round is a number and its
  // moves side by side, wrapped onto more lines when they do not fit (never cut or broken),
  // each with its player's colour.
  const round = playerCount();
  const many = round > 2;
  let line = null;
  const startRound = (number) => {
    cells.push(h("span", { class: "number" }, `${number}.`));
    if (many) {
      line = h("span", { class: "round" });
      cells.push(line);
    }
  };
  const put = (cell) => (many ? line.append(cell) : cells.push(cell));
  const offset = Math.max(0, COLORS.indexOf(startTurn));
  if (offset && moves.length) {
    startRound(1);
    for (let i = 0; i < offset; i += 1) put(h("span", { class: "filler" }, "…"));
  }
  moves.forEach((move, i) => {
    const ply = i + 1;
    const slot = i + offset;
    if (slot % round === 0) startRound(slot / round + 1);
    const known = positions.has(ply);
    const judged = review?.review ? review.moveAt(ply) : null;
    // The mover's colour: his piece, before the move or after it, where the page knows it.
    const { path } = normalizeMove(index, move);
    const piece = many ? positions.get(ply - 1)?.pieces.get(path[0]) ?? positions.get(ply)?.pieces.get(path[path.length - 1]) : null;
    const mover = piece && piece.color !== "dead" ? piece.color : null;
    put(
      h(
        "button",
        {
          type: "button",
          "data-ply": ply,
          "data-judgement": judged?.judgement,
          "aria-current": ply === shown && !pending ? "true" : "false",
          disabled: !known,
          title: known
            ? t("Show the position after {move}", { move: move.notation })
            : t("Position not available: only the moves seen live can be shown"),
          onclick: () => view(ply),
        },
        mover ? h("span", { class: `swatch ${mover}`, title: mover }) : null,
        move.notation,
      ),
    );
  });
  box.replaceChildren(...cells);
  box.style.setProperty("--round", String(round));
  box.classList.toggle("many", many);
  box.setAttribute("aria-label", t("Moves ({n})", { n: moves.length }));
  scrollWithin(box, box.querySelector('[aria-current="true"]')); // the list scrolls, never the page
  const viewing = $("viewing");
  if (viewPly !== null) {
    viewing.textContent = viewPly === 0
      ? t("Showing the start position. Press >| to return to the game.")
      : t("Showing the position after {move}. Press >| to return to the game.", {
          move: moves[viewPly - 1]?.notation || plyText(viewPly),
        });
  } else {
    viewing.textContent = "";
  }
  const plies = [...positions.keys()].sort((a, b) => a - b);
  $("nav-first").disabled = shown === 0 || !positions.has(0);
  $("nav-prev").disabled = !plies.some((p) => p < shown);
  $("nav-next").disabled = viewPly === null;
  $("nav-last").disabled = viewPly === null;
}

function view(ply) {
  if (!state) return;
  if (ply === null || ply >= state.ply) viewPly = null;
  else if (positions.has(ply)) viewPly = ply;
  picker.clear();
  hideChoice();
  hint = "";
  render();
  entry?.update();
}

function navigate(where) {
  if (!state) return;
  const plies = [...positions.keys()].sort((a, b) => a - b);
  const shown = viewPly ?? state.ply;
  if (where === "first") view(plies[0] ?? 0);
  else if (where === "last") view(null);
  else if (where === "prev") {
    const before = plies.filter((p) => p < shown);
    if (before.length) view(before[before.length - 1]);
  } else if (where === "next") {
    const after = plies.find((p) => p > shown);
    view(after === undefined ? null : after);
  }
}

/** A game of a tournament links back to it (the tournament page takes each player to his
 *  next game). */
function showTournament(tournamentId) {
  let link = $("tournament-link");
  if (!tournamentId) {
    if (link) link.hidden = true;
    return;
  }
  if (!link) {
    link = h("a", { class: "button", id: "tournament-link" }, t("Back to the tournament"));
    $("rematch-link").after(link);
  }
  link.href = `/tournaments/${encodeURIComponent(tournamentId)}`;
  link.hidden = false;
}

// --- the table: abort, takeback, claims, presence ----------------------------------------

function serverNow() {
  return Date.now() / 1000 + clockOffset;
}

function renderTable(player) {
  const two = playerCount() === 2;
  const firstRound = state.ply < (state.active?.length || 2);
  // A game of a match is never aborted: the match needs its result.
  $("abort").hidden = !(player && firstRound && !state.match && !state.tournament);
  const offer = state.takeback_offer;
  // A move of one's own to take back (against the computer: on one's turn, it grants it).
  const computer = two && state.you && seatOf(other(state.you))?.kind === "computer";
  const mine = state.turn === state.you ? state.ply >= 2 : state.ply >= 1 && !computer;
  const takeback = $("takeback");
  takeback.hidden = !(player && two && mine && (!offer || offer === state.you));
  takeback.disabled = offer === state.you;
  takeback.textContent = offer === state.you ? t("Takeback asked") : t("Ask to take back");
  $("takeback-accept").hidden = !(player && two && offer && offer !== state.you);
  $("takeback-decline").hidden = $("takeback-accept").hidden;
  $("premove-cancel").hidden = !(premove || premoveFrom);
  renderPresence();
}

/** Who has gone (a countdown to the claim), the first-move countdown, the spectators. */
function renderPresence() {
  if (!state) return;
  const now = serverNow();
  const playing = state.status === "playing";
  const line = $("presence");
  const gone = playing ? Object.entries(presence.gone || {}) : [];
  let claimable = false;
  if (gone.length) {
    const [color, { claim_at: claimAt }] = gone[0];
    const wait = Math.ceil(claimAt - now);
    const who = seatLabel(seatOf(color));
    const mineToClaim = inGame() && color !== state.you;
    claimable = mineToClaim && wait <= 0;
    line.textContent = wait > 0
      ? mineToClaim
        ? t("{player} has left the game: you may claim the win in {seconds} s.", { player: who, seconds: wait })
        : t("{player} has left the game: the opponent may claim in {seconds} s.", { player: who, seconds: wait })
      : mineToClaim
        ? t("{player} has left the game: claim the win, call it a draw, or wait.", { player: who })
        : t("{player} has left the game.", { player: who });
    line.classList.add("warning");
  }
  line.hidden = !gone.length;
  $("claim-win").hidden = !claimable;
  $("claim-draw").hidden = !claimable;
  const first = $("first-move");
  const deadline = playing ? state.first_move_deadline : null;
  first.hidden = !deadline;
  if (deadline) {
    const wait = Math.max(0, Math.ceil(deadline - now));
    const mine = state.turn === state.you;
    const values = { color: cap(state.turn), seconds: wait };
    // In a match a first move made too late loses the game; elsewhere it aborts it.
    if (!state.match && !state.tournament) {
      first.textContent = mine
        ? t("You have {seconds} s to make a first move, or the game is aborted.", values)
        : t("{color} has {seconds} s to make a first move, or the game is aborted.", values);
    } else {
      first.textContent = mine
        ? t("You have {seconds} s to make a first move, or you lose this game.", values)
        : t("{color} has {seconds} s to make a first move, or loses this game.", values);
    }
  }
  const count = presence.spectators || 0;
  $("spectators").textContent = count ? tn("{n} spectator", "{n} spectators", count) : "";
}

function onFrame(frame) {
  if (frame.type === "presence") {
    presence = frame;
    if (state) renderActions();
  } else if (frame.type === "chat") {
    chat?.receive(frame);
  }
}

// --- clocks -------------------------------------------------------------------------------

function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s < 10) return `0:0${s.toFixed(1)}`.replace(/^0:0(\d\d)/, "0:$1");
  const whole = Math.ceil(s - 1e-9);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const secs = String(whole % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

function remaining(color) {
  const clock = state.clock;
  let seconds = Number(clock.times ? clock.times[COLORS.indexOf(color)] : clock[color]) || 0;
  if (state.status === "playing" && clock.running === color) {
    seconds -= (performance.now() - receivedAt) / 1000;
  }
  return Math.max(0, seconds);
}

function tick() {
  renderPresence();
  if (!state || !state.clock) return;
  for (const element of document.querySelectorAll(".clock[data-color]")) {
    const color = element.dataset.color;
    const seconds = remaining(color);
    element.textContent = formatClock(seconds);
    const running = state.status === "playing" && state.clock.running === color;
    element.classList.toggle("running", running);
    element.classList.toggle("low", seconds < 20);
    if (running && color === state.you) {
      if (seconds < 10 && !lowWarned) sound.play("low");
      lowWarned = seconds < 10;
    }
  }
}

// --- wiring -------------------------------------------------------------------------------

function connectionStatus(status, retryMs) {
  const element = $("connection");
  element.classList.toggle("down", status === "closed");
  if (status === "open") element.textContent = state?.status === "finished" ? "" : t("Live.");
  else if (status === "connecting") element.textContent = t("Connecting…");
  else element.textContent = t("Connection lost: retrying in {seconds} s.", { seconds: Math.max(1, Math.round(retryMs / 1000)) });
}

function restartSocket() {
  socket?.close();
  socket = new GameSocket(gameId, {
    onState: (game) => accept(game).catch(fail),
    onError: (message) => showError(errorBox, message),
    onStatus: connectionStatus,
    onMessage: onFrame,
  });
  socket.connect();
}

function wire() {
  review = new ReviewPanel(
    {
      section: $("review"),
      start: $("review-start"),
      progress: $("review-progress"),
      graph: $("review-graph"),
      summary: $("review-summary"),
    },
    {
      onSelect: (ply) => view(ply),
      onReady: () => render(),
      onError: fail,
    },
  );
  $("flip").addEventListener("click", () => {
    seatOverride = (viewSeat() + 1) % playerCount();
    render();
  });
  chat = new ChatPanel(
    { section: $("chat"), log: $("chat-log"), form: $("chat-form"), input: $("chat-input"), toggle: $("chat-toggle") },
    (frame) => Boolean(socket?.send(frame)),
  );
  for (const select of document.querySelectorAll("select[data-theme]")) themePicker(select);
  $("coordinates").value = coordinates();
  $("coordinates").addEventListener("change", (event) => {
    try {
      localStorage.setItem(COORDINATES, event.target.value);
    } catch {
      /* the choice lasts for the page */
    }
    board?.setCoordinates(event.target.value);
  });
  const mute = $("mute");
  const showMute = () => {
    mute.textContent = sound.muted ? t("Sound off") : t("Sound on");
    mute.setAttribute("aria-pressed", String(sound.muted));
  };
  showMute();
  mute.addEventListener("click", () => {
    sound.muted = !sound.muted;
    showMute();
  });
  $("abort").addEventListener("click", (event) => action(() => api.abort(gameId), event.currentTarget));
  $("takeback").addEventListener("click", (event) => action(() => api.takeback(gameId, "propose"), event.currentTarget));
  $("takeback-accept").addEventListener("click", (event) => action(() => api.takeback(gameId, "accept"), event.currentTarget));
  $("takeback-decline").addEventListener("click", (event) => action(() => api.takeback(gameId, "decline"), event.currentTarget));
  $("claim-win").addEventListener("click", (event) => action(() => api.claim(gameId, "win"), event.currentTarget));
  $("claim-draw").addEventListener("click", (event) => action(() => api.claim(gameId, "draw"), event.currentTarget));
  $("premove-cancel").addEventListener("click", () => {
    cancelPremove();
    render();
  });
  $("nav-first").addEventListener("click", () => navigate("first"));
  $("nav-prev").addEventListener("click", () => navigate("prev"));
  $("nav-next").addEventListener("click", () => navigate("next"));
  $("nav-last").addEventListener("click", () => navigate("last"));
  document.addEventListener("keydown", (event) => {
    const tag = event.target?.tagName;
    // The move box takes the arrows as long as nothing is typed in it.
    const typing = event.target?.id === "move-input" ? Boolean(event.target.value) : tag === "INPUT";
    if (typing || tag === "SELECT" || tag === "TEXTAREA" || event.altKey || event.ctrlKey || event.metaKey) return;
    const where = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (where) {
      event.preventDefault();
      navigate(where);
    } else if (event.key === "Escape") {
      cancelPremove();
      picker.clear();
      hideChoice();
      hint = "";
      renderMarks();
      renderStatus();
    }
  });
  $("join").addEventListener("click", (event) => join(undefined, event.currentTarget));
  $("copy-invite").addEventListener("click", async () => {
    const input = $("invite-url");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      $("copy-invite").textContent = t("Copied");
    } catch {
      document.execCommand?.("copy");
    }
  });
  $("draw-offer").addEventListener("click", (event) => action(() => api.draw(gameId, "offer"), event.currentTarget));
  $("draw-accept").addEventListener("click", (event) => action(() => api.draw(gameId, "accept"), event.currentTarget));
  $("draw-decline").addEventListener("click", (event) => action(() => api.draw(gameId, "decline"), event.currentTarget));
  $("resign").addEventListener("click", (event) => {
    if (!window.confirm(t("Resign this game?"))) return;
    action(() => api.resign(gameId), event.currentTarget);
  });
  $("rematch").addEventListener("click", async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    try {
      const game = await api.rematch(gameId);
      location.href = `/games/${encodeURIComponent(game.id)}`;
    } catch (error) {
      button.disabled = false;
      fail(error);
    }
  });
  entry = new MoveEntry(
    { form: $("move-form"), input: $("move-input"), list: $("move-fits"), note: $("move-note") },
    {
      moves: () => picker.moves,
      index: () => index,
      play: (move) => play(move),
      blocked: () => {
        if (!state || canMove()) return "";
        if (viewPly !== null) return t("Back to the game's position (End) to play it.");
        return pending ? t("Sending your move…") : t("Not your turn yet: Enter plays it on your turn.");
      },
    },
  );
  setInterval(tick, 100);
}

/** Take a seat (a seat number, or the first open one) of an open game. */
function join(seat, button) {
  return action(async () => {
    const game = await api.join(gameId, seat);
    // The socket identified its player when it connected: reconnect as the new player.
    restartSocket();
    me = await api.me();
    showMe();
    return game;
  }, button);
}

function showMe() {
  $("who").textContent = me ? t("Playing as {name}", { name: me.name }) : t("Guest");
}

async function main() {
  wire();
  if (!gameId) {
    fail(new Error(t("No game in this address.")));
    return;
  }
  api.me().then((who) => {
    me = who;
    showMe();
  }).catch(() => {});
  try {
    await accept(await api.game(gameId));
  } catch (error) {
    if (error.status === 404) {
      $("board").replaceChildren(h("p", {}, `${t("There is no such game.")} `, h("a", { href: "/" }, t("Back to the lobby"))));
      $("status").textContent = t("No such game.");
      for (const id of ["actions", "move-form", "review"]) $(id).hidden = true;
      for (const element of document.querySelectorAll(".moves-nav, .settings-row, #moves, #moves-title, .player")) element.hidden = true;
      return;
    }
    fail(error);
  }
  restartSocket();
}

main();
