"""Fixtures of the web tests: an app on a fresh SQLite file, serving the tiny test game (or the
real registry), with AI moves in a thread so tests need not spawn processes."""

from __future__ import annotations

import re
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browsing import GAMES as GAME_NAMES
from browsing import SWALLOWED
from fastapi.testclient import TestClient
from websettings import TEST_LIMITS, tiny_settings

from boardplay.web.app import create_app
from boardplay.web.config import Settings


@pytest.fixture(scope="session", autouse=True)
def front_end_bundle() -> None:
    """The front end's bundle rebuilt if a source changed since (``make bundle``, a no-op
    otherwise): every app a web test starts serves it, so a test runs the sources beside it."""
    root = Path(__file__).resolve().parents[2]
    subprocess.run(["make", "-s", "-C", str(root), "bundle"], check=True)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tiny_settings(tmp_path))) as test_client:
        yield test_client


@pytest.fixture
def registry_client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'reg.sqlite3'}", ai_workers=1, limits=TEST_LIMITS
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


# ----- what make test leaves to make soak ------------------------------------------------------
SOAK_ONLY: dict[str, tuple[re.Pattern[str], str]] = {
    "test_bots_at_default_limits_lose_no_game_to_a_limit": (
        re.compile(r"5min"),
        "issue 63's five-minute runs; make test keeps one bot in eight games for 15 s",
    ),
    "test_berserk_plays_a_game_against_a_bot_and_a_person": (
        re.compile(r"montana"),
        "a minute of random Montana moves; Montana's stream is test_web_bots_streamed's",
    ),
    "test_follow_from_the_profile_and_see_where_they_are": (
        re.compile(r"desktop-ja|phone-en"),
        "each screen and each language once: desktop-en and phone-ja",
    ),
    "test_the_page_as_a_first_time_player_sees_it": (
        re.compile(r"desktop-ja|phone-en"),
        "each screen and each language once: desktop-en and phone-ja",
    ),
    "test_a_guest_watches_the_best_game_from_the_lobby": (
        re.compile(r"en-phone|ja-desktop"),
        "each screen and each language once: en-desktop and ja-phone",
    ),
    "test_the_walk_through_teaches_a_first_montana_turn_on_the_table": (
        re.compile(r"desktop-ja|phone-en"),
        "each screen and each language once: desktop-en and phone-ja",
    ),
    "test_a_page_of_a_group_opened_first_loads_its_group": (
        re.compile(
            r"(replay|rules|tv|signin|turns)/?[^-]*-ja"
            r"|^(account|analysis|following|game/\{game\}|moderation|tournament/\{tournament\})-en$"
        ),
        "make test opens each page once, in English or Japanese (a group of several pages in "
        "both); make soak opens every page in both",
    ),
    "test_play_against_the_ai_to_the_end_by_clicking": (
        re.compile(r"montana|passtally"),
        "Montana's whole game against the AI is test_web_montana's; Passtally's clicks are its "
        "walk-through's and hot seat's, a game to its end against the AI Potlatch's and Proteus's",
    ),
    "test_the_notification_settings_in_every_state_desktop_and_phone": (
        re.compile(r"en"),
        "every state on both screens in Japanese; the English words are the same code's",
    ),
    "test_a_phone_misses_one_and_is_shown_the_answer": (
        re.compile(r"en"),
        "in Japanese; the English page is the same code's",
    ),
    "test_montana_against_the_ai_to_the_end_on_a_desktop": (
        re.compile(r"by-its-trigger"),
        "the whole game by its own trigger is 40 s of clicks; the turn limit ends it sooner",
    ),
    "test_the_floor_stores_and_relays_every_move": (
        re.compile(r"^2$"),
        "one process; the floor on two is test_a_row_is_read_against_the_floor_run_after_it's",
    ),
    "test_montana_hot_seat_to_the_end_on_a_phone": (
        re.compile(r""),
        "the phone's Montana table is test_web_montana's fit test; the end is the desktop's",
    ),
    "test_a_scoring_move_is_previewed_and_its_lines_traced": (
        re.compile(r"desktop|phone-en"),
        "the phone in Japanese (the desktop's scoring in English is the Passtally walk-through's)",
    ),
    "test_the_proteus_walk_through_teaches_a_whole_first_game": (
        re.compile(r"desktop-ja|phone-en"),
        "each screen and each language once: desktop-en and phone-ja",
    ),
    "test_the_passtally_walk_through_teaches_setup_the_two_actions_and_scoring": (
        re.compile(r"desktop-ja|phone-en"),
        "each screen and each language once: desktop-en and phone-ja",
    ),
    "test_hot_seat_by_board_clicks_alone": (
        re.compile(r"potlatch-phone|proteus-page|passtally-page|montana-phone"),
        "each game once, each screen twice: potlatch and montana on a page, the others a phone",
    ),
    "test_the_ending_is_marked_on_the_board_and_explained": (
        re.compile(
            r"-(stuck-at-start|final-round-tie|final-round-3p|no-tile-fits|unscored"
            r"|no-tile-fits-3p|turn-limit-3p|tiebreak-cattle|tiebreak-money|tiebreak-cattle-3p"
            r"|colour-goal|shape-goal|win-handed-over|met-while-placing)$"
        ),
        "each game's every kind of end once (its first case); the other cases of a kind, "
        "ties, three players and tie-breaks, are drawn by the same marks",
    ),
    "test_the_finished_game_stays_and_the_next_clock_waits_for_its_player": (
        re.compile(r"en-phone|ja-desktop|en-desktop"),
        "the phone in Japanese; the desktop and English are the same page and the same wait",
    ),
    "test_a_row_is_read_against_the_floor_run_after_it": (
        re.compile(r""),
        "a bench tool's reading (make bench-web runs it); the floor's own test stays",
    ),
    "test_every_game_takes_a_branch_on_its_own_board": (
        re.compile(r"passtally-2|montana-3"),
        "each game once (Passtally with three players, Montana with two)",
    ),
    "test_every_door_opens_every_game": (
        re.compile(r"potlatch|passtally|montana-2"),
        "Proteus and three-player Montana; Potlatch's doors are the journeys' own",
    ),
    "test_the_ending_is_explained_with_the_players_names": (
        re.compile(r"^(?!en-potlatch$|ja-montana$)"),
        "each language once, on the game page and on the replay of an uploaded record (the "
        "names come from the same code for every game and language)",
    ),
    "test_the_position_is_in_the_stream_as_everyone_sees_it": (
        re.compile(r"potlatch|proteus|passtally"),
        "Montana (the largest position, with what a seat may not see); the same path for "
        "every game",
    ),
    "test_the_lobby_comes_back_by_itself_after_the_connection_drops": (
        re.compile(r""),
        "flaky under load (twice in CI the page did not say Connecting within 30 s of the "
        "server's stop; alone it passes in 8 s): its cause is still open",
    ),
    "test_the_cells_the_words_name_are_labelled_on_the_board": (
        re.compile(r"desktop-ja|phone-en"),
        "each screen and each language once: desktop-en and phone-ja",
    ),
    "test_a_burst_of_follows_or_blocks_passes_the_ceiling_by_none": (
        re.compile(r"single-block|pair-follow"),
        "each ceiling (one account's, a pair's) and each kind once: one account's follows, a "
        "pair's blocks; follows and blocks share one counting",
    ),
    "test_the_last_move_is_animated_unless_motion_is_reduced": (
        re.compile(r"^(?!proteus).*-reduced$"),
        "every game's motion; reduced motion once (Proteus): one rule of the page's style",
    ),
    "test_gallery": (
        re.compile(
            r"^(?!potlatch-en-desktop$|proteus-ja-phone$|passtally-ja-desktop$|montana-en-phone$)"
        ),
        "each game once, each language and screen twice; make soak draws the README's pictures",
    ),
}
"""Test families whose every member make test need not run: the parametrized cases whose id
matches run under make soak only (``pytest -m soak``), with why."""
FIRST_OF_EACH = {
    "test_the_ending_is_marked_on_the_board_and_explained": "ja",
    "test_the_last_move_is_animated_unless_motion_is_reduced": "reduced",
}
"""Families whose variant (the Japanese words, reduced motion) make test runs on the first case
of each game only: every ending in English, every game's first in Japanese."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seen: set[tuple[str, str]] = set()
    for item in items:
        name = getattr(item, "originalname", item.name)
        spec = getattr(item, "callspec", None)
        case = spec.id if spec is not None else ""
        rule = SOAK_ONLY.get(name)
        if rule is not None and rule[0].search(case):
            item.add_marker(pytest.mark.soak)
        variant = FIRST_OF_EACH.get(name)
        if variant is not None and variant in case.split("-"):
            game = next((g for g in GAME_NAMES if g in case.split("-")), case)
            if (name, game) in seen:
                item.add_marker(pytest.mark.soak)
            seen.add((name, game))


# ----- browser tests (test_web_browser.py, test_web_table.py) ---------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``boardplay serve`` for the module, on a fresh database; a failure in its log fails
    the test that was running (``_page``), or the module's last test at its stop."""
    from browsing import check_server_logs, free_port, serve

    port = free_port()
    process = serve(tmp_path_factory.mktemp("browser") / "web.sqlite3", port)
    yield f"http://127.0.0.1:{port}"
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=30)
    check_server_logs()  # what it logged after the last page (a background task, its stop)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per test module: Playwright's sync API keeps an event loop running in the
    thread while it is open, so a longer-lived one would break every asyncio.run() after it."""
    from browsing import ARGS, CHROMIUM

    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian chromium is not installed (make chromium)")
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def _page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    """A fresh context's page; any script error on it, or failure the servers logged meanwhile
    (a describer's exception, any traceback), fails the test."""
    from browsing import check_server_logs

    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    # A move that loses on the spot asks first (a Potlatch dead end); the random player agrees.
    page.on("dialog", lambda dialog: dialog.accept())
    yield page
    context.close()
    assert not errors, errors
    check_server_logs()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from _page(browser, {"width": 1200, "height": 900})


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _page(browser, {"width": 390, "height": 844})


# ----- describers that fail must fail the test (in this process; browsing.py: in a server's) ---
@pytest.fixture(autouse=True)
def _no_swallowed_failures(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    yield
    records = [*caplog.get_records("setup"), *caplog.get_records("call")]
    swallowed = [r.getMessage() for r in records if r.getMessage().startswith(SWALLOWED)]
    assert not swallowed, f"a describer or view field failed: {swallowed[:3]}"


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on loopback (``devservices``); the URL of its ``postgres``
    database, for the tests that need the real database."""
    import devservices as ds

    try:
        with ds.postgres() as url:
            yield url
    except ds.ServiceUnavailable as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A throwaway Redis on loopback (``devservices``) for the tests of several processes."""
    import devservices as ds

    try:
        with ds.redis() as url:
            yield url
    except ds.ServiceUnavailable as exc:
        pytest.skip(str(exc))
