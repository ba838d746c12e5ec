"""Every kind of ending explained where it happened (issue 29), in a real Chromium: games played
to each kind of end; the game page and the replay page draw on the final board what the game's
``describe_end`` marks (read back from the SVG) and say where and why in words, in English and
in Japanese. Under ``make soak`` screenshots of every ending (desktop and phone, both languages)
go to docs/screenshots/endings/ (``make test`` leaves the committed pictures alone)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from browsing import SCREENSHOTS
from japanese import KANA, english_left, shown

from boardplay.i18n.phrase import Phrase, SeatName
from boardplay.web.catalogue import REGISTRY
from boardplay.web.words import ending_of
from support import SOAK, uniform_record

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SHOTS = SCREENSHOTS / "endings"

_STUCK = (
    "Bt@b2 Ys@c1 Rc@a3 Bc@c2 s@c2 t@b2 Bs@b1 Yc@a2 t@b1 Rt@c3 Yt@b3 s@c3 Rs@a1 c@a3 c@a2 "
    "b2-b3 b1-b2 a2~a3 a1~c1 a2~a3 b2~c3 a2~a3 a1~c1 a2~a3 b3~c3 a1~c1 b2~b3 b2~c3 a2~c2 b2~b3 "
    "a3~c2 a3~c2 a3~c2 a2~a3 b2~c3 b1~c1 b2~c3 a3~c2 a1~b1 a1~c1 a1~b1"
)
PROTEUS_STUCK = tuple(_STUCK.split())
"""A Proteus game (rules=kadon, repetition=forbid) in which White, boxed in by KING, finds
every swap of SHAPE trade repeating an earlier position: found by a search, not by chance."""

CASES = [
    # game, options, the seed of a random game that ends so (or its moves), the end's code, a
    # name for it
    ("potlatch", {}, 0, "stuck", "stuck-mid-turn"),
    ("potlatch", {}, 1, "stuck", "stuck-at-start"),
    ("potlatch", {}, 1669, "three_stacks", "three-stacks"),
    ("potlatch", {}, 17, "repetition", "repetition"),
    ("potlatch", {"turn_limit": 6}, 0, "turn_limit", "turn-limit"),
    # Passtally: the last turn's scoring lines traced, the used-up piles and the winner marked.
    ("passtally", {}, 0, "final_round", "final-round"),
    ("passtally", {}, 5, "final_round", "final-round-tie"),
    ("passtally", {"players": 3}, 41, "final_round", "final-round-3p"),
    ("passtally", {}, 2759, "no_placement", "piles-used-up"),
    ("passtally", {}, 1132, "no_placement", "no-tile-fits"),
    ("passtally", {"finish_turn_on_immediate_end": False}, 1132, "no_placement", "unscored"),
    ("passtally", {"players": 3}, 749, "no_placement", "no-tile-fits-3p"),
    ("passtally", {"max_turns": 8}, 3, "turn_limit", "turn-limit-2p"),
    ("passtally", {"players": 3, "max_turns": 9}, 5, "turn_limit", "turn-limit-3p"),
    # Montana (played here and opened as a record on the replay page: 1,000 steps over HTTP are
    # slow): the finishers' settlements ringed on the map, the deciding tie-break on the boards.
    ("montana", {}, 0, "final_round", "final-round"),
    ("montana", {}, 1185, "final_round", "tiebreak-cattle"),
    ("montana", {}, 134, "final_round", "tiebreak-money"),
    ("montana", {"players": 3}, 852, "final_round", "tiebreak-cattle-3p"),
    ("montana", {}, 112, "turn_limit", "turn-limit"),
    # Proteus: the pieces that met the goal ringed (a 3-IN-LINE line stroked), the goal tile in
    # force ringed; for a double pass the face-down tiles of the missing colours.
    ("proteus", {}, 59, "goal", "three-in-line"),
    ("proteus", {}, 0, "goal", "colour-goal"),
    ("proteus", {}, 12, "goal", "shape-goal"),
    ("proteus", {}, 17, "goal", "win-handed-over"),
    ("proteus", {}, 28, "goal", "met-while-placing"),
    ("proteus", {"rules": "kadon"}, 36, "goal", "kadon-placement-win"),
    ("proteus", {}, 195, "two_passes", "two-passes"),
    ("proteus", {"max_turns": 16}, 277, "turn_limit", "turn-limit-both-meet"),
    # No random game ends so (it takes a closed round of swaps): the moves are given instead.
    (
        "proteus",
        {"rules": "kadon", "repetition": "forbid"},
        PROTEUS_STUCK,
        "no_action",
        "no-action",
    ),
]


def english(parts: list[dict[str, Any]]) -> str:
    """The English of a sentence sent as phrases (``Phrase.to_json``)."""

    def value(v: Any) -> Any:
        if isinstance(v, dict) and "seat" in v:
            return SeatName(v["seat"])
        if isinstance(v, dict):
            return Phrase(v["t"], {k: value(x) for k, x in v["p"].items()})
        return v

    return "".join(value(part).english() for part in parts)


IN_PROCESS = {"montana"}
"""Games played here and opened on the replay page as an uploaded record: over a thousand steps
over HTTP take too long."""


def finished(
    server: str, game: str, options: dict[str, Any], seed: int | tuple[str, ...]
) -> tuple[str, dict]:
    """A hot-seat game on the server (every seat this browser's; chance follows ``seed``),
    played to its end by a player that picks among the view's legal moves with
    ``random.Random(seed)``, or that plays ``seed``'s moves if it is a list of notation; its id
    and final view."""
    script = iter(()) if isinstance(seed, int) else iter(seed)
    seed = seed if isinstance(seed, int) else 0
    seats = REGISTRY.load(game, options).num_players
    created = httpcalls.post(
        f"{server}/api/games",
        json={
            "game": game,
            "options": options,
            "seats": [{"kind": "me"}] + [{"kind": "hotseat"}] * (seats - 1),
            "reproducible": True,
            "seed": seed,
        },
    )
    assert created.status_code == 201, created.text
    gid, token, view = created.json()["id"], created.json()["token"], created.json()["game"]
    rng = random.Random(seed)
    while not view["terminal"]:
        answer = httpcalls.post(
            f"{server}/api/games/{gid}/actions",
            json={
                "action": next(script, None) or rng.choice(view["legal"])["id"],
                "ply": view["ply"],
            },
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    return gid, view


def finished_record(game: str, options: dict[str, Any], seed: int, folder: Path) -> dict:
    """A random game (chance and moves from ``random.Random(seed)``) played to its end here and
    written as a record (its path in ``"record"``) for the replay page's upload; the view's
    ``moves`` hold the last move's ``struct.ends`` as the server would send it."""
    loaded = REGISTRY.load(game, options)
    names = [loaded.seat_name(p) for p in range(loaded.num_players)]
    record, state, before, seat = uniform_record(loaded, seed)
    path = folder / f"{game}-{seed}.json"
    path.write_text(record.dumps(), encoding="utf-8")
    ends, _ = ending_of(loaded, before, state, seat, names)
    return {"record": str(path), "moves": [{"struct": {"ends": ends}}]}


class Played(dict[tuple[str, str], tuple[str, dict]]):
    """Each case's game by its game and name (Montana's played here, as a record), played when a
    case first asks for it and then kept for the module: each worker plays only its own cases'
    games, and the Japanese case reads the English one's."""

    def __init__(self, server: str, folder: Path) -> None:
        super().__init__()
        self.server, self.folder = server, folder

    def __missing__(self, key: tuple[str, str]) -> tuple[str, dict]:
        g, o, seed, _, _ = next(case for case in CASES if (case[0], case[4]) == key)
        played = (
            ("", finished_record(g, o, seed, self.folder))
            if g in IN_PROCESS
            else finished(self.server, g, o, seed)
        )
        self[key] = played
        return played


@pytest.fixture(scope="module")
def games(server: str, tmp_path_factory: pytest.TempPathFactory) -> Played:
    return Played(server, tmp_path_factory.mktemp("records"))


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


MARKS = ("ending-pawn", "ending-blocked", "ending-stack", "ending-line", "ending-points")
MARKS += ("ending-pile", "ending-winner")
MARKS += ("ending-settlement",)
MARKS += ("ending-piece", "ending-tile")
"""The classes of the ending marks: Potlatch's pawn, blocked steps and stacks; Passtally's
scoring lines, their points, the used-up piles and the winner's score; Montana's settlements on
the map; Proteus's pieces and tiles (its 3-IN-LINE lines are ending-line too)."""
HTML_MARKS = ("ending-tiebreak",)
"""Montana's tie-break badges, on the (HTML) player boards."""


def drawn(page: Any, board: str) -> dict[str, Any]:
    """How many of each ending mark the board shows (and the points written, if any)."""
    found: dict[str, Any] = page.eval_on_selector(
        board,
        """(box, marks) => Object.fromEntries(marks.map(
             (c) => [c, box.querySelectorAll('svg .' + c).length]))""",
        list(MARKS),
    )
    found.update(
        page.eval_on_selector(
            board,
            """(box, marks) => Object.fromEntries(marks.map(
                 (c) => [c, box.querySelectorAll('.' + c).length]))""",
            list(HTML_MARKS),
        )
    )
    points = page.eval_on_selector_all(
        f"{board} svg .ending-points", "(els) => els.map((e) => e.textContent)"
    )
    if points:
        found["points"] = points
    return found


def expected(mark: dict[str, Any]) -> dict[str, Any]:
    scored = int(mark.get("scored", 0)) if mark.get("lines") else 0
    out: dict[str, Any] = {
        "ending-pawn": 1 if mark.get("pawn") else 0,
        "ending-blocked": len(mark.get("blocked", [])),
        "ending-stack": len(mark.get("stacks", [])),
        "ending-line": len(mark.get("lines", [])),
        "ending-points": 1 if scored else 0,
        "ending-pile": len(mark.get("piles", [])),
        "ending-winner": 1 if "winner" in mark else 0,
        "ending-settlement": len(mark.get("settlements", [])),
        "ending-tiebreak": len((mark.get("tiebreak") or {}).get("values", [])),
        "ending-piece": len(mark.get("pieces", [])),
        "ending-tile": len(mark.get("tiles", [])),
    }
    if scored:
        out["points"] = [f"+{scored}"]
    return out


@pytest.mark.parametrize(("game", "options", "seed", "code", "name"), CASES)
def test_the_ending_is_marked_on_the_board_and_explained(
    viewer: tuple[Any, str],
    server: str,
    games: Played,
    game: str,
    options: dict[str, Any],
    seed: int | tuple[str, ...],
    code: str,
    name: str,
) -> None:
    page, lang = viewer
    gid, view = games[(game, name)]
    ends = view["moves"][-1]["struct"]["ends"]
    assert ends["end"] == code and ends["mark"]["kind"] == code
    marks = expected(ends["mark"])
    assert any(marks.values()) or code == "turn_limit", marks
    words = english(ends["say"])
    pages = [
        (f"#/game/{gid}", "#board", "#status"),
        (f"#/replay/{gid}", "#replay-board", "#replay-status"),
    ]
    if game in IN_PROCESS:
        pages = [("#/replay", "#replay-board", "#replay-status")]
    for where, board, status in pages:

        def show(where: str = where, board: str = board) -> None:
            """Open the page at the final position (a Montana record through the upload)."""
            page.goto(f"{server}/{where}")
            if game in IN_PROCESS:
                page.reload()  # the same hash again: draw afresh at the window's size
                page.set_input_files("#record-file", view["record"])
                page.wait_for_selector(f"{board}[data-ply] svg")
            else:
                page.reload()
                page.wait_for_selector(f"{board}[data-ply='{len(view['moves'])}'] svg")

        show()
        assert drawn(page, board) == marks, (where, drawn(page, board), marks)
        said = page.inner_text(status)
        if lang == "en":
            assert words in said, (where, said, words)
        else:
            assert KANA.search(said) and words not in said, said
            assert not english_left(shown(page)), english_left(shown(page))
        if SOAK and (where.startswith("#/game") or game in IN_PROCESS):
            SHOTS.mkdir(parents=True, exist_ok=True)
            for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
                page.set_viewport_size(viewport)
                show()  # the board drawn for this width (a phone's layout below 560 px)
                page.locator(status).scroll_into_view_if_needed()
                page.screenshot(path=str(SHOTS / f"{game}-{name}-{lang}-{size}.png"))
            page.set_viewport_size(DESKTOP)
