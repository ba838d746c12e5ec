// The analysis board's controller, apart from its views as the game page keeps GamePlay apart
// from its board: the study as the server last sent it, each position asked for (kept while its
// node is in the study), the node shown, the board's own look (a selected piece, a tile's
// orientation), and what a step, a move, a promotion, a deletion or a comment does to them. It
// builds no DOM: the page (analysis/page.js) gives it `render` and is called through it, one
// drawing at a time, whenever the study or the node shown changed.
import { api } from "../api.js";

export class StudyBoard {
  constructor(study, node = 0) {
    this.positions = new Map(); // node id -> the position as the server sent it (nodes/{n})
    this.setStudy(study);
    this.node = this.nodes.has(node) ? node : 0;
    this.look = { selected: null, view: {} };
    this.render = async () => {};
    this.moved = () => {}; // told the node shown after each change (the page keeps it in the address)
    // Drawings are queued one at a time so a slower, older drawing never lands on a newer one;
    // once the page is left nothing still queued runs.
    this.drawing = Promise.resolve();
    this.left = false;
  }

  // A study as the server sent it: its nodes by id; positions of nodes no longer in it dropped
  // (a deleted branch's ids are never shown again).
  setStudy(study) {
    this.study = study;
    this.nodes = new Map(study.nodes.map((n) => [n.id, n]));
    for (const id of this.positions.keys()) if (!this.nodes.has(id)) this.positions.delete(id);
  }

  get id() { return this.study.id; }

  get yours() { return !!this.study.yours; }

  queue(fn) {
    this.drawing = this.drawing.then(() => (this.left ? undefined : fn())).catch((e) => console.error(e));
    return this.drawing;
  }

  redraw() { return this.queue(() => this.render()); }

  // The nodes from the first position to `id`, both included.
  path(id = this.node) {
    const out = [];
    for (let at = this.nodes.get(id); at; at = at.parent === null ? null : this.nodes.get(at.parent)) out.unshift(at);
    return out;
  }

  // The position of node `id`, asked for once.
  async position(id = this.node) {
    if (!this.positions.has(id)) this.positions.set(id, await api(`/api/analysis/${this.id}/nodes/${id}`));
    return this.positions.get(id);
  }

  // Show node `id` (a selection on the board is dropped; a tile's orientation kept).
  go(id) {
    if (!this.nodes.has(id)) return this.drawing;
    this.node = id;
    this.look = { selected: null, view: { orient: this.look.view.orient } };
    this.moved(id);
    return this.redraw();
  }

  first() { return this.go(0); }

  back() { return this.go(this.nodes.get(this.node).parent ?? this.node); }

  forward() { return this.go(this.nodes.get(this.node).children[0] ?? this.node); }

  // The end of the line the node shown is on: its first children to the last.
  last() {
    let at = this.nodes.get(this.node);
    while (at.children.length) at = this.nodes.get(at.children[0]);
    return this.go(at.id);
  }

  // A move from the node shown (a legal move's id, or {draw: true} at a chance node): a new
  // branch, or the one already there (the server answers `new` false); then it is shown.
  async play(move) {
    const body = typeof move === "object" ? move : { move };
    const answer = await api(`/api/analysis/${this.id}/nodes/${this.node}/moves`, { method: "POST", body });
    this.setStudy(answer.study);
    await this.go(answer.node);
    return answer;
  }

  // A line of moves in notation (an engine line's continuation) from the node shown, each added
  // where it is not in the tree yet; the last one reached is shown.
  async playLine(moves) {
    let at = this.node;
    for (const move of moves) {
      const answer = await api(`/api/analysis/${this.id}/nodes/${at}/moves`, { method: "POST", body: { move } });
      this.setStudy(answer.study);
      at = answer.node;
    }
    return this.go(at);
  }

  // The node shown becomes its parent's first line (`mainline`: and so does every node above it).
  async promote(mainline = false) {
    this.setStudy(await api(`/api/analysis/${this.id}/nodes/${this.node}/promote`, { method: "POST", body: { mainline } }));
    return this.redraw();
  }

  // The node shown and everything after it; its parent is shown then.
  async remove() {
    const parent = this.nodes.get(this.node).parent;
    const answer = await api(`/api/analysis/${this.id}/nodes/${this.node}`, { method: "DELETE" });
    this.setStudy(answer.study);
    return this.go(parent);
  }

  // The node shown's comment (empty: none).
  async comment(text) {
    const said = text.trim() ? text : null;
    const position = await api(`/api/analysis/${this.id}/nodes/${this.node}/comment`, { method: "PUT", body: { comment: said } });
    this.positions.set(this.node, position);
    this.nodes.get(this.node).comment = position.comment;
    return this.redraw();
  }

  // The engine's lines at the node shown, at `level`; kept on its position, as the server keeps
  // them, so going back there shows them again.
  async lines(level, k = 3) {
    const node = this.node;
    const found = await api(`/api/analysis/${this.id}/nodes/${node}/lines`, { method: "POST", body: { level, k } });
    const position = this.positions.get(node);
    if (position) position.lines = { ...position.lines, [level]: found };
    return found;
  }

  // A copy of the study of the visitor's own: its id.
  async fork() {
    return (await api(`/api/analysis/${this.id}/fork`, { method: "POST", body: {} })).id;
  }

  // A board's own control (e.g. rotate a tile) changed its view state.
  changeView(change) {
    this.look.view = { ...this.look.view, ...change };
    return this.redraw();
  }

  // A piece or tile picked on the board (again: put down).
  select(key) {
    this.look.selected = this.look.selected === key ? null : key;
    return this.redraw();
  }

  unselect() {
    if (!this.look.selected) return this.drawing;
    this.look.selected = null;
    return this.redraw();
  }

  // A key the board module handles while something is selected (e.g. R rotates a tile).
  key(key, mod) {
    const next = this.look.selected && mod?.onKey?.(key, this.look.view);
    if (next) { this.look.view = next; this.redraw(); }
    return !!next;
  }

  leave() { this.left = true; }
}
