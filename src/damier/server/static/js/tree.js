// The analysis board's tree of variations: every position studied, each node a move (the
// root is the start position), its children the moves tried after it, the first child the
// main line. No rules here: the server gives each move's path and position.

let counter = 0;

export class TreeNode {
  constructor(parent, move = null) {
    this.id = `n${(counter += 1)}`;
    this.parent = parent;
    /** {notation, path, captured, fen} (fen: the position after the move); null at the root. */
    this.move = move;
    this.fen = move ? move.fen : null;
    this.comments = [];
    this.nags = [];
    this.children = [];
    /** The server's view of this position (legal moves, result), fetched when needed. */
    this.view = null;
  }

  get ply() {
    return this.parent ? this.parent.ply + 1 : 0;
  }
}

export class Tree {
  constructor(fen) {
    this.root = new TreeNode(null);
    this.root.fen = fen;
    this.tags = {};
    this.comment = "";
    this.result = "*";
    this.nodes = new Map([[this.root.id, this.root]]);
  }

  get(id) {
    return this.nodes.get(id) ?? null;
  }

  /** The child of `parent` for `move`: the existing one with that notation, else a new last
   *  child (a side line, or the main line when it is the first). */
  add(parent, move) {
    const existing = parent.children.find((child) => child.move.notation === move.notation);
    if (existing) return existing;
    const node = new TreeNode(parent, move);
    parent.children.push(node);
    this.nodes.set(node.id, node);
    return node;
  }

  /** The nodes from the root's first move to `node`. */
  line(node) {
    const nodes = [];
    for (let at = node; at && at.parent; at = at.parent) nodes.push(at);
    return nodes.reverse();
  }

  notations(node) {
    return this.line(node).map((n) => n.move.notation);
  }

  /** The main line on from `node` (first children), `node` excluded. */
  continuation(node) {
    const nodes = [];
    for (let at = node.children[0]; at; at = at.children[0]) nodes.push(at);
    return nodes;
  }

  /** Make the line to `node` the main line: at every fork on the way it becomes the first
   *  child. */
  promote(node) {
    for (let at = node; at.parent; at = at.parent) {
      const siblings = at.parent.children;
      siblings.splice(siblings.indexOf(at), 1);
      siblings.unshift(at);
    }
  }

  /** Remove `node` and everything after it; its parent. */
  remove(node) {
    if (!node.parent) return node;
    const siblings = node.parent.children;
    siblings.splice(siblings.indexOf(node), 1);
    const forget = (n) => {
      this.nodes.delete(n.id);
      n.children.forEach(forget);
    };
    forget(node);
    return node.parent;
  }

  /** The tree from the server's PDN reading (POST /api/analysis/pdn): moves in lines, each
   *  with the lines played instead of it. */
  static fromPdn(data) {
    const tree = new Tree(data.fen);
    tree.tags = { ...(data.tags || {}) };
    tree.comment = data.comment || "";
    tree.result = data.result || "*";
    const grow = (parent, moves) => {
      let at = parent;
      for (const move of moves) {
        const node = tree.add(at, {
          notation: move.notation,
          path: move.path,
          captured: move.captured,
          fen: move.fen,
        });
        node.comments = [...(move.comments || [])];
        node.nags = [...(move.nags || [])];
        for (const variation of move.variations || []) grow(at, variation);
        at = node;
      }
    };
    grow(tree.root, data.moves || []);
    return tree;
  }

  /** The tree as POST /api/analysis/pdn/export takes it. */
  toPdn(variant) {
    const line = (first) => {
      const moves = [];
      for (let at = first; at; at = at.children[0]) {
        const siblings = at.parent.children;
        moves.push({
          notation: at.move.notation,
          comments: at.comments,
          nags: at.nags,
          variations: at === siblings[0] ? siblings.slice(1).map(line) : [],
        });
      }
      return moves;
    };
    return {
      variant,
      fen: this.root.fen,
      tags: this.tags,
      comment: this.comment,
      result: this.result,
      moves: this.root.children.length ? line(this.root.children[0]) : [],
    };
  }
}
