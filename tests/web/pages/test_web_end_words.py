"""How the end of a game is put to the people at the table, in a real Chromium, in English and
Japanese:

- the line under the result that explains where and why the rules ended the game names the
  players, not the seats ("Player 3 wins by 2 points" → "Watcher9 wins by 2 points"; a seat
  the game names by colour keeps it beside the name: "Hana (Black)"), on the game page and the
  replay, for each of the four games (Montana's as an uploaded record, its players named), and
  so do the moves' words (the last turn, the list of moves);
- the question asked before a move that ends the game against its mover says how it ends for
  them: a loss, or a draw (nobody wins), never "you lose" for a draw.

Screenshots of a three-player Passtally end (desktop and phone, both languages):
docs/screenshots/ending-names-*.png."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from browsing import SCREENSHOTS

from boardplay.core.records import Player
from boardplay.web.catalogue import REGISTRY
from support import uniform_record

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
PEOPLE = ["Hana", "Kenji", "Watcher9"]
CASES = [
    # game, options, the seed of a random game that ends by the rules
    ("potlatch", {}, 1669),
    ("proteus", {}, 59),
    ("passtally", {"players": 3}, 41),
    ("montana", {}, 0),
]
SEAT_NUMBER = re.compile(r"Player \d|プレイヤー\d")
"""A numbered seat's name, in either language ("Player 3", "プレイヤー3")."""
IN_PROCESS = {"montana"}
"""Played here and opened on the replay page as an uploaded record (a thousand steps over HTTP
take too long)."""


def labels_in(parts: Any) -> set[str]:
    """The seat labels a sentence sent as phrases names (``{"seat": "Player 3"}``)."""
    found: set[str] = set()
    if isinstance(parts, list):
        for part in parts:
            found |= labels_in(part)
    elif isinstance(parts, dict):
        if "seat" in parts:
            found.add(str(parts["seat"]))
        for value in (parts.get("p") or {}).values():
            found |= labels_in(value)
    return found


def played(server: str, game: str, options: dict[str, Any], seed: int) -> tuple[str, Any]:
    """A hot-seat game whose seats carry people's names, played to its end by random legal moves
    (chance from ``seed``): its id and the last move's ``struct.ends``."""
    seats = REGISTRY.load(game, options).num_players
    named = [{"kind": "me" if i == 0 else "hotseat", "name": PEOPLE[i]} for i in range(seats)]
    created = httpcalls.post(
        f"{server}/api/games",
        json={"game": game, "options": options, "seats": named, "reproducible": True, "seed": seed},
        timeout=20,
    )
    assert created.status_code == 201, created.text
    gid, token, view = created.json()["id"], created.json()["token"], created.json()["game"]
    rng = random.Random(seed)
    while not view["terminal"]:
        answer = httpcalls.post(
            f"{server}/api/games/{gid}/actions",
            json={"action": rng.choice(view["legal"])["id"], "ply": view["ply"]},
            headers={"Authorization": f"Bearer {token}"},
            timeout=20,
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return gid, view["moves"][-1]["struct"]["ends"]


def record_of(game: str, options: dict[str, Any], seed: int, folder: Path) -> tuple[Path, Any]:
    """A random game played here, its players named, written as a record for the upload."""
    from boardplay.web.words import ending_of

    loaded = REGISTRY.load(game, options)
    record, state, before, seat = uniform_record(loaded, seed)
    record.players = [Player(PEOPLE[i]) for i in range(loaded.num_players)]
    path = folder / f"{game}-{seed}-named.json"
    path.write_text(record.dumps(), encoding="utf-8")
    labels = [loaded.seat_name(p) for p in range(loaded.num_players)]
    ends, _ = ending_of(loaded, before, state, seat, labels)
    return path, ends


@pytest.fixture(params=["en", "ja"])
def viewer(browser: Any, request: pytest.FixtureRequest) -> Iterator[tuple[Any, str]]:
    context = browser.new_context(
        viewport=DESKTOP, locale="ja-JP" if request.param == "ja" else "en-GB"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page, request.param
    context.close()
    assert not errors, errors


def check_names(said: str, labels: set[str], lang: str) -> None:
    """``said`` names the people behind ``labels``: a numbered seat by its player's name alone,
    a coloured seat by the name with its colour beside it."""
    for label in labels:
        seat = int(label.split()[-1]) - 1 if label.startswith("Player ") else None
        if seat is None:
            colours = {"en": " (", "ja": "（"}[lang]
            assert any(f"{name}{colours}" in said for name in PEOPLE), (label, said)
        else:
            assert PEOPLE[seat] in said, (label, said)
    if any(label.startswith("Player ") for label in labels):
        assert not SEAT_NUMBER.search(said), said


@pytest.mark.parametrize(("game", "options", "seed"), CASES, ids=[c[0] for c in CASES])
def test_the_ending_is_explained_with_the_players_names(
    viewer: tuple[Any, str],
    server: str,
    tmp_path: Path,
    game: str,
    options: dict[str, Any],
    seed: int,
) -> None:
    page, lang = viewer
    if game in IN_PROCESS:
        path, ends = record_of(game, options, seed, tmp_path)
        page.goto(f"{server}/#/replay")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector("#replay-status .ending-words")
        places = ["#replay-status .ending-words"]
    else:
        gid, ends = played(server, game, options, seed)
        page.goto(f"{server}/#/game/{gid}")
        page.wait_for_selector("#ending-words")
        places = ["#ending-words"]
    labels = labels_in(ends["say"])
    assert labels, ends["say"]
    for place in places:
        check_names(page.inner_text(place), labels, lang)
    if game in IN_PROCESS:
        return
    # The moves' words say the same: the last turn over the board and the list of moves.
    numbered = any(label.startswith("Player ") for label in labels)
    for place in ("#last-move", "#moves"):
        text = page.inner_text(place)
        assert any(name in text for name in PEOPLE), (place, text)
        if numbered:
            assert not SEAT_NUMBER.search(text), (place, text)
    page.goto(f"{server}/#/replay/{gid}")
    page.wait_for_selector("#replay-status .ending-words")
    check_names(page.inner_text("#replay-status .ending-words"), labels, lang)
    if game == "passtally":  # the reviewers' three-player table
        page.goto(f"{server}/#/game/{gid}")
        for device, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.reload()
            page.wait_for_selector("#ending-words")
            page.locator("#status").scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / f"ending-names-{lang}-{device}.png"))


QUESTIONS = """async (lang) => {
  const text = await import("/static/text.js");
  await text.setLanguage(lang);
  const { endingQuestion } = await import("/static/pages/gameplay.js");
  const move = (winners) => ({ id: 7, words: "Black passes.", struct: { ends: { winners } } });
  return {
    draw: endingQuestion(move([]), 0),
    loss: endingQuestion(move([1]), 0),
    win: endingQuestion(move([0]), 0),
    shared: endingQuestion(move([0, 1]), 0),
    going_on: endingQuestion({ id: 8, words: "Black passes.", struct: {} }, 0),
  };
}"""


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_question_before_a_move_that_ends_the_game_says_how_it_ends(
    page: Any, server: str, lang: str
) -> None:
    page.goto(server)
    asked = page.evaluate(QUESTIONS, lang)
    assert asked["win"] is None and asked["shared"] is None and asked["going_on"] is None
    draw, loss = asked["draw"], asked["loss"]
    if lang == "en":
        assert "in a draw" in draw and "lose" not in draw, draw
        assert "you lose" in loss, loss
    else:
        assert "引き分け" in draw and "負け" not in draw, draw
        assert "負け" in loss and "引き分け" not in loss, loss
