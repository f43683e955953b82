// The engine's review of a finished game (GET /api/games/{id}/review): an evaluation graph
// in SVG over the moves, the class of every move, and the engine's best move of the shown
// position. The server answers 202 with its progress while it computes the review, then
// 200 with the review; the panel asks again every second until it has it. Under the graph,
// each shot a player missed (the puzzle finder confirmed it) has its "Find the shot" link:
// the trainer opens on the position before the move (/puzzles/{variant}?shot={id}).
import { N_, t, tn } from "./i18n.js";
import { ApiError, h } from "./api.js";

const SVG = "http://www.w3.org/2000/svg";
const CAP = 600; // the graph shows scores up to ±6 men; mates sit on the edges
const WIDTH = 300;
const HEIGHT = 90;
const JUDGEMENTS = { good: N_("good"), inaccuracy: N_("inaccuracy"), mistake: N_("mistake"), blunder: N_("blunder") };
const judgementText = (judgement) => t(JUDGEMENTS[judgement] || judgement);
const SYMBOLS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const MISSED = {
  white: N_("White missed a winning shot and played {move}."),
  black: N_("Black missed a winning shot and played {move}."),
};

function svg(tag, attributes = {}) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}

/** "+0.35", "−1.90", "#5" (White mates in 5 plies), "#-3", "1-0"-like ends as "#0". */
export function scoreText(position) {
  if (!position) return "";
  if (position.mate !== null && position.mate !== undefined) {
    if (position.mate === 0) return position.score > 0 ? t("White won") : t("Black won");
    return position.mate > 0 ? `#${position.mate}` : `#−${-position.mate}`;
  }
  const men = position.score / 100;
  return `${men > 0 ? "+" : men < 0 ? "−" : ""}${Math.abs(men).toFixed(2)}`;
}

export async function fetchReview(gameId) {
  const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/review`, {
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data?.detail || response.statusText);
  return { status: response.status, data };
}

export class ReviewPanel {
  /**
   * elements: {section, start, progress, graph, summary}; onSelect(ply) shows a position;
   * onReady(review) is called once the review has come.
   */
  constructor(elements, { onSelect, onReady, onError }) {
    this.elements = elements;
    this.onSelect = onSelect;
    this.onReady = onReady;
    this.onError = onError;
    this.gameId = null;
    this.review = null;
    this.timer = null;
    this.selected = null;
    elements.start.addEventListener("click", () => this.start());
  }

  /** Shows the panel for a finished game (hidden otherwise). */
  show(gameId, finished) {
    this.elements.section.hidden = !finished;
    if (this.gameId !== gameId) {
      this.gameId = gameId;
      this.review = null;
      this.elements.graph.replaceChildren();
      this.elements.summary.textContent = "";
      this.elements.start.hidden = false;
    }
  }

  async start() {
    if (!this.gameId || this.review) return;
    this.elements.start.hidden = true;
    this.elements.progress.hidden = false;
    this.elements.progress.textContent = t("The engine is reviewing the game…");
    await this.poll();
  }

  async poll() {
    clearTimeout(this.timer);
    try {
      const { status, data } = await fetchReview(this.gameId);
      if (status === 202) {
        const { done, total } = data;
        this.elements.progress.textContent = t("The engine is reviewing the game… {done}/{total} positions", { done, total });
        this.elements.progress.dataset.done = String(done);
        this.timer = setTimeout(() => this.poll(), 1000);
        return;
      }
      this.review = data;
      this.elements.progress.hidden = true;
      this.render();
      this.onReady?.(data);
    } catch (error) {
      this.elements.progress.hidden = true;
      this.elements.start.hidden = false;
      this.onError?.(error);
    }
  }

  /** The judgement of the move that led to position `ply` (null for the start). */
  moveAt(ply) {
    return this.review?.moves?.[ply - 1] ?? null;
  }

  positionAt(ply) {
    return this.review?.positions?.[ply] ?? null;
  }

  symbol(ply) {
    return SYMBOLS[this.moveAt(ply)?.judgement] || "";
  }

  /** The engine's best move (a MoveView) in position `ply`, for the board's arrow. */
  bestMove(ply) {
    return this.positionAt(ply)?.best ?? null;
  }

  select(ply) {
    this.selected = ply;
    if (!this.review) return;
    for (const dot of this.elements.graph.querySelectorAll("[data-ply]")) {
      dot.classList.toggle("selected", Number(dot.dataset.ply) === ply);
    }
    const position = this.positionAt(ply);
    const move = this.moveAt(ply);
    const parts = [];
    if (move) {
      let text = `${move.notation}: ${judgementText(move.judgement)}`;
      if (move.loss > 0) text += ` (−${(move.loss / 100).toFixed(2)})`;
      if (move.forced) text += ` ${t("(forced)")}`;
      else if (move.best && move.best !== move.notation) text += `; ${t("the engine prefers {move}", { move: move.best })}`;
      parts.push(text);
    }
    if (position) {
      parts.push(t("Evaluation {score}", { score: scoreText(position) }));
      if (position.best) parts.push(t("best move {move}", { move: position.best.notation }));
    }
    this.elements.summary.textContent = parts.join(" · ");
  }

  render() {
    const review = this.review;
    const positions = review.positions;
    const count = Math.max(1, positions.length - 1);
    const x = (ply) => (ply / count) * WIDTH;
    const y = (score) => HEIGHT / 2 - (Math.max(-CAP, Math.min(CAP, score)) / CAP) * (HEIGHT / 2 - 4);
    const root = svg("svg", {
      class: "eval-graph",
      viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
      preserveAspectRatio: "none",
      role: "img",
      "aria-label": tn("Evaluation graph over {n} position (White above the line)", "Evaluation graph over {n} positions (White above the line)", positions.length),
    });
    root.append(svg("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "eval-black" }));
    const points = positions.map((p) => `${x(p.ply)},${y(p.score)}`);
    root.append(
      svg("polygon", {
        points: [`0,${HEIGHT}`, ...points, `${x(positions[positions.length - 1].ply)},${HEIGHT}`].join(" "),
        class: "eval-white",
      }),
    );
    root.append(svg("line", { x1: 0, y1: HEIGHT / 2, x2: WIDTH, y2: HEIGHT / 2, class: "eval-zero" }));
    root.append(svg("polyline", { points: points.join(" "), class: "eval-line" }));
    const slot = WIDTH / count;
    for (const position of positions) {
      const judgement = this.moveAt(position.ply)?.judgement || "good";
      const group = svg("g", { class: `eval-point ${judgement}`, "data-ply": position.ply });
      const hit = svg("rect", {
        x: x(position.ply) - slot / 2,
        y: 0,
        width: slot,
        height: HEIGHT,
        class: "eval-hit",
      });
      const title = svg("title");
      const move = this.moveAt(position.ply);
      const start = t("Start");
      title.textContent = `${move ? `${move.notation} (${judgementText(move.judgement)})` : start}: ${scoreText(position)}`;
      hit.append(title);
      group.append(hit);
      if (judgement !== "good") {
        group.append(svg("circle", { cx: x(position.ply), cy: y(position.score), r: 3.2, class: "eval-dot" }));
      }
      group.addEventListener("click", () => this.onSelect?.(position.ply));
      root.append(group);
    }
    const counts = { inaccuracy: 0, mistake: 0, blunder: 0 };
    for (const move of review.moves) if (move.judgement in counts) counts[move.judgement] += 1;
    const legend = h(
      "p",
      { class: "muted review-legend" },
      t("Blunders {blunders} · mistakes {mistakes} · inaccuracies {inaccuracies} · {seconds}s per position", {
        blunders: counts.blunder,
        mistakes: counts.mistake,
        inaccuracies: counts.inaccuracy,
        seconds: review.seconds,
      }),
    );
    this.elements.graph.replaceChildren(root, legend, ...this.shotList(review));
    this.select(this.selected ?? positions.length - 1);
  }

  /** The missed shots (none or a list), each with its link to the trainer. */
  shotList(review) {
    const shots = review.shots || [];
    if (!shots.length) return [];
    const items = shots.map((shot) =>
      h(
        "li",
        { "data-ply": shot.ply },
        t(MISSED[shot.color] || MISSED.white, { move: shot.played }),
        " ",
        h(
          "a",
          { class: "button find-shot", href: `/puzzles/${encodeURIComponent(shot.variant)}?shot=${encodeURIComponent(shot.id)}` },
          t("Find the shot"),
        ),
      ),
    );
    return [h("ul", { class: "review-shots", "aria-label": t("Missed shots") }, items)];
  }
}
