"""The analysis board's page (issue 64) in a real headless Chromium: every game (Passtally and
Montana at three players too) opened from the start form, a branch played on its own board, and
through each of its doors (a finished game, its replay link, its record uploaded, a position
link); the
journeys — a finished game's Analyse button, a tree of three branches kept over a reload, the
share link read by a guest and forked, a record uploaded, a position link, the engine's lines and
one of their moves added — and fair play: a rated game in progress offers no Analyse button and
its direct link says why in words. Axe finds nothing serious on the page. Screenshots (desktop
1280×800, phone 390×844, English and Japanese) go to docs/screenshots/analysis-*.png."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpcalls
import httpx
import pytest
from browsing import SCREENSHOTS
from japanese import english_left, shown
from test_web_endings import finished

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
STATUS = "#analysis-status"
TARGETS = "#analysis-board [data-moves], #analysis-board [data-select]"


def study_of(server: str, page: Any) -> dict[str, Any]:
    """The study the page shows, as the server has it now."""
    study_id = page.evaluate("location.hash.split('/')[2]")
    answer = httpcalls.get(f"{server}/api/analysis/{study_id}")
    assert answer.status_code == 200, answer.text
    study: dict[str, Any] = answer.json()
    return study


def shown_node(page: Any) -> str:
    return str(page.get_attribute(STATUS, "data-node"))


def after(page: Any, node: str) -> None:
    """Wait until the page shows another node than ``node``."""
    page.wait_for_function(
        "n => document.querySelector('#analysis-status')?.dataset.node !== n", arg=node
    )


def play_one(page: Any, rng: random.Random) -> None:
    """One move at the node shown, the way a person takes it: an outcome drawn at random at a
    chance node, else a target of the board (a piece or tile selected first where the board asks
    for it), else a button of the moves the board does not draw."""
    node = shown_node(page)
    if page.locator("#draw-random").count():
        page.click("#draw-random")
        return after(page, node)
    targets = page.query_selector_all(TARGETS)
    if targets:
        chosen = rng.choice(targets)
        key = chosen.get_attribute("data-select")
        if key is not None:
            page.locator(f"#analysis-board [data-select={json.dumps(key)}]").first.click()
            page.wait_for_function(
                "k => document.querySelector('#analysis-board').dataset.selected === k", arg=key
            )
            moves = page.query_selector_all("#analysis-board [data-moves]")
            assert moves, f"selecting {key} offers no move"
            chosen = rng.choice(moves)
        value = chosen.get_attribute("data-moves")
        page.locator(f"#analysis-board [data-moves={json.dumps(value)}]").first.click()
        choices = page.query_selector_all(".chooser button[data-move]")
        if choices:
            move = rng.choice(choices).get_attribute("data-move")
            page.locator(f".chooser button[data-move={json.dumps(move)}]").click()
    else:
        buttons = page.query_selector_all("#analysis-legal button[data-move]")
        assert buttons, "no move is offered at a player's decision"
        rng.choice(buttons).click()
    after(page, node)


def at_decision(page: Any, rng: random.Random) -> None:
    """Play on (chance drawn at random) until a player decides at the node shown."""
    for _ in range(40):
        if not page.locator("#draw-random").count():
            return
        play_one(page, rng)
    raise AssertionError("no player's decision after 40 chance steps")


def branch_here(page: Any, server: str, rng: random.Random) -> int:
    """At a player's decision: a move, back, and other moves until the position has a second
    line; the node's id."""
    at_decision(page, rng)
    node = int(shown_node(page))
    for _ in range(12):
        play_one(page, rng)
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f"{STATUS}[data-node='{node}']")
        kids = next(n for n in study_of(server, page)["nodes"] if n["id"] == node)["children"]
        if len(kids) >= 2:
            return node
    raise AssertionError("twelve moves from one position made no second line")


def open_from_start(page: Any, server: str, game: str, players: int | None = None) -> None:
    page.goto(f"{server}/#/analysis")
    page.wait_for_selector("#analysis-game")
    page.select_option("#analysis-game", game)
    if players is not None:
        field = page.locator("#analysis-options #opt-players")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(players))
        else:
            field.fill(str(players))
    page.click("#analysis-start")
    page.wait_for_selector(f"{STATUS}[data-node='0']")


EVERY_GAME = pytest.mark.parametrize(
    ("game", "players"),
    [
        ("potlatch", None),
        ("proteus", None),
        ("passtally", 2),
        ("passtally", 3),
        ("montana", 2),
        ("montana", 3),
    ],
    ids=["potlatch", "proteus", "passtally-2", "passtally-3", "montana-2", "montana-3"],
)
"""Every game and player count the analysis board offers (Passtally and Montana at 2 and 3)."""


@EVERY_GAME
def test_every_game_takes_a_branch_on_its_own_board(
    page: Any, server: str, game: str, players: int | None
) -> None:
    page.set_viewport_size(DESKTOP)
    open_from_start(page, server, game, players)
    study = study_of(server, page)
    assert study["game"] == game and page.locator("#read-only").count() == 0
    if players is not None:
        assert study["num_players"] == players
    rng = random.Random(7)
    node = branch_here(page, server, rng)
    assert page.locator("#analysis-board > :not(pre)").count(), "the text picture, not the board"
    # The tree shows both lines, the node shown highlighted; a click on a move shows it.
    kids = next(n for n in study_of(server, page)["nodes"] if n["id"] == node)["children"]
    for kid in kids:
        assert page.locator(f"#tree .tree-move[data-node='{kid}']").count() == 1
    page.click(f"#tree .tree-move[data-node='{kids[1]}']")
    page.wait_for_selector(f"{STATUS}[data-node='{kids[1]}']")
    assert page.get_attribute(f"#tree .tree-move[data-node='{kids[1]}']", "aria-current")
    page.keyboard.press("Home")
    page.wait_for_selector(f"{STATUS}[data-node='0']")


SHORT = {
    "potlatch": {"turn_limit": 6},
    "proteus": {"max_turns": 16},
    "passtally": {"max_turns": 8},
    "montana": {"max_turns": 12},
}
"""Each game's options for a game short enough to finish over HTTP in seconds: its turn limit."""


@EVERY_GAME
def test_every_door_opens_every_game(
    page: Any, server: str, game: str, players: int | None, tmp_path: Path
) -> None:
    """The four doors for each game and player count: a finished game's Analyse button, the
    replay link's, the record that replay downloads uploaded, and a position link of it."""
    options = {**SHORT[game], **({"players": players} if players else {})}
    game_id, _ = finished(server, game, options, 5)

    def opened(source: str) -> dict[str, Any]:
        page.wait_for_function("() => /^#\\/analysis\\/(?!new\\/)[^/]+/.test(location.hash)")
        page.wait_for_selector(f"{STATUS}[data-node]")
        study = study_of(server, page)
        assert study["game"] == game and study["source"]["kind"] == source, study["source"]
        assert study["num_players"] == (players or 2)
        page.wait_for_selector("#analysis-board > *")
        for _ in range(4):  # Montana's start, before its landscape is drawn, is a text picture
            if page.locator("#analysis-board > :not(pre)").count():
                break
            node = shown_node(page)
            page.keyboard.press("ArrowRight")
            after(page, node)
        assert page.locator("#analysis-board > :not(pre)").count(), "the text picture"
        return study

    for door in (f"#/game/{game_id}", f"#/replay/{game_id}"):
        page.goto(f"{server}/{door}")
        page.click("#analyse")
        study = opened("game")
        assert study["source"]["game_id"] == game_id
    record = httpcalls.get(f"{server}/api/games/{game_id}/record")
    assert record.status_code == 200, record.text
    path = tmp_path / f"{game}.json"
    path.write_text(record.text, encoding="utf-8")
    page.goto(f"{server}/#/analysis")
    page.wait_for_selector("#analysis-file")
    page.set_input_files("#analysis-file", str(path))
    uploaded = opened("record")
    position = httpcalls.get(f"{server}/api/analysis/{uploaded['id']}/nodes/2").json()["position"]
    link = httpx.QueryParams(
        {"x": json.dumps({"options": uploaded["options"], "position": position})}
    )
    page.goto(f"{server}/#/analysis/new/{game}/{link['x'].replace('+', '%20')}")
    assert opened("position")["start_position"] == position


# ----- the journeys --------------------------------------------------------------------------
def finished_game(server: str, seed: int = 3) -> str:
    """A hot-seat Potlatch Klone game played to its end over the API with random moves."""
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    made = httpcalls.post(f"{server}/api/games", json={"game": "potlatch", "seats": seats})
    assert made.status_code == 201, made.text
    game_id, token = made.json()["id"], made.json()["token"]
    headers = {"Authorization": f"Bearer {token}"}
    view = made.json()["game"]
    rng = random.Random(seed)
    for _ in range(600):
        if view["terminal"]:
            return str(game_id)
        move = {"action": rng.choice(view["legal"])["id"], "ply": view["ply"]}
        answer = httpcalls.post(f"{server}/api/games/{game_id}/actions", json=move, headers=headers)
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    raise AssertionError("the random game did not end")


@pytest.fixture(scope="module")
def tree_study(browser: Any, server: str, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Journey (a): a finished game's Analyse button opens its study; three new lines at its
    second position; the tree is there after a reload. Returns the study and its export."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    game_id = finished_game(server)
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#status[data-terminal='1']")
    page.click("#analyse")
    page.wait_for_selector(f"{STATUS}[data-node]")
    study = study_of(server, page)
    assert study["source"] == {"kind": "game", "game_id": game_id, "ply": study["source"]["ply"]}
    mainline = len(study["nodes"])
    page.click("#tree .tree-move[data-node='1']")
    page.wait_for_selector(f"{STATUS}[data-node='1']")
    rng = random.Random(11)
    for _ in range(30):
        kids = next(n for n in study_of(server, page)["nodes"] if n["id"] == 1)["children"]
        if len(kids) >= 4:  # the game's own move and three more
            break
        play_one(page, rng)
        page.click("#tree .tree-move[data-node='1']")
        page.wait_for_selector(f"{STATUS}[data-node='1']")
    made = study_of(server, page)
    assert len(next(n for n in made["nodes"] if n["id"] == 1)["children"]) >= 4
    assert len(made["nodes"]) >= mainline + 3
    page.reload()
    page.wait_for_selector(f"{STATUS}[data-node='1']")  # the address kept the node shown
    for node in made["nodes"]:
        assert page.locator(f"#tree [data-node='{node['id']}']").count() == 1, node
    path = tmp_path_factory.mktemp("export") / "study.json"
    with page.expect_download() as download:
        page.click("#export")
    download.value.save_as(path)
    context.close()
    assert not errors, errors
    return {"study": made, "export": path, "game_id": game_id}


def test_a_finished_games_study_keeps_its_tree_over_a_reload(tree_study: Any) -> None:
    exported = json.loads(Path(tree_study["export"]).read_text())
    assert exported["format"] == "boardplay-record" and exported["variations"]


def test_a_guest_reads_the_shared_study_and_forks_it(
    browser: Any, server: str, tree_study: Any
) -> None:
    study = tree_study["study"]
    context = browser.new_context(viewport=PHONE)  # a fresh browser: another owner
    page = context.new_page()
    page.goto(f"{server}/#/analysis/{study['id']}/1")
    page.wait_for_selector(f"{STATUS}[data-node='1']")
    assert page.locator("#read-only").is_visible()
    assert page.locator(TARGETS).count() == 0, "a reader's board takes moves"
    assert page.locator("#comment-text, #delete-node, #promote").count() == 0
    for node in study["nodes"]:
        assert page.locator(f"#tree [data-node='{node['id']}']").count() == 1
    page.click("#fork")
    page.wait_for_function("id => !location.hash.includes(id)", arg=study["id"])
    page.wait_for_selector(f"{STATUS}[data-node='1']")
    copy = study_of(server, page)
    assert copy["source"]["kind"] == "fork" and len(copy["nodes"]) == len(study["nodes"])
    assert page.locator("#read-only").count() == 0
    assert page.locator(TARGETS).count() or page.locator("#analysis-legal button").count()
    context.close()


def test_a_record_uploaded_opens_with_its_variations(
    page: Any, server: str, tree_study: Any
) -> None:
    page.goto(f"{server}/#/analysis")
    page.wait_for_selector("#analysis-file")
    page.set_input_files("#analysis-file", str(tree_study["export"]))
    page.wait_for_selector(f"{STATUS}[data-node='0']")
    study = study_of(server, page)
    assert study["source"]["kind"] == "record"
    assert len(study["nodes"]) == len(tree_study["study"]["nodes"])
    assert page.locator("#tree .tree-branches .tree-line").count() >= 3


def test_a_position_link_opens_a_study_there(page: Any, server: str, tree_study: Any) -> None:
    study = tree_study["study"]
    position = httpcalls.get(f"{server}/api/analysis/{study['id']}/nodes/3").json()
    link = {"options": study["options"], "position": position["position"]}
    encoded = httpx.QueryParams({"x": json.dumps(link)})["x"]
    page.goto(f"{server}/#/analysis/new/potlatch/{encoded.replace('+', '%20')}")
    page.wait_for_selector(f"{STATUS}[data-node='0']")
    made = study_of(server, page)
    assert made["source"]["kind"] == "position" and made["start_position"] == position["position"]
    assert "/analysis/new/" not in page.url  # the link is replaced by the study's own
    said = page.inner_text(STATUS)
    assert "to move" in said, said


def test_engine_lines_show_and_a_line_is_added(page: Any, server: str) -> None:
    page.set_viewport_size(DESKTOP)
    open_from_start(page, server, "potlatch")
    page.select_option("#lines-level", "easy")
    page.click("#lines-ask")
    page.wait_for_selector("#lines li .line-move", timeout=120_000)
    first = page.locator("#lines li").first
    assert "%" in first.locator(".line-chance").inner_text()
    assert page.locator("#eval .eval-fill").count() == 1
    page.locator("#lines li .line-next").first.click()  # the line up to its second move
    page.wait_for_function("() => document.querySelector('#analysis-status').dataset.node !== '0'")
    study = study_of(server, page)
    assert len(study["nodes"]) == 3
    assert page.locator("#tree .tree-move[aria-current='true']").count() == 1
    # Back at the first position, the lines found are shown again without a search.
    page.keyboard.press("Home")
    page.wait_for_selector(f"{STATUS}[data-node='0']")
    page.wait_for_selector("#lines li .line-move")


def test_a_rated_game_in_progress_offers_no_analysis(page: Any, server: str) -> None:
    def signed_up(name: str) -> httpx.Client:
        client = httpx.Client(base_url=server, timeout=10)
        answer = client.post("/api/account/signup", json={"name": name, "password": "a secret!"})
        assert answer.status_code == 201, answer.text
        client.headers["X-CSRF-Token"] = answer.json()["csrf"]
        return client

    hana, kenji = signed_up("Hana"), signed_up("Kenji")
    seats = [{"kind": "me"}, {"kind": "open"}]
    clock = {"base": 600, "increment": 5}
    made = hana.post(
        "/api/games", json={"game": "proteus", "seats": seats, "rated": True, "clock": clock}
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    assert kenji.post(f"/api/games/{game_id}/join", json={"seat": 1}).status_code == 200
    page.goto(f"{server}/#/game/{game_id}")
    page.wait_for_selector("#status[data-ply]")
    assert page.locator("#analyse").is_hidden()
    page.goto("about:blank")
    page.goto(f"{server}/#/analysis/game/{game_id}")
    page.wait_for_selector("#analysis-refused")
    said = page.inner_text("#analysis-refused")
    assert "still being played" in said and "rated game" in said, said


# ----- what a first-time player sees ---------------------------------------------------------
def shown_with_lines(browser: Any, server: str, lang: str, viewport: dict[str, int]) -> Any:
    """A Potlatch Klone study with three lines at its second move and a comment, its engine lines
    shown, in ``lang`` at ``viewport``: the page to look at."""
    context = browser.new_context(viewport=viewport, locale="ja-JP" if lang == "ja" else "en-US")
    context.add_init_script(f"localStorage.setItem('boardplay.lang', '{lang}')")
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    open_from_start(page, server, "potlatch")
    rng = random.Random(5)
    play_one(page, rng)
    for _ in range(3):
        play_one(page, rng)
        play_one(page, rng)
        page.click("#tree .tree-move[data-node='1']")
        page.wait_for_selector(f"{STATUS}[data-node='1']")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#analysis-status').dataset.node !== '1'")
    page.fill("#comment-text", "A quiet move" if lang == "en" else "静かな一手")
    page.click("#comment-save")
    page.wait_for_selector("#tree .tree-move.commented")
    page.select_option("#lines-level", "easy")
    page.click("#lines-ask")
    page.wait_for_selector("#lines li .line-move", timeout=120_000)
    return page


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("screen", ["desktop", "phone"])
def test_the_page_as_a_first_time_player_sees_it(
    browser: Any, server: str, lang: str, screen: str
) -> None:
    page = shown_with_lines(browser, server, lang, DESKTOP if screen == "desktop" else PHONE)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"analysis-{screen}-{lang}.png"), full_page=True)
    if lang == "ja":
        assert english_left(shown(page)) == [], english_left(shown(page))
    assert not page.errors, page.errors
    page.context.close()


def test_axe_finds_nothing_serious_on_the_analysis_pages(browser: Any, server: str) -> None:
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")
    page = shown_with_lines(browser, server, "en", DESKTOP)
    found = []
    for where in ("study", "start"):
        if where == "start":
            page.goto("about:blank")
            page.goto(f"{server}/#/analysis")
            page.wait_for_selector("#analysis-game")
        for v in axe.Axe().run(page).response["violations"]:
            if v["impact"] in ("serious", "critical"):
                found.append(f"{where}: {v['id']}: {[n['html'][:100] for n in v['nodes'][:3]]}")
    page.context.close()
    assert not found, found


# ----- what the page reads (over HTTP) -------------------------------------------------------
def test_a_position_carries_its_moves_structs_and_words(server: str) -> None:
    """The board offers a study's legal moves by their structs (as a game view's), and the page
    says and marks the move that led to the position; a game's view says who may analyse it."""
    study = httpcalls.post(f"{server}/api/analysis", json={"game": "potlatch"}).json()
    first = httpcalls.get(f"{server}/api/analysis/{study['id']}/nodes/0").json()
    assert first["moved"] is None
    assert all(m["struct"] and m["words"] and m["say"] for m in first["legal"]), first["legal"]
    game = finished_game(server)
    view = httpcalls.get(f"{server}/api/games/{game}").json()
    assert view["analysable"] == "anyone"
    made = httpcalls.post(f"{server}/api/analysis", json={"from_game": game}).json()
    last = made["nodes"][-1]
    position = httpcalls.get(f"{server}/api/analysis/{made['id']}/nodes/{last['id']}").json()
    assert position["moved"]["move"] == last["move"] and position["moved"]["words"]
    assert position["moved"]["struct"]["ends"]["winners"] == position["result"]["winners"]
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    running = httpcalls.post(f"{server}/api/games", json={"game": "proteus", "seats": seats}).json()
    assert running["game"]["analysable"] == "spectators"
