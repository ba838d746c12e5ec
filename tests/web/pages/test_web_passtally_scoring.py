"""Scoring you can see (issue 29, build 3), in a real Chromium: a Passtally game played by clicks
on the board until a turn can score. Before the scoring move is made, pointing at its target (a
tile's cell, a marker's slot) or, on a touch screen, tapping it once shows the lines it completes
and its points ("+N", the legal move's ``struct.scored``); after it, the board traces the turn's
scoring lines in the mover's colour (``.scored-line``, one per line of the move's struct, with
its end slots) and writes the points once (``.scored-points``). Both a scoring tile and a scoring
marker move are checked, on a desktop with a mouse and on a phone with touch, in English and in
Japanese; screenshots go to docs/screenshots/passtally-scoring-*.png."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpcalls
import pytest
from browsing import SCREENSHOTS, hold_seat, status, wait_turn

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
DECISIONS = 120
"""Decisions (setup included) a game may take before both kinds of scoring move are seen."""

CASES = [
    # screen, language, seed of a reproducible game (chance and the random moves follow it) in
    # which a scoring tile and a scoring marker move both come within a few dozen decisions
    ("desktop", "en", 15),
    ("desktop", "ja", 8),
    ("phone", "en", 36),
    ("phone", "ja", 28),
]

ROTATE = {"E": "S", "S": "W", "W": "N", "N": "E"}
UNROTATE = {v: k for k, v in ROTATE.items()}

# The preview now shown: the ghost (tile or slot preview) that is visible, its traced lines
# and the points it writes.
PREVIEW = """() => {
  const shown = [...document.querySelectorAll('#board .ghost')]
    .filter((g) => Number(getComputedStyle(g).opacity) > 0.5);
  return shown.map((g) => ({
    kind: g.classList.contains('slot-preview') ? 'marker' : 'place',
    lines: g.querySelectorAll('.traced-line').length,
    points: [...g.querySelectorAll('.preview-points')].map((p) => p.textContent.trim()),
  }));
}"""

# The lines the board traces as scored and the points it writes beside them.
SCORED = """() => ({
  lines: [...document.querySelectorAll('#board .scored-line')].map(
    (g) => [Number(g.dataset.from), Number(g.dataset.to), Number(g.dataset.seat)]),
  points: [...document.querySelectorAll('#board .scored-points')].map((p) => p.textContent.trim()),
})"""


def new_game(server: str, seed: int) -> tuple[str, str]:
    """A reproducible two-seat game, both seats this browser's (hot seat)."""
    created = httpcalls.post(
        f"{server}/api/games",
        json={
            "game": "passtally",
            "options": {},
            "seats": [{"kind": "me"}, {"kind": "hotseat"}],
            "reproducible": True,
            "seed": seed,
        },
    )
    assert created.status_code == 201, created.text
    return created.json()["id"], created.json()["token"]


@pytest.fixture(params=CASES, ids=[f"{s}-{lang}" for s, lang, _ in CASES])
def player(
    browser: Any, server: str, request: pytest.FixtureRequest
) -> Iterator[tuple[Any, str, str, str, str]]:
    """The game page of a new game, on a desktop with a mouse or a phone with touch."""
    screen, lang, seed = request.param
    gid, token = new_game(server, seed)
    touch = screen == "phone"
    context = browser.new_context(
        viewport=PHONE if touch else DESKTOP,
        has_touch=touch,
        is_mobile=touch,
        locale="ja-JP" if lang == "ja" else "en-GB",
    )
    hold_seat(context, gid, token, lang, "passtally")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("#board svg")
    yield page, gid, token, screen, lang
    context.close()
    assert not errors, errors


def view(server: str, gid: str, token: str) -> dict[str, Any]:
    answer = httpcalls.get(
        f"{server}/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}
    )
    assert answer.status_code == 200, answer.text
    game: dict[str, Any] = answer.json()
    return game


def ready(page: Any) -> dict[str, Any]:
    """Wait for our decision; the view's ply is the page's."""
    info = wait_turn(page)
    assert info["terminal"] == "0", "the game ended before both kinds of scoring move came"
    page.wait_for_selector(f"#board[data-ply='{info['ply']}'] svg")
    return info


def select(page: Any, key: str) -> None:
    page.locator(f"#board [data-select='{key}']").first.click()
    page.wait_for_function("k => document.querySelector('#board').dataset.selected === k", arg=key)


def redrawn(page: Any, action: Any) -> None:
    """Do ``action`` and wait until the board is drawn again."""
    page.evaluate("window.drawnBefore = document.querySelector('#board svg')")
    action()
    page.wait_for_function("() => document.querySelector('#board svg') !== window.drawnBefore")


def orientation(page: Any) -> str:
    """The tile's orientation now: the Rotate button holds the next one."""
    nxt: str = page.eval_on_selector(
        "#board .turn-buttons [data-view]", "(b) => JSON.parse(b.dataset.view).orient"
    )
    return UNROTATE[nxt]


def target_of(page: Any, move: dict[str, Any]) -> str:
    """Select what the move needs (a pile turned to the move's orientation, or the marker) and
    return the selector of its target on the board: the cell or the slot."""
    struct = move["struct"]
    if struct["kind"] == "setup":
        return target_selector(struct)
    if struct["kind"] == "marker":
        select(page, f"marker:{struct['from']}")
        return target_selector(struct)
    select(page, f"pile:{struct['pile']}")
    for _ in range(4):
        if orientation(page) == struct["orient"]:
            break
        redrawn(page, lambda: page.click("#board .turn-buttons [data-view]"))
    assert orientation(page) == struct["orient"], struct
    return target_selector(struct)


def target_selector(struct: dict[str, Any]) -> str:
    """Where the move's target is on the board: its slot (setup, marker) or its cell."""
    if struct["kind"] == "setup":
        return f"#board [data-slot='{struct['slot']}']"
    if struct["kind"] == "marker":
        return f"#board [data-slot='{struct['to']}']"
    return f"#board .place-target[data-cell='{struct['anchor']}']"


def play(page: Any, move: dict[str, Any], touch: bool) -> None:
    """Make ``move`` by clicks on the board (two taps on a touch screen where the board
    previews first) and wait for it to be played."""
    ply = status(page)["ply"]
    target = target_of(page, move)
    if touch and move["struct"]["kind"] != "setup":
        redrawn(page, lambda: page.locator(target).first.tap())
    assert page.get_attribute(target, "data-moves") == f"[{move['id']}]", (move, target)
    page.locator(target).first.click()
    page.wait_for_function(
        "p => document.querySelector('#status').dataset.ply !== p", arg=ply, timeout=60_000
    )


def preview(page: Any, move: dict[str, Any], touch: bool) -> list[dict[str, Any]]:
    """Point at (or tap once) the move's target and read the preview shown; nothing is played."""
    ply = status(page)["ply"]
    target = target_of(page, move)
    if touch:
        redrawn(page, lambda: page.locator(target).first.tap())
        assert status(page)["ply"] == ply, "the first tap played the move"
    else:
        page.mouse.move(1, 1)
        assert page.evaluate(PREVIEW) == [], "a preview shows before anything is pointed at"
        page.hover(target)
    shown: list[dict[str, Any]] = page.evaluate(PREVIEW)
    return shown


def shoot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"passtally-scoring-{name}.png"))


def test_a_scoring_move_is_previewed_and_its_lines_traced(
    player: tuple[Any, str, str, str, str], server: str
) -> None:
    page, gid, token, screen, lang = player
    touch = screen == "phone"
    assert page.evaluate("matchMedia('(pointer: coarse)').matches") == touch
    seed = next(s for sc, la, s in CASES if (sc, la) == (screen, lang))
    rng = random.Random(seed)
    checked: list[str] = []
    for _ in range(DECISIONS):
        if len(checked) == 2:
            break
        info = ready(page)
        game = view(server, gid, token)
        assert str(game["ply"]) == info["ply"]
        legal = game["legal"]
        scoring = [
            m
            for m in legal
            if m["struct"].get("scored", 0) > 0
            and m["struct"]["kind"] in ("place", "marker")
            and m["struct"]["kind"] not in checked
        ]
        if not scoring:
            play(page, rng.choice(legal), touch)
            continue
        move = scoring[0]
        struct = move["struct"]
        kind = struct["kind"]
        # Before: the preview of exactly this move, its lines and its points.
        shown = preview(page, move, touch)
        assert shown == [
            {"kind": kind, "lines": len(struct["lines"]), "points": [f"+{struct['scored']}"]}
        ], (shown, struct)
        shoot(page, f"preview-{kind}-{screen}-{lang}")
        # The same target plays it: a click, or on a touch screen the second tap.
        target = target_selector(struct)
        assert page.get_attribute(target, "data-moves") == f"[{move['id']}]"
        ply = status(page)["ply"]
        if touch:
            page.locator(target).first.tap()
        else:
            page.locator(target).first.click()
        page.wait_for_function("p => document.querySelector('#status').dataset.ply !== p", arg=ply)
        # After: the turn's scoring lines traced in the mover's colour, with its points.
        after = status(page)
        assert after["terminal"] == "0", "the game ended with this move: its end is drawn instead"
        page.wait_for_selector(f"#board[data-ply='{after['ply']}'] svg")
        game = view(server, gid, token)
        played = [m for m in game["moves"] if m.get("struct", {}).get("scored", 0) > 0][-1]
        assert played["struct"]["lines"] == struct["lines"]
        assert played["struct"]["scored"] == struct["scored"]
        drawn = page.evaluate(SCORED)
        assert sorted(drawn["lines"]) == sorted(
            [line["from"], line["to"], struct["seat"]] for line in struct["lines"]
        ), drawn
        assert drawn["points"] == [f"+{struct['scored']}"], drawn
        colour = game["hints"]["seat_colours"][struct["seat"]]
        strokes = page.eval_on_selector_all(
            "#board .scored-line path:last-child", "(ps) => ps.map((p) => p.getAttribute('stroke'))"
        )
        assert strokes and all(s.lower() == colour.lower() for s in strokes), (strokes, colour)
        assert int(after["ply"]) > int(info["ply"])
        shoot(page, f"scored-{kind}-{screen}-{lang}")
        checked.append(kind)
    assert sorted(checked) == ["marker", "place"], checked
