"""Move animations (issue 29, build 8: "a piece moves, a tile lands"), in a real Chromium. For each
game a hot-seat game is played over the API up to a move of the kind that should move something
(a Potlatch pawn, a Proteus piece or a traded tile, a Passtally tile and marker, a Montana
worker); the game page is opened, and the move is made over the API while the page watches.

- With motion, the board starts its animations (boards/motion.js) when the new position arrives,
  on the elements its last turn moved, and none when the page first opens on a position.
- With ``prefers-reduced-motion: reduce`` the same move starts none, although the board marks
  the same elements (so the absence is the preference, not a missing mark).
- While the animation runs the board still takes a move: a click on a target plays it.

The animations started are recorded by wrapping ``Element.prototype.animate`` in the page, so the
check does not depend on catching a 260 ms animation before it ends."""

from __future__ import annotations

import random
from typing import Any

import httpcalls
import pytest
from browsing import hold_seat

pytestmark = pytest.mark.browser

RECORD = """
window.motionStarted = [];
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.motionStarted.push({motion: this.getAttribute('data-motion'), tag: this.tagName,
                             ply: document.querySelector('#status')?.dataset.ply ?? null});
  return animate.apply(this, args);
};
"""

# game, options, the kinds of the move to watch (the first legal move of one of them is made
# while the page watches), the motion expected on the board
CASES = [
    ("potlatch", {}, ("pawn",), "slide"),
    ("proteus", {}, ("move", "trade"), "slide"),
    ("passtally", {}, ("place",), "land"),
    ("passtally", {}, ("marker",), "slide"),
    ("montana", {}, ("work",), "land"),
]


class Table:
    """A hot-seat game on the server (this browser holds every seat), played over the API."""

    def __init__(self, server: str, game: str, options: dict[str, Any]) -> None:
        self.server = server
        created = httpcalls.post(
            f"{server}/api/games",
            json={"game": game, "options": options, "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
        )
        assert created.status_code == 201, created.text
        self.id, self.token = created.json()["id"], created.json()["token"]
        self.auth = {"Authorization": f"Bearer {self.token}"}

    def view(self) -> dict[str, Any]:
        answer = httpcalls.get(f"{self.server}/api/games/{self.id}", headers=self.auth)
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    def play(self, move: dict[str, Any], ply: int) -> int:
        answer = httpcalls.post(
            f"{self.server}/api/games/{self.id}/actions",
            json={"action": move["id"], "ply": ply},
            headers=self.auth,
        )
        assert answer.status_code == 200, answer.text
        return ply + 1

    def wanted(self, kinds: tuple[str, ...]) -> dict[str, Any] | None:
        return next(
            (m for m in self.view()["legal"] if (m.get("struct") or {}).get("kind") in kinds), None
        )

    def up_to(self, kinds: tuple[str, ...], rng: random.Random) -> None:
        """Random moves until one of ``kinds`` is legal (never ending the game)."""
        for _ in range(300):
            view = self.view()
            assert not view["terminal"], "the game ended before the move to watch came"
            if self.wanted(kinds):
                return
            safe = [m for m in view["legal"] if not (m.get("struct") or {}).get("ends")]
            self.play(rng.choice(safe or view["legal"]), view["ply"])
        raise AssertionError(f"no {kinds} move came")


def moved_on(page: Any, ply: int) -> None:
    """Waits until the page shows a position after ``ply`` (a chance outcome may follow the move
    at once, as Passtally's reveal does)."""
    page.wait_for_function(
        "p => Number(document.querySelector('#status').dataset.ply) > p", arg=ply
    )


def open_page(browser: Any, server: str, table: Table, game: str, reduced: bool) -> Any:
    context = browser.new_context(
        viewport={"width": 1280, "height": 800},
        reduced_motion="reduce" if reduced else "no-preference",
    )
    hold_seat(context, table.id, table.token, "en", game)
    # A decision with one option is not taken for the player here: the test makes every move.
    context.add_init_script("localStorage.setItem('boardplay.confirmForced', 'true');" + RECORD)
    page = context.new_page()
    page.goto(f"{server}/#/game/{table.id}")
    page.wait_for_selector(f"#board[data-ply='{table.view()['ply']}'] svg")
    return page


@pytest.mark.parametrize("reduced", [False, True], ids=["motion", "reduced"])
@pytest.mark.parametrize(
    ("game", "options", "kinds", "motion"), CASES, ids=[f"{c[0]}-{c[2][0]}" for c in CASES]
)
def test_the_last_move_is_animated_unless_motion_is_reduced(
    browser: Any,
    server: str,
    game: str,
    options: dict[str, Any],
    kinds: tuple[str, ...],
    motion: str,
    reduced: bool,
) -> None:
    table = Table(server, game, options)
    table.up_to(kinds, random.Random(7))
    page = open_page(browser, server, table, game, reduced)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    assert page.evaluate("window.motionStarted") == [], "the first drawing animated"

    ply = table.view()["ply"]
    move = table.wanted(kinds)
    assert move is not None
    table.play(move, ply)
    moved_on(page, ply)
    marked = page.eval_on_selector_all(
        "#board [data-motion]", "els => els.map((el) => el.getAttribute('data-motion'))"
    )
    assert any(m.startswith(motion) for m in marked), (move["struct"], marked)
    started = page.evaluate("window.motionStarted")
    if reduced:
        assert started == [], started
    else:
        kinds_started = {s["motion"].split(":")[0] for s in started if s["motion"]}
        assert motion in kinds_started, (move["struct"], started)
        # Only the marked elements move, and only once the position arrived.
        assert all(s["motion"] for s in started), started
    page.context.close()
    assert not errors, errors


def test_the_board_takes_a_move_while_it_animates(browser: Any, server: str) -> None:
    table = Table(server, "potlatch", {})
    table.up_to(("pawn",), random.Random(3))
    page = open_page(browser, server, table, "potlatch", reduced=False)
    ply = table.view()["ply"]
    move = table.wanted(("pawn",))
    assert move is not None
    table.play(move, ply)
    # At once, while the pawn slides: the next decision is a click on the board.
    moved_on(page, ply)
    page.wait_for_function("() => window.motionStarted.length > 0")
    target = page.locator("#board [data-moves]").first
    target.click()
    chooser = page.locator(".chooser button[data-move]")
    if chooser.count():
        chooser.first.click()
    moved_on(page, ply + 1)
    page.context.close()
