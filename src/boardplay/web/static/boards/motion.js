// Move animations, one mechanism for every board: a board marks what its last turn moved or put
// down (it knows from the moves' structs) and the page, only when a new position has just arrived,
// plays the marks. A piece that moved is drawn where it stands and slides in from where it stood
// (`slideFrom`, the offset in the drawing's own units); a piece or tile put down drops in
// (`landed`). Each is a short Web Animations API transform on the element itself, so the board is
// never redrawn for it, no input waits on it, and every target stays clickable meanwhile. With
// `prefers-reduced-motion: reduce` nothing moves: the marks are left unplayed.

export const SLIDE_MS = 260;
export const LAND_MS = 220;

// Marks `el` as moved here from (dx, dy) away; returns it.
export function slideFrom(el, dx, dy) {
  if (el && (Math.abs(dx) > 0.5 || Math.abs(dy) > 0.5)) el.setAttribute("data-motion", `slide:${dx.toFixed(1)},${dy.toFixed(1)}`);
  return el;
}

// Marks `el` as put down this turn; returns it.
export function landed(el) {
  if (el && !el.hasAttribute("data-motion")) el.setAttribute("data-motion", "land");
  return el;
}

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// Plays the marks inside `root` (a freshly drawn board); returns the animations started.
export function playMotion(root) {
  if (!root || reducedMotion()) return [];
  const started = [];
  for (const el of root.querySelectorAll("[data-motion]")) {
    const [kind, at] = el.getAttribute("data-motion").split(":");
    if (kind === "slide") {
      const [dx, dy] = at.split(",").map(Number);
      started.push(el.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
        { duration: SLIDE_MS, easing: "cubic-bezier(.2,.7,.3,1)" }));
    } else {
      started.push(el.animate([{ transform: "translate(0, -14px)", opacity: 0 }, { transform: "translate(0, 0)", opacity: 1 }],
        { duration: LAND_MS, easing: "ease-out" }));
    }
  }
  return started;
}
