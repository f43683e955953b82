// The board in SVG, drawn from a variant's geometry (GET /api/variants/{name}).
//
// The playable cells are exactly the geometry's cells (their polygons, in board units,
// White at the bottom), coloured by their `shade`; the cells that take no piece (the
// geometry's `background` outlines) are drawn as light squares behind them, so square,
// cross, radial and hexagonal boards are all drawn by the same code. The board turns about
// its centre by any angle (`setAngle`): half a turn puts Black at the bottom, and each seat
// of a multi-player board has its own angle (`geometry.seat_angles`). Pieces do not take
// pointer events: every click, tap, key and drop lands on a cell, named by its
// `data-square`.
//
// Coordinates (`setCoordinates`): the square names in the cells ("numbers"), letters and
// numbers along the bottom and left edges as the board is seen ("edges": a-h and 1-8 on
// 8x8, further letters and numbers on larger rectangular boards; a board that is not
// rectangular keeps its names), or "none". A move's whole path can be drawn as a line
// through its landing squares, with its captured pieces crossed out. The colours are the
// style sheet's, after the player's theme (themes.js).
import { t } from "./i18n.js";
import { colorName } from "./api.js";
import "./themes.js"; // the player's board and pieces (classes on the root element)

const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) element.setAttribute(key, String(value));
  }
  return element;
}

const SHADES = ["plain", "dark", "mid"];

/** Twice the signed area of a polygon (shoelace). */
function area(points) {
  let sum = 0;
  points.forEach(([x, y], i) => {
    const [nx, ny] = points[(i + 1) % points.length];
    sum += x * ny - nx * y;
  });
  return Math.abs(sum) / 2;
}

/** A column's letters: a..z, then aa, ab, ... */
function letters(column) {
  let text = "";
  let n = column;
  do {
    text = String.fromCharCode(97 + (n % 26)) + text;
    n = Math.floor(n / 26) - 1;
  } while (n >= 0);
  return text;
}

function centroid(points) {
  let x = 0;
  let y = 0;
  for (const [px, py] of points) {
    x += px;
    y += py;
  }
  return [x / points.length, y / points.length];
}

/**
 * A radial board of six or eight areas drawn with its centre opened: every point moves out
 * from the centre so that the centre becomes a small disc (a fifth of the radius) and the
 * cells that touch it are no longer slivers. Lines and neighbours are unchanged: only the
 * drawing is stretched.
 */
function opened(geometry) {
  const outlines = [...geometry.cells.map((cell) => cell.polygon), ...(geometry.background || [])];
  const points = outlines.flat();
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const [cx, cy] = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
  const radius = Math.max(...points.map(([x, y]) => Math.hypot(x - cx, y - cy)));
  const hole = radius * 0.2;
  const out = ([x, y], [dx, dy], d) => {
    const length = Math.hypot(dx, dy) || 1;
    const r = hole + d * (1 - hole / radius);
    return [cx + (dx / length) * r, cy + (dy / length) * r];
  };
  // A corner at the centre becomes two, out along the cell's two edges from the centre, so
  // that neighbours still share their edges and the centre is a small polygon.
  const move = (polygon) =>
    polygon.flatMap(([x, y], i) => {
      const d = Math.hypot(x - cx, y - cy);
      if (d >= radius * 1e-6) return [out([x, y], [x - cx, y - cy], d)];
      const before = polygon[(i + polygon.length - 1) % polygon.length];
      const after = polygon[(i + 1) % polygon.length];
      return [out(before, [before[0] - cx, before[1] - cy], 0), out(after, [after[0] - cx, after[1] - cy], 0)];
    });
  return {
    ...geometry,
    cells: geometry.cells.map((cell) => ({ ...cell, polygon: move(cell.polygon) })),
    background: (geometry.background || []).map(move),
  };
}

export class Board {
  /**
   * container: element the SVG goes into; geometry: the variant's `geometry`.
   * options: {label: accessible name, interactive: whether cells take clicks}
   */
  constructor(container, geometry, options = {}) {
    this.container = container;
    this.interactive = Boolean(options.interactive);
    this.position = { turn: "white", pieces: new Map() };
    this.marks = {};
    this.coordinates = options.coordinates ?? "numbers";
    /** Called with (square, "click"|"drop"). */
    this.onSquare = null;
    /** Called with (square) on pointer down: true when the piece there may be dragged. */
    this.canDrag = null;
    /** Called with (square) when a drag really starts (the pointer moved). */
    this.onDragStart = null;
    this.drag = null;

    if ((geometry.players || 2) >= 6) geometry = opened(geometry);
    this.geometry = geometry;
    this.outlines = [...geometry.cells.map((cell) => cell.polygon), ...(geometry.background || [])];
    const xs = this.outlines.flat().map(([x]) => x);
    const ys = this.outlines.flat().map(([, y]) => y);
    this.centre = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
    this.angle = 0;
    // The side of a cell: 1 on square boards, about that on the others.
    const areas = geometry.cells.map((cell) => area(cell.polygon));
    this.unit = Math.sqrt(areas.reduce((a, b) => a + b, 0) / (areas.length || 1)) || 1;
    this.cells = new Map(geometry.cells.map((cell) => [String(cell.name), cell]));

    this.root = svg("svg", {
      class: geometry.players > 2 ? "board shaped" : "board",
      role: "group",
      "aria-label": options.label || t("Board"),
    });
    // A style property, not a style attribute: the Content-Security-Policy blocks those.
    this.root.style.setProperty("--unit", `${this.unit}px`);
    this.layers = {};
    for (const name of ["squares", "cells", "marks", "names", "pieces", "overlay", "dragging"]) {
      this.layers[name] = svg("g", { class: `layer-${name}` });
      this.root.append(this.layers[name]);
    }
    container.replaceChildren(this.root);
    if (this.interactive) this.listen();
    this.render();
  }

  /** A board point as drawn: turned clockwise by `angle` degrees about the centre. */
  point([x, y]) {
    if (!this.angle) return [x, y];
    const [cx, cy] = this.centre;
    const radians = (this.angle * Math.PI) / 180;
    const [cos, sin] = [Math.cos(radians), Math.sin(radians)];
    return [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos];
  }

  /** The view box around the board as turned. */
  fitView() {
    const points = this.outlines.flat().map((p) => this.point(p));
    const xs = points.map(([x]) => x);
    const ys = points.map(([, y]) => y);
    [this.minX, this.minY, this.maxX, this.maxY] = [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
    // A board that is not a rectangle has no frame: leave room for the pieces on its edge.
    const margin = this.geometry.players > 2 ? this.unit * 0.25 : 0;
    [this.minX, this.minY, this.maxX, this.maxY] = [this.minX - margin, this.minY - margin, this.maxX + margin, this.maxY + margin];
    this.root.setAttribute("viewBox", `${this.minX} ${this.minY} ${this.maxX - this.minX} ${this.maxY - this.minY}`);
  }


  polygonOf(cell) {
    return cell.polygon.map((p) => this.point(p));
  }

  centerOf(name) {
    const cell = this.cells.get(name);
    return cell ? centroid(this.polygonOf(cell)) : null;
  }

  /** Turn the board: 0 White at the bottom, 180 Black, a seat's angle on other boards. */
  setAngle(angle) {
    this.angle = ((Number(angle) || 0) % 360 + 360) % 360;
    this.render();
  }

  /** "numbers", "edges" or "none" (see the top of this file). */
  setCoordinates(mode) {
    this.coordinates = mode;
    this.renderSquares();
  }

  /** Whether the board has rows and columns (so that edges can be lettered). */
  rectangular() {
    return this.geometry.cells.every((cell) => cell.row !== null && cell.row !== undefined && cell.column !== null && cell.column !== undefined);
  }

  setPosition(position) {
    this.position = position;
    this.renderPieces();
    this.renderAccess();
  }

  /** marks: {selected, path: [], next: Set, finals: Set, mustCapture: Set, movable: Set,
   *  lastMove: [squares], arrow: [squares] (a suggested move's path), trail: [squares] (a
   *  capture's path as a line), captured: [squares] (crossed out), premove: [squares]} */
  setMarks(marks) {
    this.marks = marks || {};
    this.renderMarks();
    this.renderAccess();
  }

  render() {
    this.cancelDrag();
    this.fitView();
    this.renderSquares();
    this.renderMarks();
    this.renderPieces();
    this.renderAccess();
  }

  renderSquares() {
    const { geometry, unit } = this;
    const squares = this.layers.squares;
    const cells = this.layers.cells;
    const names = this.layers.names;
    squares.replaceChildren();
    cells.replaceChildren();
    names.replaceChildren();
    for (const outline of geometry.background || []) {
      const polygon = outline.map((p) => this.point(p));
      squares.append(svg("polygon", { points: polygon.map(([x, y]) => `${x},${y}`).join(" "), class: "light" }));
    }
    const chequered = !(geometry.background || []).length;
    for (const cell of geometry.cells) {
      const polygon = this.polygonOf(cell);
      const name = String(cell.name);
      const shade = chequered ? SHADES[cell.shade ?? 1] : "dark";
      const shape = svg("polygon", {
        points: polygon.map(([x, y]) => `${x},${y}`).join(" "),
        class: `cell ${shade}`,
        "data-square": name,
      });
      cells.append(shape);
      if (this.coordinates === "numbers" || (this.coordinates === "edges" && !this.rectangular())) {
        const left = Math.min(...polygon.map((p) => p[0]));
        const top = Math.min(...polygon.map((p) => p[1]));
        const label = svg("text", {
          x: left + unit * 0.06,
          y: top + unit * 0.2,
          class: `square-name on-${shade}`,
          "font-size": unit * 0.18,
          "aria-hidden": "true",
        });
        label.textContent = name;
        names.append(label);
      }
    }
    if (this.coordinates === "edges" && this.rectangular()) this.renderEdges();
  }

  /** Letters along the bottom edge and numbers along the left edge, as the board is seen
   *  (row 0 is the top row: rank `height`; column 0 is file a). */
  renderEdges() {
    const { geometry, unit } = this;
    const columns = new Map();
    const rows = new Map();
    for (const cell of geometry.cells) {
      const [x, y] = centroid(cell.polygon);
      columns.set(cell.column, x);
      rows.set(cell.row, y);
    }
    const xs = this.outlines.flat().map(([x]) => x);
    const ys = this.outlines.flat().map(([, y]) => y);
    const flipped = this.angle > 90 && this.angle < 270;
    const bottom = flipped ? Math.min(...ys) + unit * 0.1 : Math.max(...ys) - unit * 0.1;
    const left = flipped ? Math.max(...xs) - unit * 0.1 : Math.min(...xs) + unit * 0.1;
    const label = (point, text, cls) => {
      const [x, y] = this.point(point);
      const element = svg("text", { x, y, class: `edge-name ${cls}`, "font-size": unit * 0.2, "aria-hidden": "true" });
      element.textContent = text;
      this.layers.names.append(element);
    };
    for (const [column, x] of columns) label([x + unit * 0.3 * (flipped ? -1 : 1), bottom], letters(column), "file");
    const height = geometry.height || rows.size;
    for (const [row, y] of rows) label([left, y - unit * 0.28 * (flipped ? -1 : 1)], String(height - row), "rank");
  }

  cellShape(name) {
    return this.layers.cells.querySelector(`[data-square="${CSS.escape(name)}"]`);
  }

  renderMarks() {
    const { unit } = this;
    const layer = this.layers.marks;
    const overlay = this.layers.overlay;
    layer.replaceChildren();
    overlay.replaceChildren();
    const marks = this.marks;
    const paint = (squares, cls) => {
      for (const name of squares || []) {
        const cell = this.cells.get(name);
        if (!cell) continue;
        layer.append(
          svg("polygon", {
            points: this.polygonOf(cell).map(([x, y]) => `${x},${y}`).join(" "),
            class: cls,
          }),
        );
      }
    };
    paint(marks.lastMove, "mark-last");
    paint(marks.path, "mark-path");
    paint(marks.premove, "mark-premove");
    if (marks.selected) paint([marks.selected], "mark-selected");
    const targets = new Set([...(marks.next || []), ...(marks.finals || [])]);
    for (const name of targets) {
      const center = this.centerOf(name);
      if (!center) continue;
      overlay.append(
        svg("circle", {
          cx: center[0],
          cy: center[1],
          r: unit * (marks.finals?.has(name) ? 0.17 : 0.11),
          class: marks.finals?.has(name) ? "mark-target final" : "mark-target",
        }),
      );
    }
    if (marks.arrow?.length > 1) overlay.append(this.arrow(marks.arrow));
    if (marks.trail?.length > 1) overlay.append(this.trail(marks.trail));
    for (const name of marks.captured || []) {
      const center = this.centerOf(name);
      if (!center) continue;
      const d = unit * 0.22;
      const [x, y] = center;
      overlay.append(
        svg("path", {
          d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`,
          class: "mark-taken",
          "data-square": null,
          "data-taken": name,
          "stroke-width": unit * 0.08,
        }),
      );
    }
    for (const name of marks.mustCapture || []) {
      const center = this.centerOf(name);
      if (!center) continue;
      overlay.append(
        svg("circle", { cx: center[0], cy: center[1], r: unit * 0.44, class: "mark-capture" }),
      );
    }
    for (const shape of this.layers.cells.children) {
      const name = shape.dataset.square;
      shape.classList.toggle("movable", Boolean(marks.movable?.has(name)));
      shape.classList.toggle("target", targets.has(name));
      shape.classList.toggle("selected", marks.selected === name);
      shape.classList.toggle("must-capture", Boolean(marks.mustCapture?.has(name)));
    }
  }

  /** A line through the centres of `squares`: a capture's landing squares in order. */
  trail(squares) {
    const points = squares.map((name) => this.centerOf(name)).filter(Boolean);
    const line = svg("polyline", {
      points: points.map(([x, y]) => `${x},${y}`).join(" "),
      class: "mark-trail",
      "data-path": squares.join("-"),
      "stroke-width": this.unit * 0.07,
    });
    return line;
  }

  /** An arrow along the centres of `squares` (a move's path), for a suggested move. */
  arrow(squares) {
    const { unit } = this;
    const points = squares.map((name) => this.centerOf(name)).filter(Boolean);
    const group = svg("g", { class: "mark-arrow", "data-path": squares.join("-") });
    if (points.length < 2) return group;
    const [tx, ty] = points[points.length - 1];
    const [px, py] = points[points.length - 2];
    const length = Math.hypot(tx - px, ty - py) || 1;
    const [dx, dy] = [(tx - px) / length, (ty - py) / length];
    const head = unit * 0.3;
    const [bx, by] = [tx - dx * head, ty - dy * head];
    const line = [...points.slice(0, -1), [bx, by]];
    group.append(
      svg("polyline", {
        points: line.map(([x, y]) => `${x},${y}`).join(" "),
        class: "mark-arrow-line",
        "stroke-width": unit * 0.12,
      }),
    );
    const side = head * 0.6;
    group.append(
      svg("polygon", {
        points: [
          [tx, ty],
          [bx - dy * side, by + dx * side],
          [bx + dy * side, by - dx * side],
        ]
          .map(([x, y]) => `${x},${y}`)
          .join(" "),
        class: "mark-arrow-head",
      }),
    );
    return group;
  }

  /** The size a piece may take on a cell: the board's unit, less on the narrow cells of a
   *  radial board (twice the cell's inner radius, area / half-perimeter: 1 on a square). */
  sizeOf(name) {
    const cell = this.cells.get(name);
    if (!cell) return this.unit;
    const perimeter = cell.polygon.reduce((sum, [x, y], i) => {
      const [nx, ny] = cell.polygon[(i + 1) % cell.polygon.length];
      return sum + Math.hypot(nx - x, ny - y);
    }, 0);
    return Math.min(this.unit, (4 * area(cell.polygon)) / perimeter);
  }

  pieceElement(name, piece, center) {
    const unit = this.sizeOf(name);
    const group = svg("g", {
      class: `piece ${piece.color}${piece.king ? " king" : ""}`,
      "data-square": name,
      "data-color": piece.color,
      "data-king": piece.king ? "true" : "false",
      transform: `translate(${center[0]} ${center[1]})`,
    });
    const r = unit * 0.38;
    group.append(svg("circle", { r, class: "piece-body", "stroke-width": unit * 0.035 }));
    group.append(svg("circle", { r: r * 0.72, class: "piece-rim", "stroke-width": unit * 0.02 }));
    if (piece.king) {
      const s = r * 0.55;
      const crown = [
        [-s, s * 0.5],
        [-s, -s * 0.45],
        [-s * 0.5, 0],
        [0, -s * 0.7],
        [s * 0.5, 0],
        [s, -s * 0.45],
        [s, s * 0.5],
      ];
      group.append(
        svg("polygon", {
          points: crown.map(([x, y]) => `${x},${y}`).join(" "),
          class: "piece-crown",
          "stroke-width": unit * 0.02,
        }),
      );
    }
    return group;
  }

  renderPieces() {
    this.cancelDrag();
    const layer = this.layers.pieces;
    layer.replaceChildren();
    for (const [name, piece] of this.position.pieces) {
      const center = this.centerOf(name);
      if (center) layer.append(this.pieceElement(name, piece, center));
    }
  }

  /** Keyboard and screen reader access: actionable cells are buttons in the tab order. */
  renderAccess() {
    if (!this.interactive) return;
    const marks = this.marks;
    const targets = new Set([...(marks.next || []), ...(marks.finals || [])]);
    for (const shape of this.layers.cells.children) {
      const name = shape.dataset.square;
      const piece = this.position.pieces.get(name);
      const color = piece ? colorName(piece.color).toLowerCase() : "";
      const what = piece ? (piece.king ? t("{color} king", { color }) : t("{color} man", { color })) : t("empty");
      let label = `${name}, ${what}`;
      if (marks.selected === name) label += `, ${t("selected")}`;
      if (targets.has(name)) label += `, ${t("move here")}`;
      else if (marks.mustCapture?.has(name)) label += `, ${t("must capture")}`;
      const actionable = marks.movable?.has(name) || targets.has(name);
      shape.setAttribute("aria-label", label);
      if (actionable) {
        shape.setAttribute("tabindex", "0");
        shape.setAttribute("role", "button");
      } else {
        shape.removeAttribute("tabindex");
        shape.removeAttribute("role");
      }
    }
  }

  // --- pointer and keyboard input -------------------------------------------------------

  listen() {
    const root = this.root;
    root.addEventListener("pointerdown", (event) => this.pointerDown(event));
    root.addEventListener("pointermove", (event) => this.pointerMove(event));
    root.addEventListener("pointerup", (event) => this.pointerUp(event));
    root.addEventListener("pointercancel", () => this.cancelDrag());
    root.addEventListener("keydown", (event) => {
      const name = event.target?.dataset?.square;
      if (!name || (event.key !== "Enter" && event.key !== " ")) return;
      event.preventDefault();
      this.onSquare?.(name, "click");
      // Keep the focus on the same square after the re-render.
      this.cellShape(name)?.focus();
    });
  }

  squareAt(clientX, clientY) {
    const element = document.elementFromPoint(clientX, clientY);
    const cell = element?.closest?.("[data-square]");
    if (!cell || !this.root.contains(cell)) return null;
    return cell.dataset.square;
  }

  svgPoint(event) {
    const matrix = this.root.getScreenCTM();
    if (!matrix) return [0, 0];
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return [point.x, point.y];
  }

  pointerDown(event) {
    if (event.button !== undefined && event.button !== 0) return;
    const name = event.target?.closest?.("[data-square]")?.dataset.square;
    if (!name) return;
    this.press = { name, x: event.clientX, y: event.clientY, id: event.pointerId };
    if (this.canDrag?.(name)) {
      try {
        this.root.setPointerCapture(event.pointerId);
      } catch {
        /* pointer capture is a nicety */
      }
      event.preventDefault();
    }
  }

  pointerMove(event) {
    const press = this.press;
    if (!press || press.id !== event.pointerId) return;
    if (!this.drag) {
      const moved = Math.hypot(event.clientX - press.x, event.clientY - press.y);
      const box = this.root.getBoundingClientRect();
      const cellPixels = (box.width / (this.maxX - this.minX)) * this.unit;
      if (moved < Math.max(4, cellPixels * 0.2) || !this.canDrag?.(press.name)) return;
      const piece = this.layers.pieces.querySelector(`[data-square="${CSS.escape(press.name)}"]`);
      if (!piece) return;
      this.onDragStart?.(press.name);
      // onDragStart re-renders marks; the piece element is still the same.
      this.layers.dragging.append(piece);
      piece.classList.add("is-dragging");
      this.drag = { name: press.name, piece };
    }
    const [x, y] = this.svgPoint(event);
    this.drag.piece.setAttribute("transform", `translate(${x} ${y})`);
  }

  pointerUp(event) {
    const press = this.press;
    this.press = null;
    if (!press || press.id !== event.pointerId) return;
    if (this.drag) {
      const target = this.squareAt(event.clientX, event.clientY);
      const from = this.drag.name;
      this.cancelDrag();
      this.renderPieces();
      if (target && target !== from) this.onSquare?.(target, "drop");
      return;
    }
    const name = this.squareAt(event.clientX, event.clientY) || press.name;
    this.onSquare?.(name, "click");
  }

  cancelDrag() {
    if (!this.drag) return;
    const { piece, name } = this.drag;
    this.drag = null;
    piece.classList.remove("is-dragging");
    const center = this.centerOf(name);
    if (center) piece.setAttribute("transform", `translate(${center[0]} ${center[1]})`);
    this.layers.pieces.append(piece);
  }
}
