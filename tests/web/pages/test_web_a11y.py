"""Accessibility in a real headless Chromium (issue 16, build 6): axe-core finds no serious or
critical violation on the lobby, each game page, a replay, the rules, signing in, the
account, a profile and the ratings, at desktop and phone
size; the status line and the opponent's moves are live regions that announce each new turn
once; every seat's colour comes with a shape."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from browsing import GAMES, click_a_move, create_game, wait_turn

pytestmark = pytest.mark.browser

axe_playwright = pytest.importorskip("axe_playwright_python.sync_playwright")

BLOCKING = ("serious", "critical")


def violations(page: Any, where: str) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line each."""
    results = axe_playwright.Axe().run(page)
    found = []
    for v in results.response["violations"]:
        if v["impact"] in BLOCKING:
            nodes = "; ".join(n["html"][:120] for n in v["nodes"][:3])
            found.append(f"{where}: {v['id']} ({v['impact']}, {len(v['nodes'])} nodes): {nodes}")
    return found


@pytest.mark.parametrize(("size", "locale"), [("desktop", "en-US"), ("phone", "ja-JP")])
def test_axe_finds_nothing_serious_on_any_page(
    browser: Any, server: str, size: str, locale: str
) -> None:
    """Desktop in English, phone in Japanese (the pages' words differ in length and script)."""
    viewport = (
        {"width": 1280, "height": 800} if size == "desktop" else {"width": 390, "height": 844}
    )
    context = browser.new_context(viewport=viewport, locale=locale)
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    found: list[str] = []
    try:
        page.goto(f"{server}/#/")
        page.wait_for_selector("#seats .seat-row")
        found += violations(page, "lobby")
        last_game = ""
        for game in GAMES:
            last_game = create_game(page, server, game, ("hotseat", None))
            wait_turn(page)
            if game == "potlatch":  # a move, so the last turn and the move list are drawn too
                click_a_move(page, random.Random(3))
                wait_turn(page)
            found += violations(page, f"{game} game")
        page.goto(f"{server}/#/replay/{last_game}")
        page.wait_for_selector("#replay-board[data-ply]")
        found += violations(page, "replay")
        page.goto(f"{server}/#/rules/potlatch")
        page.wait_for_selector("#rules-text h1")
        found += violations(page, "rules")
        page.goto(f"{server}/#/signin")
        page.wait_for_selector("#signup-form")
        found += violations(page, "sign in")
        name = f"axe{size}"
        page.fill("#signup-name", name)
        page.fill("#signup-password", "an axe password")
        page.click("#signup-submit")
        page.wait_for_function(
            "name => document.querySelector('#account-link').textContent === name", arg=name
        )
        page.goto(f"{server}/#/account")
        page.wait_for_selector("#account-page")
        found += violations(page, "account")
        page.goto(f"{server}/#/player/{name}")
        try:
            page.wait_for_selector("#profile")
        except Exception:  # say what the page showed instead
            pytest.fail(f"no profile; the page shows: {page.inner_text('main')[:300]}")
        found += violations(page, "profile")
        page.goto(f"{server}/#/ratings/proteus")
        page.wait_for_selector(".pools")
        found += violations(page, "ratings")
    finally:
        context.close()
    assert not found, "\n".join(found)


def test_the_opponents_moves_and_the_status_are_announced_once(page: Any, server: str) -> None:
    create_game(page, server, "potlatch", ("ai", "easy"))
    for region in ("#status", "#last-move"):
        assert page.get_attribute(region, "aria-live") == "polite", region
    # Record every text the two live regions take from now on.
    page.evaluate(
        """() => {
        window.spoken = {status: [], last: []};
        const watch = (id, list) => new MutationObserver(() => {
          list.push(document.getElementById(id).textContent);
        }).observe(document.getElementById(id), {childList: true, characterData: true,
                                                subtree: true});
        watch('status', window.spoken.status);
        watch('last-move', window.spoken.last);
    }"""
    )
    rng = random.Random(5)
    for _ in range(2):  # our whole turn (two actions); then the AI answers
        wait_turn(page)
        click_a_move(page, rng)
    if wait_turn(page)["terminal"] == "1":
        pytest.skip("this seed's game ended in the first turn")
    spoken = page.evaluate("window.spoken")
    # The AI's turn was announced in words, naming its seat.
    assert any(text.startswith("Last turn: Blue") for text in spoken["last"]), spoken
    assert spoken["status"][-1].startswith("Your move"), spoken
    # Redrawing the page did not say the same thing twice in a row.
    for said in spoken.values():
        repeats = [a for a, b in itertools.pairwise(said) if a == b]
        assert not repeats, said


def test_every_seat_colour_comes_with_a_shape(page: Any, server: str) -> None:
    create_game(page, server, "potlatch", ("hotseat", None))
    cues = page.eval_on_selector_all("#board .pawn", "els => els.map(e => e.dataset.cue)")
    assert sorted(cues) == ["circle", "triangle"]
    swatches = page.eval_on_selector_all("#seats .swatch-cue", "els => els.map(e => e.dataset.cue)")
    assert swatches == ["circle", "triangle"]
    # The target kinds differ by their line pattern too, and the legend shows each pattern.
    legend = page.eval_on_selector_all(
        "#board .legend rect", "els => els.map(e => e.getAttribute('stroke-dasharray'))"
    )
    assert len(set(legend)) == len(legend) == 4, legend
    # Proteus: each rule tile's kind (move, trade, goal) is drawn as a sign beside its colour.
    create_game(page, server, "proteus", ("hotseat", None))
    tiles = page.eval_on_selector_all(
        "#board [data-tile]",
        "els => els.map(e => [e.dataset.tile, e.querySelector('.kind-mark')?.dataset.kind])",
    )
    assert len(tiles) == 9 and all(kind == tile[0] for tile, kind in tiles), tiles
