// Montana's pieces drawn as SVG symbols (no emoji font needed): the six goods, the four worker
// colours and the wheel's wild symbol, silver, cattle, canteens, settlements and contractors,
// and one shape per seat so a seat is told by shape as well as by colour (Blue circle, Yellow
// triangle, Green square, Red diamond: common.js SEAT_CUES order, as in the seat lists). Each
// symbol becomes an image once (a data URL), shown as <image> in the SVG parts and as a span's
// background in the HTML parts.
import { s, h, SVG_NS } from "../dom.js";
import { t } from "../text.js";

export const GOODS = ["c", "C", "s", "S", "g", "p"];
export const WORKERS = ["Cu", "St", "Gr", "Pu"];
const WORKER_FILL = { Cu: "#a8521d", St: "#2b2b2b", Gr: "#f3dc6b", Pu: "#ef7f1a", W: "#ffffff" };
// The second cue of a worker's colour (issue 29): a mark on the meeple's chest, in white on the
// dark fills and black on the light ones, after the goods the colour works: crossed picks for
// copper (the mine), a slab for stone, an ear for grain, a ring for the pumpkin. Under
// red-green colour blindness copper and stone both look dark and grain and pumpkin both light;
// the marks still tell them apart.
const WORKER_MARK = {
  Cu: { cue: "picks", ink: "#fff", el: () => s("path", { d: "M7.1 8.6l5.8 5.8M12.9 8.6l-5.8 5.8", fill: "none", "stroke-width": 2, "stroke-linecap": "round" }) },
  St: { cue: "slab", ink: "#fff", el: () => s("rect", { x: 6.4, y: 9.8, width: 7.2, height: 3.4, rx: 0.6, stroke: "none" }) },
  Gr: { cue: "ear", ink: "#111", el: () => s("path", { d: "M10 15V10.6M10 12.4L7.3 9.3M10 12.4l2.7-3.1M10 10.6V7.9", fill: "none", "stroke-width": 1.8, "stroke-linecap": "round" }) },
  Pu: { cue: "ring", ink: "#111", el: () => s("circle", { cx: 10, cy: 11.5, r: 2.7, fill: "none", "stroke-width": 1.8 }) },
};
// The goods are told apart by their drawn shape (a nugget, a stone block, an ear of grain, a
// pumpkin; the large copper and stone bigger, with a lighter core), named here for the DOM.
const GOOD_CUE = { c: "nugget", C: "large-nugget", s: "block", S: "large-block", g: "ear", p: "pumpkin" };
// The cue of a symbol, written on every icon that shows it (data-cue) and on the drawn mark
// inside it, so a test can read both.
const CUES = {
  ...Object.fromEntries(Object.entries(WORKER_MARK).map(([key, m]) => [`mt-w-${key}`, m.cue])),
  ...Object.fromEntries(Object.entries(GOOD_CUE).map(([key, cue]) => [`mt-${key}`, cue])),
};

// The name of a piece, for labels and the legend (one t() call per key, so the message
// catalogue's extraction finds every one).
const NAMES = {
  c: () => t("montana.piece.c"),
  C: () => t("montana.piece.C"),
  s: () => t("montana.piece.s"),
  S: () => t("montana.piece.S"),
  g: () => t("montana.piece.g"),
  p: () => t("montana.piece.p"),
  Cu: () => t("montana.piece.Cu"),
  St: () => t("montana.piece.St"),
  Gr: () => t("montana.piece.Gr"),
  Pu: () => t("montana.piece.Pu"),
  W: () => t("montana.piece.W"),
  any: () => t("montana.piece.any"),
  silver: () => t("montana.piece.silver"),
  cattle: () => t("montana.piece.cattle"),
  canteen: () => t("montana.piece.canteen"),
  settlement: () => t("montana.piece.settlement"),
  double: () => t("montana.piece.double"),
  start: () => t("montana.piece.start"),
  contractor: () => t("montana.piece.contractor"),
};
export const pieceName = (key) => NAMES[key]?.() ?? key;

const MEEPLE = "M10 1.5a3.2 3.2 0 0 1 3.2 3.2c0 1.2-.6 2.1-1.4 2.7l5.6 2.2c1 .4 1.2 1.8.3 2.4l-3.2 1 1.9 5.3h-4.6L10 15.2l-1.8 3.1H3.6l1.9-5.3-3.2-1c-.9-.6-.7-2 .3-2.4l5.6-2.2c-.8-.6-1.4-1.5-1.4-2.7A3.2 3.2 0 0 1 10 1.5z";
const NUGGET = (k) => `M${10 - 7 * k},${10 - 2 * k} L${10 - 3 * k},${10 - 7 * k} L${10 + 5 * k},${10 - 6 * k} L${10 + 8 * k},${10 + 1 * k} L${10 + 4 * k},${10 + 7 * k} L${10 - 5 * k},${10 + 6 * k} Z`;

function symbol(id, ...children) {
  return s("symbol", { id, viewBox: "0 0 20 20" }, ...children);
}

// A good's symbol: its drawing grouped under its cue, the shape that tells it from the others.
const good = (key, ...children) => symbol(`mt-${key}`, s("g", { "data-cue": GOOD_CUE[key] }, ...children));

// A worker's chest mark in its ink (stroke for a line mark, fill for a solid one).
function mark({ cue, ink, el }) {
  const shape = el();
  shape.setAttribute("data-cue", cue);
  if (shape.getAttribute("fill") === "none") shape.setAttribute("stroke", ink);
  else shape.setAttribute("fill", ink);
  return shape;
}

// The symbols, built once; each becomes a standalone SVG image (a data URL) the first time it
// is shown: a table shows hundreds of icons, and a span with a cached background image (or an
// SVG <image>) lays out far faster than as many inline drawings or <use> shadow trees.
let SYMBOLS = null;
function symbols() {
  if (SYMBOLS) return SYMBOLS;
  const list = [
    good("c", s("path", { d: NUGGET(0.75), fill: "#b9652a", stroke: "#4a2208", "stroke-width": 1.4 })),
    good("C", s("path", { d: NUGGET(1.12), fill: "#b9652a", stroke: "#4a2208", "stroke-width": 2.6 }), s("path", { d: NUGGET(0.45), fill: "#e0a070", stroke: "none" })),
    good("s", s("rect", { x: 5, y: 5.5, width: 10, height: 9, rx: 2, fill: "#9a9a9a", stroke: "#2e2e2e", "stroke-width": 1.4 })),
    good("S", s("rect", { x: 1.5, y: 2, width: 17, height: 16, rx: 3, fill: "#9a9a9a", stroke: "#2e2e2e", "stroke-width": 2.6 }), s("rect", { x: 6, y: 6.5, width: 8, height: 7, rx: 1, fill: "#c8c8c8" })),
    good("g",
      s("path", { d: "M10 18.5V8", stroke: "#6b5200", "stroke-width": 1.6 }),
      ...[[10, 5, 0], [7, 9, -30], [13, 9, 30], [7, 13, -30], [13, 13, 30]].map(([x, y, a]) =>
        s("ellipse", { cx: x, cy: y, rx: 2.2, ry: 3.4, transform: `rotate(${a} ${x} ${y})`, fill: "#f0c93a", stroke: "#6b5200", "stroke-width": 1 }))),
    good("p",
      s("ellipse", { cx: 10, cy: 11.5, rx: 8, ry: 6.5, fill: "#ef7f1a", stroke: "#6a3000", "stroke-width": 1.4 }),
      s("path", { d: "M10 5.2v12.6M6 6.5c-2 3-2 7 0 10M14 6.5c2 3 2 7 0 10", fill: "none", stroke: "#6a3000", "stroke-width": 1 }),
      s("path", { d: "M10 5.5c0-2 1-3 3-3.5", fill: "none", stroke: "#2f7a2f", "stroke-width": 2 })),
    ...Object.entries(WORKER_FILL).map(([key, fill]) => symbol(`mt-w-${key}`,
      s("path", { d: MEEPLE, fill, stroke: "#111", "stroke-width": 1.2, "stroke-dasharray": key === "W" ? "2 1.4" : null }),
      key === "W" ? s("path", { d: "M8 8.3a2 2 0 1 1 2.6 1.9c-.6.3-.6.7-.6 1.3M10 13v1", fill: "none", stroke: "#111", "stroke-width": 1.3 }) : null,
      WORKER_MARK[key] ? mark(WORKER_MARK[key]) : null)),
    symbol("mt-w-any", s("path", { d: MEEPLE, fill: "#fff", stroke: "#555", "stroke-width": 1.2 }),
      s("path", { d: MEEPLE, fill: "url(#mt-any-fill)", stroke: "none", transform: "translate(3 3) scale(.7)" })),
    symbol("mt-silver", s("circle", { cx: 10, cy: 10, r: 8, fill: "#cfd3d8", stroke: "#4c5258", "stroke-width": 1.5 }), s("circle", { cx: 10, cy: 10, r: 4.8, fill: "none", stroke: "#4c5258", "stroke-width": 1 })),
    symbol("mt-cattle",
      s("path", { d: "M4 6C1.5 5.5 1 3.5 1.5 2.5 2.5 4 4 4.3 5.5 4.5M16 6c2.5-.5 3-2.5 2.5-3.5C17.5 4 16 4.3 14.5 4.5", fill: "none", stroke: "#e8dcc0", "stroke-width": 1.6 }),
      s("path", { d: "M5 5h10l-1.5 9.5c-.4 2.5-2 4-3.5 4s-3.1-1.5-3.5-4z", fill: "#7a4a22", stroke: "#2e1a08", "stroke-width": 1.2 }),
      s("ellipse", { cx: 10, cy: 15.5, rx: 3, ry: 2, fill: "#e7b9a0" }),
      s("circle", { cx: 8, cy: 9, r: 1, fill: "#fff" }), s("circle", { cx: 12, cy: 9, r: 1, fill: "#fff" })),
    symbol("mt-canteen",
      s("path", { d: "M2 10L10 3l8 7v8H2z", fill: "#fff", stroke: "#1d5d8c", "stroke-width": 1.6 }),
      s("path", { d: "M7 18v-5h6v5", fill: "#9fd0f0", stroke: "#1d5d8c", "stroke-width": 1.2 }),
      s("path", { d: "M10 3V0.5h3.5l-1 1 1 1H10", fill: "#c33", stroke: "#1d5d8c", "stroke-width": .6 })),
    symbol("mt-house", s("path", { d: "M2.5 10L10 3l7.5 7v7.5h-15z", stroke: "#111", "stroke-width": 1.4 })),
    symbol("mt-start", s("path", { d: "M10 1.5l2.5 5.4 5.9.7-4.4 4 1.2 5.8L10 14.5l-5.2 2.9L6 11.6l-4.4-4 5.9-.7z", fill: "#fff6c8", stroke: "#6b5200", "stroke-width": 1.3 })),
    symbol("mt-arrow", s("path", { d: "M2 10h13M11 5l5 5-5 5", fill: "none", stroke: "#333", "stroke-width": 2.2 })),
    symbol("mt-double", s("path", { d: "M1 11L6 6l5 5v6H1zM9 9l5-5 5 5v8h-6", fill: "#fff", stroke: "#222", "stroke-width": 1.3 })),
    symbol("mt-contractor", s("path", { d: "M10 1.5a3.5 3.5 0 0 1 2 6.4L15.5 18h-11L8 7.9a3.5 3.5 0 0 1 2-6.4z", stroke: "#111", "stroke-width": 1.3 })),
    // Seat shapes (common.js SEAT_CUES order): filled with the seat's colour by the <use>.
    symbol("mt-seat-0", s("circle", { cx: 10, cy: 10, r: 7.5, stroke: "#111", "stroke-width": 1.6 })),
    symbol("mt-seat-1", s("path", { d: "M10 2l8.5 15h-17z", stroke: "#111", "stroke-width": 1.6 })),
    symbol("mt-seat-2", s("rect", { x: 3, y: 3, width: 14, height: 14, stroke: "#111", "stroke-width": 1.6 })),
    symbol("mt-seat-3", s("path", { d: "M10 1.5l8.5 8.5-8.5 8.5-8.5-8.5z", stroke: "#111", "stroke-width": 1.6 })),
  ];
  const gradient = s("linearGradient", { id: "mt-any-fill", x1: 0, x2: 1, y1: 0, y2: 0 },
    ...WORKERS.map((w, i) => [s("stop", { offset: i / 4, "stop-color": WORKER_FILL[w] }), s("stop", { offset: (i + 1) / 4, "stop-color": WORKER_FILL[w] })]).flat());
  SYMBOLS = { gradient, list, byId: new Map(list.map((el) => [el.id, el])) };
  return SYMBOLS;
}

const URLS = new Map();
// A symbol as a CSS image (a standalone SVG in a data URL), filled with `fill` where the
// symbol leaves its fill open (seat shapes, houses, contractors); made once per symbol and fill.
function dataUrl(id, fill) {
  const key = `${id}|${fill || ""}`;
  if (!URLS.has(key)) {
    const { gradient, byId } = symbols();
    const symbol = byId.get(id);
    const root = s("svg", { xmlns: SVG_NS, viewBox: "0 0 20 20", fill: fill || "#000" },
      id === "mt-w-any" ? s("defs", {}, gradient.cloneNode(true)) : null,
      ...[...(symbol?.childNodes || [])].map((el) => el.cloneNode(true)));
    URLS.set(key, `data:image/svg+xml,${encodeURIComponent(new XMLSerializer().serializeToString(root))}`);
  }
  return URLS.get(key);
}

// A symbol placed inside an SVG drawing (as an image: cheaper to lay out than a <use>).
// A worker's or good's icon says which piece it is and its cue (data-piece, data-cue).
const cueAttrs = (id) => (CUES[id] ? { "data-piece": id.replace(/^mt-(w-)?/, ""), "data-cue": CUES[id] } : {});

export function use(id, x, y, size, attrs = {}) {
  const { fill, ...rest } = attrs;
  return s("image", { href: dataUrl(id, fill), x, y, width: size, height: size, ...cueAttrs(id), ...rest });
}

// A small icon for the HTML parts; with a label it is an image with that name (and a tooltip).
export function icon(id, label = null, size = 20, attrs = {}) {
  const a11y = label ? { role: "img", "aria-label": label, title: label } : { "aria-hidden": "true" };
  return h("span", { class: "mt-icon", ...a11y, ...cueAttrs(id), style: `width:${size}px;height:${size}px;background-image:url("${dataUrl(id, attrs.fill)}")` });
}

export const goodIcon = (key, size) => icon(`mt-${key}`, pieceName(key), size);
export const workerIcon = (key, size) => icon(`mt-w-${key}`, pieceName(key), size);
export const seatIcon = (seat, colour, size = 18, label = null) => icon(`mt-seat-${seat % 4}`, label, size, { fill: colour });

// Icon and count, e.g. [coin] 6; signed for what a move gains or pays (+2, −3).
export function counted(iconEl, n, signed = false, cls = "") {
  const text = signed ? (n > 0 ? `+${n}` : `−${-n}`) : String(n);
  return h("span", { class: `mt-count ${signed ? (n > 0 ? "mt-gain" : "mt-pay") : ""} ${cls}` }, iconEl, h("span", { class: "mt-n" }, text));
}

// The icon of any key a move's struct may carry: goods, worker colours, silver, cattle,
// canteens, settlements.
export function keyIcon(key, size = 20, colour = "#888") {
  if (GOODS.includes(key)) return goodIcon(key, size);
  if (WORKERS.includes(key) || key === "W") return workerIcon(key, size);
  if (key === "silver") return icon("mt-silver", pieceName("silver"), size);
  if (key === "cattle") return icon("mt-cattle", pieceName("cattle"), size);
  if (key === "canteens") return icon("mt-canteen", pieceName("canteen"), size);
  if (key === "settlements") return icon("mt-house", pieceName("settlement"), size, { fill: colour });
  return h("span", {}, key);
}

// What a move gains and pays, as signed icons (struct.gains).
export function gainsRow(gains, colour) {
  const entries = Object.entries(gains || {}).filter(([, n]) => n);
  if (!entries.length) return null;
  return h("span", { class: "mt-gains" }, entries.map(([key, n]) => counted(keyIcon(key, 18, colour), n, true)));
}

// A multiset of workers or goods ({Cu: 2, St: 1}) as repeated icons.
export function piecesRow(counts, size = 20) {
  const out = [];
  for (const [key, n] of Object.entries(counts || {})) for (let i = 0; i < n; i++) out.push(keyIcon(key, size));
  return h("span", { class: "mt-pieces" }, out);
}

// The key to every icon, in words.
export function legend() {
  const item = (el, key) => h("li", {}, el, h("span", {}, pieceName(key)));
  return h("details", { class: "mt-legend", id: "mt-legend" }, h("summary", {}, t("montana.legend")),
    h("ul", {},
      ...GOODS.map((g) => item(goodIcon(g, 22), g)),
      ...WORKERS.map((w) => item(workerIcon(w, 22), w)),
      item(workerIcon("W", 22), "W"),
      item(icon("mt-w-any", null, 22), "any"),
      item(icon("mt-silver", null, 22), "silver"),
      item(icon("mt-cattle", null, 22), "cattle"),
      item(icon("mt-canteen", null, 22), "canteen"),
      item(icon("mt-double", null, 22), "double"),
      item(icon("mt-start", null, 22), "start"),
      item(icon("mt-contractor", null, 22, { fill: "#ccc" }), "contractor")));
}
