"""A game keeps its words in its board module (an ``EN`` table beside ``draw``): the page adds
them to its own words when ``boards/load.js`` loads the module, so a new game's words need no
other file. Shown with the toy fifth game's board module (``tests/core/fifth``), served where a
board module is; the module's ``draw`` runs too, and offers the legal moves. A page that names a
game before drawing its board has the game's words from its first paint: app.js loads the board
modules of the games the page lists before it draws anything."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpcalls
import pytest

from boardplay import available

pytestmark = pytest.mark.browser

RACE = Path(__file__).parents[2] / "core" / "fifth" / "static" / "boards" / "race.js"

SCRIPT = """async () => {
  const { t } = await import("/static/text.js");
  const before = t("about.race.line");
  const { boardModule } = await import("/static/boards/load.js");
  const mod = await boardModule("race");
  const legal = [{ id: 0, struct: { add: 1, to: 4 } }, { id: 1, struct: { add: 2, to: 5 } }];
  const ctx = { options: { target: 10 }, interactive: true, legal, names: ["Red", "Blue"] };
  const { svg } = mod.draw({ count: 3, to_move: 1 }, ctx);
  const offered = [...svg.querySelectorAll("[data-moves]")].map((el) => el.dataset.moves);
  return { before, after: t("about.race.line"), label: svg.getAttribute("aria-label"), offered };
}"""


def test_a_board_modules_words_become_the_pages_words(page: Any, server: str) -> None:
    page.route(
        "**/static/boards/race.js",
        lambda route: route.fulfill(body=RACE.read_text(), content_type="text/javascript"),
    )
    page.goto(server)
    assert page.evaluate(SCRIPT) == {
        "before": "about.race.line",
        "after": "Add one or two to a shared count; whoever reaches ten wins.",
        "label": "Race to ten; Blue to move",
        "offered": ["[0]", "[1]"],
    }


def test_a_page_opened_directly_has_the_games_words_at_once(browser: Any, server: str) -> None:
    """A replay page opened directly, in Japanese: its heading and its slider's label, written
    before the board module is asked for, already carry the game's Japanese title, since app.js
    loaded every listed game's board module (bundled, so no request) before drawing the page."""
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    made = httpcalls.post(f"{server}/api/games", json={"game": "potlatch", "seats": seats})
    assert made.status_code == 201, made.text
    context = browser.new_context(locale="ja-JP")
    page = context.new_page()
    page.goto(f"{server}/#/replay/{made.json()['id']}")
    page.wait_for_selector("#replay-board[data-ply]")
    listed = page.evaluate("document.body.dataset.games").split()
    titles = [page.inner_text("#main h2"), page.get_attribute("#scrub", "aria-label")]
    context.close()
    assert set(available()) <= set(listed), listed
    assert all("ポトラッチクローネ" in title for title in titles), titles
