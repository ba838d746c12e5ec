// What the lobby's small pictures of the games share (each board module draws its own
// `miniature`): the card's frame, hexagons, and a plain board square for a game without a picture
// of its own. Each picture is a decorative <svg> (aria-hidden: the card's words say what it is).
import { s } from "../dom.js";
import { hexCentre, hexCorners } from "./common.js";

export function frame(...children) {
  return s("svg", { viewBox: "0 0 120 80", class: "miniature", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 0, y: 0, width: 120, height: 80, rx: 8, fill: "#efe7d8" }), ...children);
}

export function hexPath(cx, cy, r) {
  return `M${hexCorners(cx, cy, r).join("L")}Z`;
}

// Axial hex (q, r) to a point, pointy-top, radius r around (ox, oy).
export const hexAt = (q, r, size, ox, oy) => {
  const [x, y] = hexCentre(q, r, size);
  return [ox + x, oy + y];
};

// A plain board square: the picture of a game whose board module draws none.
export function plainMiniature() {
  return frame(s("rect", { x: 35, y: 15, width: 50, height: 50, rx: 4, fill: "#f7f1e3", stroke: "#8a7a62" }));
}
