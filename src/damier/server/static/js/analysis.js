// The analysis board (/analysis/{variant}?fen=...&line=...): moves for either side kept as a
// tree of variations, a board editor, the engine's lines live over /ws/analysis, PDN in and
// out, and a link to share the position and line. The server checks every position and move
// (POST /api/analysis/position); the page only draws.

import { t, tn } from "./i18n.js";
import { api, colorName, getJSON, h, postJSON, reasonText, scrollWithin, showError, variantLinks } from "./api.js";
import { Board } from "./board.js";
import { MoveEntry } from "./move-entry.js";
import { themePicker } from "./themes.js";
import { MovePicker } from "./picker.js";
import { COLORS, normalizeMove, parseFen, squareIndex } from "./position.js";
import { Tree } from "./tree.js";

const $ = (id) => document.getElementById(id);
const LINES = 3;

const page = {
  variant: null,
  detail: null,
  geometry: null,
  index: null,
  board: null,
  tree: null,
  current: null,
  flipped: false,
  editing: false,
  loading: false, // a played move waits for the server's position
  editor: { pieces: new Map(), turn: "white", tool: { color: "white", king: false } },
  engineOn: false,
  socket: null,
  frame: null,
};
const picker = new MovePicker();
let entry = null; // the typed move (move-entry.js)

function error(message) {
  showError($("error"), message);
}

const capitalised = (word) => colorName(word);

function players() {
  return page.geometry?.players || 2;
}

// --- positions ----------------------------------------------------------------------------

function fetchPosition(fen, moves) {
  return postJSON("/api/analysis/position", { variant: page.variant, fen, moves });
}

async function viewOf(node) {
  if (!node.view) node.view = await fetchPosition(page.tree.root.fen, page.tree.notations(node));
  return node.view;
}

/** A FEN of the editor's position: the side to move, then each player's pieces. */
function writeFen(turn, pieces) {
  const fields = COLORS.slice(0, players()).map((color) => {
    const squares = [...pieces]
      .filter(([, piece]) => piece.color === color)
      .map(([square, piece]) => (piece.king ? "K" : "") + square);
    return color[0].toUpperCase() + squares.join(",");
  });
  return `${turn[0].toUpperCase()}:${fields.join(":")}`;
}

// --- the variant and its board --------------------------------------------------------------

async function loadVariant(name) {
  const detail = await api.variant(name);
  page.variant = detail.name;
  page.detail = detail;
  page.geometry = detail.geometry;
  page.index = squareIndex(detail.geometry);
  const board = new Board($("board"), detail.geometry, { label: t("{variant} board", { variant: detail.title }), interactive: true });
  board.onSquare = onSquare;
  board.canDrag = (square) => !page.editing && picker.path.length <= 1 && picker.movable().has(square);
  board.onDragStart = (square) => {
    if (picker.selected !== square) picker.select(square);
    renderMarks();
  };
  page.board = board;
  if (page.flipped) board.setAngle(180);
  variantLinks(detail.name, detail.title);
  $("title").textContent = t("Analysis board: {variant}", { variant: detail.title });
  document.title = `Analysis: ${detail.title} — Damier`;
  $("variant").value = detail.name;
}

/** A new tree from `fen` (the variant's start when empty) with `line` played; an impossible
 *  position or move is refused with the server's reason, and the start is shown instead. */
async function openPosition(fen, line) {
  let view;
  try {
    view = await fetchPosition(fen || null, line);
  } catch (problem) {
    error(problem.message);
    if (page.tree) return false;
    view = await fetchPosition(null, []);
  }
  page.tree = new Tree(view.start_fen);
  let at = page.tree.root;
  for (const move of view.line) at = page.tree.add(at, move);
  at.view = view;
  await go(at);
  return true;
}

// --- moving around the tree -----------------------------------------------------------------

async function go(node) {
  page.current = node;
  picker.clear();
  $("choose").hidden = true;
  page.frame = null;
  render();
  const view = await viewOf(node);
  if (page.current !== node) return;
  picker.setMoves(view.legal_moves.map((move) => normalizeMove(page.index, move)));
  render();
  entry?.update();
  engineStart();
  explore(node);
}

// --- the explorer: the archive's games that played this line -------------------------------

/** The moves the platform's finished games played after this line (GET /api/archive/explorer),
 *  each with its games and results; a click plays it. Only lines from the variant's start. */
async function explore(node) {
  const status = $("explorer-status");
  const table = $("explorer");
  const link = $("explorer-games");
  link.hidden = true;
  if (page.tree.root.fen !== page.detail.start_fen) {
    status.textContent = t("The archive's games start from the variant's start position.");
    table.hidden = true;
    return;
  }
  const line = page.tree.notations(node);
  const params = new URLSearchParams({ variant: page.variant, opening: line.join(" ") });
  let data;
  try {
    data = await getJSON(`/api/archive/explorer?${params}`);
  } catch {
    status.textContent = "";
    table.hidden = true;
    return;
  }
  if (page.current !== node) return;
  status.textContent = data.games
    ? tn("{n} game of the archive reached this position.", "{n} games of the archive reached this position.", data.games)
    : t("No game of the archive reached this position.");
  const percent = (part, whole) => `${Math.round((100 * part) / whole)}%`;
  table.tBodies[0].replaceChildren(
    ...data.moves.map((row) =>
      h(
        "tr",
        {},
        h("td", {}, h("button", { type: "button", onclick: () => play({ notation: row.move }) }, row.move)),
        h("td", {}, String(row.games)),
        h("td", {}, [row.white, row.draws, row.black].map((n) => percent(n, row.games)).join(" / ")),
      ),
    ),
  );
  table.hidden = data.moves.length === 0;
  // The archive filters by an opening of up to 12 plies.
  link.hidden = !data.games || line.length > 12;
  link.href = `/archive?${params}`;
}

async function play(move) {
  const parent = page.current;
  const known = parent.children.find((child) => child.move.notation === move.notation);
  if (known) return go(known);
  page.loading = true; // what is typed meanwhile waits for the new position
  try {
    const view = await fetchPosition(page.tree.root.fen, [...page.tree.notations(parent), move.notation]);
    const node = page.tree.add(parent, view.line[view.line.length - 1]);
    node.view = view;
    page.loading = false;
    await go(node);
  } catch (problem) {
    page.loading = false;
    error(problem.message);
    entry?.refresh();
  }
}

function onSquare(square) {
  if (page.editing) return editSquare(square);
  const result = picker.click(square);
  if (result.kind === "move") {
    play(result.move);
    return;
  }
  if (result.kind === "choose") {
    $("choose-buttons").replaceChildren(
      ...result.moves.map((move) =>
        h("button", { type: "button", onclick: () => play(move) }, move.notation),
      ),
    );
    $("choose").hidden = false;
  }
  renderMarks();
}

function keyboard(event) {
  if (page.editing || event.altKey || event.ctrlKey || event.metaKey) return;
  // The move box takes the arrows along the line as long as nothing is typed in it.
  const box = event.target.id === "move-input" && !event.target.value;
  if (box ? !["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key) : event.target.closest?.("input, textarea, select")) return;
  const node = page.current;
  if (!node) return;
  const siblings = node.parent ? node.parent.children : [node];
  const at = siblings.indexOf(node);
  const moves = {
    ArrowLeft: node.parent,
    ArrowRight: node.children[0],
    ArrowUp: siblings[at - 1],
    ArrowDown: siblings[at + 1],
    Home: page.tree.root,
    End: page.tree.continuation(node).at(-1),
  };
  if (!(event.key in moves)) return;
  event.preventDefault();
  if (moves[event.key]) go(moves[event.key]);
}

// --- drawing --------------------------------------------------------------------------------

function render() {
  const node = page.current;
  page.board.setPosition(parseFen(page.index, node.fen));
  renderMarks();
  renderTree();
  renderStatus();
  renderEngine();
  $("fen").value = node.fen;
  $("picture").href = pictureUrl(node);
  $("legal-moves").replaceChildren(...(node.view?.legal_moves || []).map((move) => h("option", { value: move.notation })));
  $("promote").disabled = !node.parent || node.parent.children[0] === node;
  $("delete").disabled = !node.parent;
  history.replaceState(null, "", shareUrl());
}

function renderMarks() {
  if (page.editing) {
    page.board.setMarks({});
    return;
  }
  const node = page.current;
  const { next, finals } = picker.targets();
  const best = page.frame?.lines?.[0]?.pv?.[0];
  const arrow = best ? picker.moves.find((move) => move.notation === best)?.path : null;
  page.board.setMarks({
    lastMove: node.move ? normalizeMove(page.index, node.move).path : [],
    movable: picker.movable(),
    mustCapture: picker.path.length ? new Set() : picker.mustCapture(),
    selected: picker.selected,
    path: picker.path.slice(1),
    next,
    finals,
    arrow: picker.path.length ? null : arrow,
  });
}

function renderStatus() {
  const view = page.current.view;
  const turn = parseFen(page.index, page.current.fen).turn;
  $("to-move").textContent = view?.result
    ? t("Game over: {reason}", { reason: reasonText(view.result) })
    : t("{color} to move", { color: capitalised(turn) });
}

/** "12." before a move of the first player, "12..." for the second after a break. */
function moveLabel(node, numbered) {
  if (players() > 2) return `${node.ply}. ${node.move.notation}`;
  const start = page.detail.start_fen.trim()[0].toUpperCase();
  const offset = page.tree.root.fen.trim()[0].toUpperCase() === start ? 0 : 1;
  const ply = node.ply - 1 + offset;
  const number = Math.floor(ply / 2) + 1;
  if (ply % 2 === 0) return `${number}. ${node.move.notation}`;
  return numbered ? `${number}... ${node.move.notation}` : node.move.notation;
}

function moveButton(node, numbered) {
  const glyphs = node.nags.filter((nag) => !nag.startsWith("$")).join("");
  return h(
    "button",
    {
      type: "button",
      class: "tree-move",
      "data-node": node.id,
      "aria-current": node === page.current ? "true" : null,
      onclick: () => go(node),
    },
    moveLabel(node, numbered) + glyphs,
  );
}

function comments(node) {
  return node.comments.map((text) => h("span", { class: "tree-comment" }, text));
}

/** The moves after `parent`: its main line, each side line in brackets where it branches. */
function renderLine(parent, out, numbered = true) {
  let at = parent;
  while (at.children.length) {
    const [main, ...sides] = at.children;
    out.push(moveButton(main, numbered), ...comments(main));
    numbered = main.comments.length > 0;
    for (const side of sides) {
      const inner = [moveButton(side, true), ...comments(side)];
      renderLine(side, inner, side.comments.length > 0);
      out.push(h("span", { class: "variation" }, ...inner));
      numbered = true;
    }
    at = main;
  }
}

function renderTree() {
  const out = page.tree.comment ? [h("span", { class: "tree-comment" }, page.tree.comment)] : [];
  renderLine(page.tree.root, out);
  if (!out.length) out.push(h("p", { class: "empty" }, t("Make a move on the board.")));
  $("moves").replaceChildren(...out);
  scrollWithin($("moves"), $("moves").querySelector('[aria-current="true"]'));
}

// --- the engine -----------------------------------------------------------------------------

function scoreText(line) {
  if (line.mate !== null && line.mate !== undefined) {
    return line.mate > 0 ? t("win in {n}", { n: line.mate }) : t("loss in {n}", { n: -line.mate });
  }
  const value = line.score / 100;
  return `${value > 0 ? "+" : ""}${value.toFixed(2)}`;
}

function renderEngine() {
  const list = $("engine-lines");
  const frame = page.frame;
  if (!page.engineOn) {
    list.replaceChildren();
    $("engine-status").textContent = "";
    return;
  }
  if (!frame) {
    list.replaceChildren();
    if (!$("engine-status").dataset.error) $("engine-status").textContent = t("thinking…");
    return;
  }
  const turn = capitalised(parseFen(page.index, page.current.fen).turn);
  $("engine-status").textContent = frame.done
    ? t("depth {depth} (done), scores for {color}", { depth: frame.depth, color: turn })
    : t("depth {depth}, scores for {color}", { depth: frame.depth, color: turn });
  list.replaceChildren(
    ...frame.lines.map((line) =>
      h(
        "li",
        { class: "engine-line" },
        h("span", { class: "score" }, scoreText(line)),
        h("span", { class: "depth muted" }, line.book ? t("book") : `d${line.depth}`),
        h(
          "button",
          {
            type: "button",
            class: "pv",
            title: t("Play this line's first move"),
            onclick: () => {
              const move = picker.moves.find((m) => m.notation === line.pv[0]);
              if (move) play(move);
            },
          },
          line.pv.join(" "),
        ),
      ),
    ),
  );
}

function socket() {
  if (page.socket && page.socket.readyState <= WebSocket.OPEN) return page.socket;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/analysis`);
  ws.addEventListener("open", () => engineStart());
  ws.addEventListener("message", (event) => onEngineFrame(JSON.parse(event.data)));
  ws.addEventListener("close", () => {
    if (page.socket === ws) page.socket = null;
    if (page.engineOn) $("engine-status").textContent = t("engine disconnected: switch it off and on");
  });
  page.socket = ws;
  return ws;
}

function engineStart() {
  if (!page.engineOn || page.editing || !page.current) return;
  const ws = socket();
  if (ws.readyState !== WebSocket.OPEN) return; // "open" starts it
  delete $("engine-status").dataset.error;
  page.frame = null;
  renderEngine();
  ws.send(
    JSON.stringify({
      type: "start",
      variant: page.variant,
      fen: page.tree.root.fen,
      moves: page.tree.notations(page.current),
      lines: LINES,
      book: $("engine-book").checked,
    }),
  );
}

function engineStop() {
  if (page.socket?.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "stop" }));
  page.frame = null;
  renderEngine();
  renderMarks();
}

function onEngineFrame(frame) {
  if (frame.type === "error") {
    $("engine-status").textContent = frame.message;
    $("engine-status").dataset.error = "1";
    return;
  }
  if (frame.type !== "analysis" || !page.engineOn || frame.fen !== page.current?.fen) return;
  page.frame = frame;
  renderEngine();
  renderMarks();
}

// --- the board editor -----------------------------------------------------------------------

function openEditor() {
  const position = parseFen(page.index, page.current.fen);
  page.editing = true;
  page.editor.pieces = new Map(position.pieces);
  page.editor.turn = position.turn;
  picker.clear();
  if (page.socket?.readyState === WebSocket.OPEN) page.socket.send(JSON.stringify({ type: "stop" }));
  const colors = COLORS.slice(0, players());
  const tools = [
    ...colors.flatMap((color) => [
      { color, king: false, label: t("{color} man", { color: capitalised(color) }) },
      { color, king: true, label: t("{color} king", { color: capitalised(color) }) },
    ]),
    { color: null, king: false, label: t("Remove") },
  ];
  $("palette").replaceChildren(
    ...tools.map((tool) =>
      h(
        "button",
        {
          type: "button",
          role: "radio",
          class: "tool",
          "data-color": tool.color || "none",
          "data-king": tool.king ? "true" : "false",
          "aria-checked": sameTool(tool, page.editor.tool) ? "true" : "false",
          onclick: (event) => {
            page.editor.tool = tool.color ? { color: tool.color, king: tool.king } : null;
            for (const other of $("palette").children) other.setAttribute("aria-checked", "false");
            event.currentTarget.setAttribute("aria-checked", "true");
          },
        },
        tool.color ? h("span", { class: `swatch ${tool.color}${tool.king ? " king" : ""}` }) : null,
        tool.label,
      ),
    ),
  );
  $("editor-turn").replaceChildren(
    ...colors.map((color) => h("option", { value: color }, capitalised(color))),
  );
  $("editor-turn").value = page.editor.turn;
  $("editor").hidden = false;
  $("move-form").hidden = true;
  renderEditor();
}

function sameTool(a, b) {
  if (!a || !b) return !a && !b;
  return a.color === b.color && a.king === b.king;
}

function editSquare(square) {
  const tool = page.editor.tool;
  const here = page.editor.pieces.get(square);
  if (!tool || (here && sameTool(here, tool))) page.editor.pieces.delete(square);
  else page.editor.pieces.set(square, { color: tool.color, king: tool.king });
  renderEditor();
}

function renderEditor() {
  page.board.setPosition({ turn: page.editor.turn, pieces: page.editor.pieces });
  page.board.setMarks({});
  $("fen").value = writeFen(page.editor.turn, page.editor.pieces);
}

async function closeEditor(apply) {
  if (apply) {
    const fen = writeFen(page.editor.turn, page.editor.pieces);
    try {
      await fetchPosition(fen, []);
    } catch (problem) {
      error(problem.message); // the kernel's reason: the editor stays open
      return;
    }
    page.editing = false;
    $("editor").hidden = true;
    $("move-form").hidden = false;
    await openPosition(fen, []);
    return;
  }
  page.editing = false;
  $("editor").hidden = true;
  $("move-form").hidden = false;
  await go(page.current);
}

// --- share and PDN --------------------------------------------------------------------------

function shareUrl() {
  const params = new URLSearchParams();
  if (page.tree.root.fen !== page.detail.start_fen) params.set("fen", page.tree.root.fen);
  const line = page.tree.notations(page.current);
  if (line.length) params.set("line", line.join(" "));
  const query = params.toString();
  return `/analysis/${encodeURIComponent(page.variant)}${query ? `?${query}` : ""}`;
}

/** The board's picture (``GET /api/analysis/picture.svg``): the position, its last move
 *  lit, turned as the board is. */
function pictureUrl(node) {
  const params = new URLSearchParams({ variant: page.variant });
  const before = node.parent ? node.parent.fen : node.fen;
  if (before !== page.detail.start_fen) params.set("fen", before);
  if (node.parent) params.set("move", node.move.notation);
  if (page.flipped) params.set("flipped", "true");
  return `/api/analysis/picture.svg?${params}`;
}

async function share() {
  const url = new URL(shareUrl(), location.origin).href;
  const field = $("share-url");
  field.value = url;
  field.hidden = false;
  field.select();
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    /* the link is shown, selected, for copying by hand */
  }
}

/** A PDN file's text: UTF-8, else Windows-1252, the encoding of the files of the Windows
 *  draughts programs (their players' accented names are not UTF-8), as the server and the
 *  command line read them (``decode_pdn``). */
function pdnText(buffer) {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    return new TextDecoder("windows-1252").decode(buffer);
  }
}

async function openPdn(text) {
  try {
    const data = await postJSON("/api/analysis/pdn", { pdn: text, variant: page.variant });
    if (data.variant !== page.variant) await loadVariant(data.variant);
    page.tree = Tree.fromPdn(data);
    await go(page.tree.root);
  } catch (problem) {
    error(problem.message);
  }
}

async function downloadPdn() {
  try {
    const text = await postJSON("/api/analysis/pdn/export", page.tree.toPdn(page.variant));
    $("pdn").value = text;
    const link = $("pdn-link");
    URL.revokeObjectURL(link.href);
    link.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pdn" }));
    link.click();
  } catch (problem) {
    error(problem.message);
  }
}

// --- start ----------------------------------------------------------------------------------

function listen() {
  $("nav-first").onclick = () => go(page.tree.root);
  $("nav-prev").onclick = () => page.current.parent && go(page.current.parent);
  $("nav-next").onclick = () => page.current.children[0] && go(page.current.children[0]);
  $("nav-last").onclick = () => {
    const last = page.tree.continuation(page.current).at(-1);
    if (last) go(last);
  };
  $("flip").onclick = () => {
    page.flipped = !page.flipped;
    $("flip").setAttribute("aria-pressed", String(page.flipped));
    page.board.setAngle(page.flipped ? 180 : 0);
    $("picture").href = pictureUrl(page.current);
  };
  $("promote").onclick = () => {
    page.tree.promote(page.current);
    render();
  };
  $("delete").onclick = () => go(page.tree.remove(page.current));
  $("edit").onclick = openEditor;
  $("editor-done").onclick = () => closeEditor(true);
  $("editor-cancel").onclick = () => closeEditor(false);
  $("editor-clear").onclick = () => {
    page.editor.pieces = new Map();
    renderEditor();
  };
  $("editor-reset").onclick = () => {
    const start = parseFen(page.index, page.detail.start_fen);
    page.editor.pieces = new Map(start.pieces);
    page.editor.turn = start.turn;
    $("editor-turn").value = start.turn;
    renderEditor();
  };
  $("editor-turn").onchange = () => {
    page.editor.turn = $("editor-turn").value;
    renderEditor();
  };
  $("fen-form").onsubmit = (event) => {
    event.preventDefault();
    if (page.editing) {
      const position = parseFen(page.index, $("fen").value);
      page.editor.pieces = position.pieces;
      page.editor.turn = position.turn;
      $("editor-turn").value = position.turn;
      renderEditor();
      return;
    }
    openPosition($("fen").value.trim(), []);
  };
  $("engine-on").onchange = () => {
    page.engineOn = $("engine-on").checked;
    if (page.engineOn) engineStart();
    else engineStop();
  };
  $("engine-book").onchange = () => engineStart();
  $("share").onclick = share;
  $("pdn-open").onclick = () => openPdn($("pdn").value);
  $("pdn-file").onchange = async () => {
    const file = $("pdn-file").files[0];
    if (!file) return;
    $("pdn").value = pdnText(await file.arrayBuffer());
    openPdn($("pdn").value);
  };
  $("pdn-download").onclick = downloadPdn;
  $("variant").onchange = () => {
    location.href = `/analysis/${encodeURIComponent($("variant").value)}`;
  };
  document.addEventListener("keydown", keyboard);
  for (const select of document.querySelectorAll("select[data-theme]")) themePicker(select);
  entry = new MoveEntry(
    { form: $("move-form"), input: $("move-input"), list: $("move-fits"), note: $("move-note") },
    {
      moves: () => picker.moves,
      index: () => page.index,
      // A text that fits no legal move goes to the server, which says why it refuses it.
      play: (move) => play(typeof move === "string" ? { notation: move } : move),
      blocked: () => {
        if (page.editing) return t("Close the board editor to play moves.");
        return page.current?.view && !page.loading ? "" : t("The position is loading…");
      },
      // Only a position on its way is waited for (not the board editor being closed).
      typeAhead: () => !page.editing,
    },
  );
}

async function start() {
  const match = location.pathname.match(/^\/analysis\/([^/]+)/);
  const name = match ? decodeURIComponent(match[1]) : "international";
  try {
    const variants = await api.variants();
    $("variant").replaceChildren(...variants.map((v) => h("option", { value: v.name }, v.title)));
    await loadVariant(name);
  } catch (problem) {
    // The error stands where the board would be (the alert above it goes after a while).
    error(problem.message);
    $("board").replaceChildren(
      h("p", { class: "status" }, problem.status === 404 ? t("There is no variant “{name}”.", { name }) : t("The board cannot be shown: {problem}.", { problem: problem.message })),
      h("p", {}, h("a", { href: "/analysis/international" }, t("Open the international board")), " · ", h("a", { href: "/" }, t("Back to the lobby"))),
    );
    return;
  }
  listen();
  const params = new URLSearchParams(location.search);
  const line = (params.get("line") || "").split(/\s+/).filter(Boolean);
  await openPosition(params.get("fen"), line);
  document.body.dataset.ready = "true";
}

start();
