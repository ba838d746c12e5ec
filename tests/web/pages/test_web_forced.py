"""Forced moves (issue 29, build 5 "Fewer clicks"): a decision with only one legal move is taken
for the player after a short beat that says so (pages/forced.js), unless the setting "Confirm
forced moves" is on; a spectator's page never takes one. Played on Montana's table by clicking,
where such decisions are common (a pass in an auction the player cannot afford, ending a turn
with nothing else left)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from browsing import SCREENSHOTS, create_game, status, wait_turn
from test_web_montana import DESKTOP, table_decision

pytestmark = pytest.mark.browser

MAX_DECISIONS = 400
# The seeds of the two games' luck: with the seeded clicks below, a forced decision comes up at
# the 26th decision of the first and a decision of one move at the 16th of the second.
FORCED_SEED = 7
CONFIRM_SEED = 3

# Every state the forced-move note shows, kept in the page (a beat is short; the test may look
# after it has passed): [state, ply of the forced decision, text].
LOG_NOTES = """() => {
  window.forcedNotes = [];
  const note = document.querySelector('#forced-note');
  const log = () => {
    const seen = [note.dataset.state, note.dataset.ply, note.textContent];
    if (!note.hidden) window.forcedNotes.push(seen);
  };
  const all = { attributes: true, childList: true, characterData: true, subtree: true };
  new MutationObserver(log).observe(note, all);
}"""

# The decision on the table offers exactly one move: one target, nothing to select first.
ONE_MOVE = """() => {
  const ids = new Set();
  for (const el of document.querySelectorAll('#board [data-moves], #legal-list [data-move]')) {
    const moves = el.getAttribute('data-moves') || `[${el.getAttribute('data-move')}]`;
    for (const id of JSON.parse(moves)) ids.add(id);
  }
  return ids.size === 1 && !document.querySelector('#board [data-select]');
}"""


@pytest.fixture
def desktop(browser: Any) -> Any:
    from conftest import _page

    yield from _page(browser, DESKTOP)


def new_hot_seat_game(page: Any, server: str, seed: int) -> str:
    """A Montana game of two seats on this screen, its walk-through already seen (the
    walk-through asks for every click itself). Its luck follows ``seed`` (the lobby's request is
    sent as a reproducible game's), so the seeded clicks meet the same decisions each run: a
    forced one within a few dozen, where a drawn deal took 11 to 40 s of clicks to reach one."""
    page.goto(f"{server}/#/")
    page.evaluate("localStorage.setItem('boardplay.tutorials', JSON.stringify({montana: true}))")

    def seeded(route: Any) -> None:
        if route.request.method != "POST":
            route.continue_()
            return
        body = {**json.loads(route.request.post_data), "reproducible": True, "seed": seed}
        route.continue_(post_data=json.dumps(body))

    page.route(f"{server}/api/games", seeded)
    try:
        return create_game(page, server, "montana", ("hotseat", None))
    finally:
        page.unroute(f"{server}/api/games", seeded)


def test_a_forced_move_is_taken_without_a_click_and_said(desktop: Any, server: str) -> None:
    new_hot_seat_game(desktop, server, FORCED_SEED)
    desktop.evaluate(LOG_NOTES)
    assert not desktop.is_checked("#confirm-forced"), "forced moves are taken unless asked"
    rng = random.Random(29)
    seen: dict[str, Any] = {}
    taken = "() => window.forcedNotes.some((n) => n[0] === 'taken')"
    for _ in range(MAX_DECISIONS):
        ply = status(desktop)["ply"]
        if desktop.get_attribute("#status", "data-forced"):
            # A forced decision: the page says what it will take, then takes it; no click.
            seen["pending"] = desktop.inner_text("#forced-note")
            desktop.wait_for_function(
                "p => document.querySelector('#status').dataset.ply !== p", arg=ply
            )
            desktop.wait_for_selector("#forced-note[data-state='taken']")
            seen["taken"] = desktop.inner_text("#forced-note")
            seen["ply"] = desktop.get_attribute("#forced-note", "data-ply")
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            desktop.screenshot(path=str(SCREENSHOTS / "montana-forced-desktop.png"))
            break
        if wait_turn(desktop)["terminal"] == "1" or desktop.evaluate(taken):
            break
        table_decision(desktop, rng)
    notes = desktop.evaluate("window.forcedNotes")
    if "taken" not in seen:  # the beat passed between two looks: the note's log has it
        taken = [n for n in notes if n[0] == "taken"]
        assert taken, f"no forced decision came up in {MAX_DECISIONS} decisions"
        seen = {"pending": None, "taken": taken[0][2], "ply": taken[0][1]}
    assert seen["taken"].startswith("Only one choice — taken for you: "), seen
    words = seen["taken"].split(": ", 1)[1]
    if seen["pending"] is not None and seen["ply"] == ply:
        assert seen["pending"] == f"Only one choice — taking it for you: {words}"
    # The move made at that ply is the one the note named, in the move list.
    made = desktop.inner_text(f"#moves li[data-ply='{seen['ply']}'] .words")
    assert made == words, (made, words)
    assert int(status(desktop)["ply"]) > int(seen["ply"])
    # Each forced decision is taken once: no ply was announced twice.
    plies = [n[1] for n in notes if n[0] == "pending"]
    assert len(plies) == len(set(plies)), notes


def test_with_confirm_forced_moves_on_the_page_waits_for_a_click(
    desktop: Any, browser: Any, server: str
) -> None:
    game_id = new_hot_seat_game(desktop, server, CONFIRM_SEED)
    desktop.check("#confirm-forced")
    assert desktop.evaluate("localStorage.getItem('boardplay.confirmForced')") == "true"
    rng = random.Random(30)
    for _ in range(MAX_DECISIONS):
        assert wait_turn(desktop)["terminal"] == "0", "no forced decision came up"
        if desktop.evaluate(ONE_MOVE):
            break
        table_decision(desktop, rng)
    ply = status(desktop)["ply"]
    # A spectator's page on the same decision (no seat token) never takes it either.
    watcher_context = browser.new_context(viewport=DESKTOP)
    try:
        watcher = watcher_context.new_page()
        watcher.goto(f"{server}/#/game/{game_id}")
        watcher.wait_for_selector(f"#status[data-ply='{ply}']")
        # Three beats: a forced move would long be on its way.
        desktop.wait_for_timeout(3_600)
        assert status(desktop)["ply"] == ply, "a forced move was taken with the setting on"
        assert desktop.is_hidden("#forced-note")
        assert not desktop.get_attribute("#status", "data-forced")
        assert status(watcher)["yours"] == "0" and watcher.is_hidden("#forced-note")
        assert not watcher.get_attribute("#status", "data-forced")
        # The setting is remembered: a reload keeps asking.
        desktop.reload()
        desktop.wait_for_selector(f"#status[data-ply='{ply}']")
        assert desktop.is_checked("#confirm-forced")
        desktop.wait_for_timeout(3_600)
        assert status(desktop)["ply"] == ply
        # Turned off on a forced decision, the page takes it (and says so).
        desktop.uncheck("#confirm-forced")
        desktop.wait_for_function(
            "p => document.querySelector('#status').dataset.ply !== p", arg=ply
        )
        assert desktop.inner_text("#forced-note").startswith("Only one choice — taken for you")
        watcher.wait_for_function(
            "p => document.querySelector('#status').dataset.ply !== p", arg=ply
        )
    finally:
        watcher_context.close()
