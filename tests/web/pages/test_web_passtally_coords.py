"""Words and boards that agree (issue 29, build 4), in a real Chromium: Passtally's move words name
cells ("on c3 and d3", games/passtally/describe.py), so the board labels its columns a–f and its
rows 1–6. A tile is laid over the API, and on the game page (desktop and phone, English and
Japanese) each cell the last move's words name has its column's letter straight above it and its
row's number straight beside it, outside the board. Screenshots go to
docs/screenshots/passtally-coords-*.png."""

from __future__ import annotations

import re
from typing import Any

import httpcalls
import pytest
from browsing import SCREENSHOTS, hold_seat

pytestmark = pytest.mark.browser

SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}

# Each named cell's box and the boxes of its column's and its row's labels, in CSS pixels.
GEOMETRY = """(cells) => cells.map((cell) => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {x: r.x + r.width / 2, y: r.y + r.height / 2, left: r.left, right: r.right,
            top: r.top, bottom: r.bottom, text: el.textContent}; };
  const rect = document.querySelector(`#board g[data-cell='${cell}'] rect`);
  return {cell, box: box(rect),
          col: box(document.querySelector(`#board .coord[data-col='${cell[0]}']`)),
          row: box(document.querySelector(`#board .coord[data-row='${cell[1]}']`)),
          board: box(document.querySelector('#board g[data-cell="a1"] rect')),
          // the slots' top and left edges, with the last turn's ring round a slot
          slots: [...document.querySelectorAll('#board [data-slot]')].map(box)};
})"""


def laid_tile(server: str) -> tuple[str, str, list[str]]:
    """A hot-seat game whose markers are set and whose first tile is laid: its id, token and
    the two cells the tile covers (the placement's struct)."""
    created = httpcalls.post(
        f"{server}/api/games",
        json={"game": "passtally", "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
    )
    assert created.status_code == 201, created.text
    gid, token = created.json()["id"], created.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    for _ in range(40):
        game = httpcalls.get(f"{server}/api/games/{gid}", headers=auth).json()
        legal = [m for m in game["legal"] if m.get("struct")]
        # Lay a tile away from the a column and row 1, so each label is beside one cell only.
        places = [m for m in legal if m["struct"]["kind"] == "place"]
        inner = [
            m for m in places if all(c[0] != "a" and c[1] != "1" for c in m["struct"]["cells"])
        ]
        move = (inner or legal)[0]
        answer = httpcalls.post(
            f"{server}/api/games/{gid}/actions",
            json={"action": move["id"], "ply": game["ply"]},
            headers=auth,
        )
        assert answer.status_code == 200, answer.text
        if move["struct"]["kind"] == "place":
            return gid, token, list(move["struct"]["cells"])
    raise AssertionError("no tile could be laid")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_cells_the_words_name_are_labelled_on_the_board(
    browser: Any, server: str, screen: str, lang: str
) -> None:
    gid, token, cells = laid_tile(server)
    context = browser.new_context(
        viewport=SCREENS[screen],
        has_touch=screen == "phone",
        is_mobile=screen == "phone",
        locale="ja-JP" if lang == "ja" else "en-GB",
    )
    hold_seat(context, gid, token, lang, "passtally")
    page = context.new_page()
    page.goto(f"{server}/#/game/{gid}")
    page.wait_for_selector("#board svg .coords")
    said = page.inner_text("#last-move")
    # The words name the two cells the tile covers, in the board's spelling.
    assert sorted(set(re.findall(r"(?<![a-z0-9])[a-f][1-6](?![0-9])", said))) == sorted(cells), said
    for found in page.evaluate(GEOMETRY, cells):
        cell, box, col, row, a1 = (
            found["cell"],
            found["box"],
            found["col"],
            found["row"],
            found["board"],
        )
        assert col["text"] == cell[0] and row["text"] == cell[1], found
        # The column's letter stands over the cell's centre, above the board's top row.
        assert abs(col["x"] - box["x"]) < 1, found
        assert col["bottom"] < a1["top"], found
        # The row's number stands level with the cell's centre, left of the board's first column.
        assert abs(row["y"] - box["y"]) < 1, found
        assert row["right"] < a1["left"], found
        # Clear of the ring of slots: no label touches a slot or the ring round the last one.
        assert col["bottom"] < min(s["top"] for s in found["slots"]), found
        assert row["right"] < min(s["left"] for s in found["slots"]), found
        # Legible: at least 9 CSS pixels high even on a phone.
        assert col["bottom"] - col["top"] >= 9 and row["bottom"] - row["top"] >= 9, found
    # Six letters and six numbers, nothing more.
    assert page.locator("#board .coord[data-col]").count() == 6
    assert page.locator("#board .coord[data-row]").count() == 6
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=str(SCREENSHOTS / f"passtally-coords-{screen}-{lang}.png"))
    context.close()
