// Small pictures of each game for the lobby's cards, drawn here (no image files): a few pieces
// of the real board in the colours the boards use, enough to recognise the game at a glance.
// Each returns a decorative <svg> (aria-hidden: the card's words say what it is).
import { s } from "../dom.js";

const SQRT3 = Math.sqrt(3);

function frame(...children) {
  return s("svg", { viewBox: "0 0 120 80", class: "miniature", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 0, y: 0, width: 120, height: 80, rx: 8, fill: "#efe7d8" }), ...children);
}

function hexPath(cx, cy, r) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return `M${points.join("L")}Z`;
}

// Axial hex (q, r) to a point, pointy-top, radius r around (ox, oy).
const hexAt = (q, r, size, ox, oy) => [ox + size * SQRT3 * (q + r / 2), oy + size * 1.5 * r];

// Potlatch Klone: a small field of hex tiles with chip stacks and the two pawns.
function potlatch() {
  const cells = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1], [2, -1], [-2, 1], [1, 1], [-1, -1]];
  const stacks = { "0,0": ["#b58b5a", "#b58b5a", "#d33c3c"], "1,-1": ["#b58b5a", "#2f6fd6"], "-1,1": ["#b58b5a"], "1,1": ["#b58b5a", "#b58b5a", "#2f6fd6"] };
  const out = [];
  for (const [q, r] of cells) {
    const [x, y] = hexAt(q, r, 11, 60, 40);
    out.push(s("path", { d: hexPath(x, y, 10.5), fill: "#f7f1e3", stroke: "#8a7a62", "stroke-width": 1 }));
    (stacks[`${q},${r}`] || []).forEach((colour, i) => {
      out.push(s("ellipse", { cx: x, cy: y + 3 - i * 3, rx: 6, ry: 2.6, fill: colour, stroke: "#0005", "stroke-width": 0.6 }));
    });
  }
  const pawn = (q, r, colour) => {
    const [x, y] = hexAt(q, r, 11, 60, 40);
    return s("g", {}, s("circle", { cx: x, cy: y - 5, r: 3.4, fill: colour, stroke: "#111", "stroke-width": 0.8 }),
      s("path", { d: `M${x - 4},${y + 3}L${x},${y - 3}L${x + 4},${y + 3}Z`, fill: colour, stroke: "#111", "stroke-width": 0.8 }));
  };
  out.push(pawn(-1, 0, "#d33c3c"), pawn(2, -1, "#2f6fd6"));
  return frame(...out);
}

// Proteus: the 3×3 board of rule tiles in red, blue and yellow, with black and white pieces.
function proteus() {
  const colours = ["#d24b3e", "#3b6fd0", "#e3b62b"];
  const shape = (kind, x, y, fill, stroke) => {
    if (kind === 0) return s("circle", { cx: x, cy: y, r: 5, fill, stroke, "stroke-width": 1.2 });
    if (kind === 1) return s("rect", { x: x - 4.5, y: y - 4.5, width: 9, height: 9, fill, stroke, "stroke-width": 1.2 });
    return s("path", { d: `M${x},${y - 5.5}L${x + 5.5},${y + 4.5}L${x - 5.5},${y + 4.5}Z`, fill, stroke, "stroke-width": 1.2 });
  };
  const out = [];
  const pieces = { 0: ["#111", 0], 4: ["#fafafa", 2], 5: ["#111", 1], 7: ["#fafafa", 0] };
  for (let i = 0; i < 9; i++) {
    const x = 33 + (i % 3) * 20;
    const y = 11 + Math.floor(i / 3) * 20;
    const up = i !== 2 && i !== 6;
    out.push(s("rect", { x, y, width: 18, height: 18, rx: 2.5, fill: up ? colours[(i * 2) % 3] : "#7a6f5e", stroke: "#3a3229", "stroke-width": 0.8 }));
    if (up) out.push(shape(i % 3, x + 9, y + 9, "#fff8", "none"));
    const piece = pieces[i];
    if (piece) out.push(shape(piece[1], x + 9, y + 9, piece[0], piece[0] === "#111" ? "#fafafa" : "#111"));
  }
  return frame(...out);
}

// Passtally: part of the 6×6 board with a few path tiles and markers on the ring.
function passtally() {
  const out = [s("rect", { x: 30, y: 8, width: 60, height: 60, fill: "#f7f1e3", stroke: "#8a7a62", "stroke-width": 1 })];
  for (let i = 1; i < 6; i++) {
    out.push(s("line", { x1: 30 + i * 10, y1: 8, x2: 30 + i * 10, y2: 68, stroke: "#d8cbb3", "stroke-width": 0.6 }));
    out.push(s("line", { x1: 30, y1: 8 + i * 10, x2: 90, y2: 8 + i * 10, stroke: "#d8cbb3", "stroke-width": 0.6 }));
  }
  const tiles = [[40, 18, 20, 10], [60, 28, 10, 20], [40, 48, 20, 10], [70, 48, 10, 20]];
  for (const [x, y, w, hgt] of tiles) out.push(s("rect", { x: x + 0.5, y: y + 0.5, width: w - 1, height: hgt - 1, rx: 1.5, fill: "#e9dcc0", stroke: "#6d5c40", "stroke-width": 0.8 }));
  out.push(s("path", { d: "M30,23 C45,23 45,23 50,23 S60,33 65,38 S65,53 75,58 S85,68 85,68", fill: "none", stroke: "#2f6fd6", "stroke-width": 2 }));
  out.push(s("path", { d: "M30,53 C40,53 45,48 50,53 S60,63 60,68", fill: "none", stroke: "#d33c3c", "stroke-width": 2 }));
  const marker = (x, y, colour) => s("rect", { x: x - 3.5, y: y - 3.5, width: 7, height: 7, rx: 1.5, fill: colour, stroke: "#111", "stroke-width": 0.8 });
  out.push(marker(25, 23, "#2f6fd6"), marker(85, 73, "#2f6fd6"), marker(25, 53, "#d33c3c"), marker(60, 73, "#d33c3c"), marker(95, 33, "#e0a020"));
  return frame(...out);
}

// Montana: a patch of the landscape with settlements, and a worker and coins at the side.
function montana() {
  const kinds = ["#9bc36b", "#c9b27a", "#9bc36b", "#7fb0d8", "#9bc36b", "#c9b27a", "#9bc36b"];
  const cells = [[0, 0], [1, 0], [-1, 0], [0, 1], [0, -1], [1, -1], [-1, 1]];
  const out = [];
  cells.forEach(([q, r], i) => {
    const [x, y] = hexAt(q, r, 12, 50, 40);
    out.push(s("path", { d: hexPath(x, y, 11.5), fill: kinds[i], stroke: "#5b5141", "stroke-width": 0.9 }));
  });
  const house = (q, r, colour) => {
    const [x, y] = hexAt(q, r, 12, 50, 40);
    return s("path", { d: `M${x - 4},${y + 4}V${y - 1}L${x},${y - 5}L${x + 4},${y - 1}V${y + 4}Z`, fill: colour, stroke: "#111", "stroke-width": 0.8 });
  };
  out.push(house(0, 0, "#2f6fd6"), house(1, -1, "#e0b020"), house(-1, 1, "#2f6fd6"), house(0, 1, "#d33c3c"));
  out.push(s("circle", { cx: 96, cy: 26, r: 5, fill: "#3a9a4a", stroke: "#111", "stroke-width": 0.8 }),
    s("rect", { x: 91, y: 31, width: 10, height: 9, rx: 3, fill: "#3a9a4a", stroke: "#111", "stroke-width": 0.8 }));
  for (let i = 0; i < 3; i++) out.push(s("circle", { cx: 91 + i * 5, cy: 55, r: 4, fill: "#c8ccd2", stroke: "#6b7078", "stroke-width": 0.8 }));
  return frame(...out);
}

const DRAW = { potlatch, proteus, passtally, montana };

// The picture of game `name`; a plain board square for a game without one of its own.
export function miniature(name) {
  return (DRAW[name] || (() => frame(s("rect", { x: 35, y: 15, width: 50, height: 50, rx: 4, fill: "#f7f1e3", stroke: "#8a7a62" }))))();
}
