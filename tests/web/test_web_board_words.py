"""A game may keep its words in its board module (an ``EN`` table beside ``draw``): the page adds
them to its own words when ``boards/load.js`` loads the module, so a new game needs no section in
``strings-games.js``. Shown with the toy fifth game's board module (``tests/core/fifth``), served
where a board module is; the module's ``draw`` runs too, and offers the legal moves."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.browser

RACE = Path(__file__).parents[1] / "core" / "fifth" / "static" / "boards" / "race.js"

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
