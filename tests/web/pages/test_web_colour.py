"""Colour and a second cue (issue 29, build 6) in a real Chromium: with red-green colour
blindness emulated (deuteranopia, then protanopia, through the DevTools protocol), a four-player
Montana game and a three-player Passtally game are read from the drawn SVG, not from pictures.
Every pair of Montana's worker colours differs in the mark drawn on the meeple's chest, every pair
of its goods in the drawn shape, and every pair of Passtally's line designs in the stroke pattern
(dasharray, or the twin line's core) the lines are drawn with; each also names its cue in
``data-cue``, the same wherever the piece is shown (the legend too). Screenshots of both games as a
deuteranope sees them go to docs/screenshots/colour-*-deuteranopia-*.png."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest
from browsing import SCREENSHOTS, click_a_move, wait_turn

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DEFICIENCIES = ("deuteranopia", "protanopia")
WORKERS = ("Cu", "St", "Gr", "Pu")
GOODS = ("c", "C", "s", "S", "g", "p")
DESIGNS = ("XX", "XNE", "XNW", "NENE", "NWNW", "NENW")

# Every Montana worker and goods icon on the table: which piece, its cue, and the drawing inside
# its image (a data URL, the <image> href in the SVG parts, the background in the HTML parts)
# parsed back to SVG: the cue each drawn mark names, and the marks' markup without their colours
# (the shape, as drawn).
MONTANA_PIECES = """() => {
  const source = (el) => el instanceof SVGImageElement ? el.getAttribute('href')
    : el.style.backgroundImage.replace(/^url\\("?/, '').replace(/"?\\)$/, '');
  const shapeOf = (mark) => {
    const copy = mark.cloneNode(true);
    for (const e of [copy, ...copy.querySelectorAll('*')]) {
      for (const a of ['fill', 'stroke', 'stop-color', 'style']) e.removeAttribute(a);
    }
    return new XMLSerializer().serializeToString(copy);
  };
  return [...document.querySelectorAll('#board [data-piece]')].map((el) => {
    const url = source(el);
    const text = decodeURIComponent(url.replace(/^data:image\\/svg\\+xml,/, ''));
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    const marks = [...doc.documentElement.querySelectorAll('[data-cue]')];
    return {
      piece: el.dataset.piece, cue: el.dataset.cue, tag: el.tagName.toLowerCase(),
      legend: !!el.closest('#mt-legend'), label: el.getAttribute('aria-label'),
      drawn: marks.map((m) => m.getAttribute('data-cue')), shape: marks.map(shapeOf).join(''),
    };
  });
}"""

# Every group of a Passtally half tile's lines: its design, its cue, and each line's stroke as
# the browser draws it (computed style): pattern, width and colour.
PASSTALLY_LINES = """() => [...document.querySelectorAll('#board g.pt-lines')].map((g) => ({
  design: g.dataset.design, cue: g.dataset.cue,
  strokes: [...g.querySelectorAll('path')].map((p) => {
    const cs = getComputedStyle(p);
    return [cs.strokeDasharray, cs.strokeWidth, cs.stroke];
  }),
}))"""


@pytest.fixture
def desktop(browser: Any) -> Any:
    from conftest import _page

    yield from _page(browser, DESKTOP)


def emulate(page: Any, deficiency: str) -> None:
    """Chromium's own emulation of a colour vision deficiency (what screenshots then show)."""
    session = page.context.new_cdp_session(page)
    session.send("Emulation.setEmulatedVisionDeficiency", {"type": deficiency})


def hot_seat_game(page: Any, base: str, game: str, players: int) -> None:
    """A game of ``players`` seats, every seat played from this page (me and hot seats)."""
    page.goto(f"{base}/#/")
    page.wait_for_selector("#game-select")
    page.select_option("#game-select", game)
    page.wait_for_selector(f"#seats[data-game='{game}'] .seat-row")
    page.select_option("#opt-players", str(players))
    page.wait_for_function(
        "n => document.querySelectorAll('#seats .seat-row').length === n", arg=players
    )
    for seat in range(players):
        page.select_option(f"select[name=seat-{seat}]", "me" if seat == 0 else "hotseat")
    page.click("#create")
    page.wait_for_function("location.hash.startsWith('#/game/')")
    page.wait_for_selector("#status[data-ply]")
    page.evaluate("document.querySelector('#tutorial-skip')?.click()")


def shoot(page: Any, name: str, full: bool) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full)


def at_phone_size(page: Any, selector: str) -> None:
    """The same game redrawn at phone size (the page reloaded, so the board lays out for it)."""
    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector(selector)
    page.evaluate("document.querySelector('#tutorial-skip')?.click()")
    emulate(page, "deuteranopia")


def check_montana(page: Any) -> None:
    pieces = page.evaluate(MONTANA_PIECES)
    by_piece: dict[str, set[tuple[str, str]]] = {}
    for p in pieces:
        assert p["drawn"] == [p["cue"]], f"{p['piece']} names {p['cue']} but draws {p['drawn']}"
        assert p["shape"], f"the {p['piece']} icon draws no cue"
        by_piece.setdefault(p["piece"], set()).add((p["cue"], p["shape"]))
    for group in (WORKERS, GOODS):
        assert set(group) <= set(by_piece), f"not every piece is on the table: {sorted(by_piece)}"
        legend = {p["piece"] for p in pieces if p["legend"]}
        assert set(group) <= legend, "the legend shows every piece with its cue"
        for piece in group:
            assert len(by_piece[piece]) == 1, f"{piece} is drawn with different cues"
        for a, b in combinations(group, 2):
            ((cue_a, shape_a),) = by_piece[a]
            ((cue_b, shape_b),) = by_piece[b]
            assert cue_a != cue_b, f"{a} and {b} share the cue {cue_a}"
            assert shape_a != shape_b, f"{a} and {b} are drawn with the same {cue_a} mark"
    # The icons keep their names for screen readers (the player boards' counts).
    named = {p["piece"]: p["label"] for p in pieces if p["tag"] == "span" and not p["legend"]}
    assert named["Cu"] == "copper worker" and named["p"] == "pumpkin", named


def check_passtally(page: Any) -> set[str]:
    groups = page.evaluate(PASSTALLY_LINES)
    styles: dict[str, set[tuple[str, tuple[tuple[str, str], ...]]]] = {}
    for g in groups:
        # The pattern of each line as drawn (dasharray and width), never its colour.
        pattern = tuple(sorted({(dash, width) for dash, width, _colour in g["strokes"]}))
        styles.setdefault(g["design"], set()).add((g["cue"], pattern))
    for design, seen in styles.items():
        assert len(seen) == 1, f"{design} is drawn in more than one pattern: {seen}"
    for a, b in combinations(sorted(styles), 2):
        ((cue_a, pattern_a),) = styles[a]
        ((cue_b, pattern_b),) = styles[b]
        assert cue_a != cue_b, f"{a} and {b} share the cue {cue_a}"
        assert pattern_a != pattern_b, f"{a} and {b} are drawn alike: {pattern_a}"
    if "XX" in styles:  # red: the one solid line; green and pink, which it resembles, are not
        assert styles["XX"] == {("solid", (("none", "4px"),))}, styles["XX"]
    for design in {"NWNW", "XNE", "NENW", "NENE"} & set(styles):
        ((_cue, pattern),) = styles[design]
        assert all(dash != "none" for dash, _width in pattern), f"{design} is not dashed"
    return set(styles)


def test_montana_workers_and_goods_differ_by_more_than_colour(desktop: Any, server: str) -> None:
    hot_seat_game(desktop, server, "montana", 4)
    desktop.wait_for_selector("#board .montana-table")
    assert len(desktop.query_selector_all("#board .mt-player")) == 4
    desktop.evaluate("document.querySelector('#mt-legend').open = true")
    for deficiency in DEFICIENCIES:
        emulate(desktop, deficiency)
        check_montana(desktop)
    emulate(desktop, "deuteranopia")
    shoot(desktop, "colour-montana-deuteranopia-desktop", full=True)
    desktop.locator("#board .mt-players").screenshot(
        path=str(SCREENSHOTS / "colour-montana-deuteranopia-players.png")
    )
    at_phone_size(desktop, "#board .montana-table")
    desktop.evaluate("document.querySelector('#mt-legend').open = true")
    check_montana(desktop)
    shoot(desktop, "colour-montana-deuteranopia-phone", full=True)


def test_passtally_line_designs_differ_by_more_than_colour(desktop: Any, server: str) -> None:
    """Hot seat for three until all six designs are drawn (on the board or a pile)."""
    hot_seat_game(desktop, server, "passtally", 3)
    rng = random.Random(29)
    seen: set[str] = set()
    for _ in range(120):
        seen = {g["design"] for g in desktop.evaluate(PASSTALLY_LINES)}
        if seen == set(DESIGNS) or wait_turn(desktop)["terminal"] == "1":
            break
        click_a_move(desktop, rng)
    assert seen == set(DESIGNS), f"only {sorted(seen)} were drawn"
    for deficiency in DEFICIENCIES:
        emulate(desktop, deficiency)
        assert check_passtally(desktop) == set(DESIGNS)
    emulate(desktop, "deuteranopia")
    shoot(desktop, "colour-passtally-deuteranopia-desktop", full=False)
    at_phone_size(desktop, "#board g.pt-lines")
    assert check_passtally(desktop) == set(DESIGNS)
    shoot(desktop, "colour-passtally-deuteranopia-phone", full=True)
