// The review of a finished game (game and replay pages): a button that starts the server's
// review job, its progress, then the reviewed seat's win chance over the game as an inline SVG
// chart and the mistakes and blunders as a list; clicking a flagged move (in the list or on the
// chart) jumps the board to the position it was played in, through `jump(number of moves to
// show, struct of the better move to mark there)`. Where the rules ended the game, the list ends
// with how (the final move's `struct.ends`, as the game page says it); clicking it jumps to the
// final position, where the board draws the ending's marks.
import { h, s, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { t, words, say, seatName, resultWords } from "../text.js";

const POLL_MS = 1000;
const W = 420;
const H = 170;
const PAD = { left: 46, right: 10, top: 12, bottom: 22 };
const COLOURS = { blunder: "#c0392b", mistake: "#e08a1e" };

const pct = (p) => `${Math.round(p * 100)}%`;

// `seats`: [{seat, name}]; `seat`: the seat offered first; `token`: the viewer's, if any;
// `ending`: the final move's `struct.ends` (null when the game was resigned or agreed) and
// `names` the seat names it is said with; `people`, whom each seat name stands for in its
// words (results.js, seatPeople).
export function reviewPanel({ id, seats, seat = 0, token = null, jump, ending = null, names = [], people = {} }) {
  const choice = h("select", { id: "review-seat", "aria-label": t("review.seat") },
    seats.map((st) => h("option", { value: st.seat, selected: st.seat === seat }, st.name)));
  const start = h("button", { id: "review-start", class: "primary" }, t("review.start"));
  const progress = h("div", { id: "review-progress", class: "muted", "aria-live": "polite" });
  const result = h("div", { id: "review-result" });
  const panel = h("div", { class: "panel review", id: "review" },
    h("h3", {}, t("review.title")),
    h("p", { class: "muted" }, t("review.about")),
    h("div", { class: "review-controls" }, seats.length > 1 ? h("label", {}, t("review.seat"), " ", choice) : "", start),
    progress, result);

  let chosen = null; // the flagged ply shown on the board, if any
  const show = (review) => {
    flagged = review.flagged;
    start.disabled = false;
    clear(progress);
    clear(result).append(chart(review, (ply) => pick(ply)), summary(review), flaggedList(review, (ply) => pick(ply)),
      ending?.say ? endingItem(review.plies, ending, names, people, () => pick(review.plies)) : "");
    panel.dataset.state = "done";
  };
  let flagged = [];
  const pick = (ply) => {
    chosen = ply;
    for (const el of panel.querySelectorAll("[data-review-ply]")) el.classList.toggle("chosen", Number(el.dataset.reviewPly) === chosen);
    jump(ply, flagged.find((m) => m.ply === ply)?.best?.struct || null);
  };
  const report = (status) => {
    panel.dataset.state = status.state;
    if (status.state === "done") return show(status.review);
    if (status.state === "failed") { start.disabled = false; progress.textContent = status.error || t("review.failed"); return; }
    if (status.state === "running") {
      clear(progress).append(h("progress", { max: Math.max(1, status.total), value: status.done }), " ",
        t("review.progress", { done: status.done, total: status.total }));
      setTimeout(() => poll(status.seat), POLL_MS);
      return;
    }
    start.disabled = false; // "none": nothing runs (yet); the button can ask again
  };
  const poll = async (which) => {
    if (!panel.isConnected) return; // the page was left: stop asking
    try { report(await api(`/api/games/${id}/review?seat=${which}`, { token })); } catch (e) { start.disabled = false; showError(e.message); }
  };
  start.addEventListener("click", async () => {
    start.disabled = true;
    clear(result);
    progress.textContent = t("review.starting");
    try { report(await api(`/api/games/${id}/review`, { method: "POST", body: { seat: Number(choice.value) }, token })); } catch (e) { start.disabled = false; progress.textContent = ""; showError(e.message); }
  });
  return panel;
}

// The curve as an SVG line chart: x is the move number, y the win chance; 50% is dashed; each
// flagged move is a dot in its verdict's colour that can be clicked.
function chart(review, pick) {
  const plies = Math.max(1, review.plies);
  const x = (ply) => PAD.left + (ply / plies) * (W - PAD.left - PAD.right);
  const y = (p) => PAD.top + (1 - p) * (H - PAD.top - PAD.bottom);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, id: "review-chart", class: "review-chart", role: "group",
    "aria-label": t("review.chartLabel", { name: seatName(review.seat_name) }) });
  for (const p of [0, 0.5, 1]) {
    svg.append(s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p), stroke: "#d8d0c4", "stroke-dasharray": p === 0.5 ? "4 4" : "" }));
    svg.append(s("text", { x: PAD.left - 6, y: y(p), "text-anchor": "end", "dominant-baseline": "central", "font-size": 13, fill: "#6b6459" }, pct(p)));
  }
  svg.append(s("text", { x: W - PAD.right, y: H - 6, "text-anchor": "end", "font-size": 13, fill: "#6b6459" }, t("review.axis", { n: review.plies })));
  const points = review.curve.map((p) => `${x(p.ply).toFixed(1)},${y(p.win_probability).toFixed(1)}`).join(" ");
  svg.append(s("polyline", { points, fill: "none", stroke: "#2a7d5f", "stroke-width": 2.5, "stroke-linejoin": "round", class: "curve" }));
  for (const m of review.flagged) {
    const dot = s("circle", { cx: x(m.ply), cy: y(m.win_before), r: 7, fill: COLOURS[m.verdict], stroke: "#fff", "stroke-width": 2,
      class: `flag ${m.verdict}`, tabindex: 0, role: "button", "data-review-ply": m.ply, "aria-label": moveLine(m) });
    dot.append(s("title", {}, moveLine(m)));
    dot.addEventListener("click", () => pick(m.ply));
    dot.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(m.ply); } });
    svg.append(dot);
  }
  return svg;
}

function summary(review) {
  const c = review.summary;
  return h("p", { id: "review-summary" }, t("review.summary", {
    judged: c.judged, iterations: review.iterations, mistakes: c.mistakes, blunders: c.blunders,
    mistake: pct(review.thresholds.mistake), blunder: pct(review.thresholds.blunder),
  }));
}

// "Move 19 lost 61%": the head of a flagged move (its words follow on a line of their own).
function moveHead(m) {
  return t("review.lost", { n: m.ply + 1, loss: pct(m.loss) });
}

// Literal keys, so the message extractor finds both words.
const verdictWord = (m) => (m.verdict === "blunder" ? t("review.blunder") : t("review.mistake"));

function moveLine(m) {
  return t("review.flagLine", { verdict: verdictWord(m), head: moveHead(m), words: words(m) || m.move });
}

// How the rules ended the game, as the last entry: the result and where and why. Picking it
// shows the final position (after every move, so nothing is marked in its place but the ending).
function endingItem(plies, ending, names, people, pick) {
  const item = h("div", { class: "pickable review-ending", id: "review-ending", tabindex: 0, role: "button", "data-review-ply": plies },
    h("div", {}, h("strong", {}, t("review.ended", { n: plies })), " ", resultWords(ending, names, people)),
    h("div", { class: "ending-words" }, say(ending.say, "", people)));
  item.addEventListener("click", pick);
  item.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
  return item;
}

function flaggedList(review, pick) {
  if (!review.flagged.length) return h("p", { id: "review-none", class: "muted" }, t("review.none"));
  return h("ol", { class: "review-flagged", id: "review-flagged" }, review.flagged.map((m) => {
    const better = m.best ? t("review.better", { words: words(m.best) || m.best.move, chance: pct(m.best.win_probability) }) : "";
    const item = h("li", { class: `pickable ${m.verdict}`, tabindex: 0, role: "button", "data-review-ply": m.ply },
      h("div", {}, h("span", { class: `verdict ${m.verdict}` }, verdictWord(m)), " ", moveHead(m)),
      h("div", { class: "played" }, words(m) || m.move),
      better ? h("div", { class: "better" }, better) : "");
    item.addEventListener("click", () => pick(m.ply));
    item.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(m.ply); } });
    return item;
  }));
}
