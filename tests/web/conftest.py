"""Fixtures of the web tests: an app on a fresh SQLite file, serving the tiny test game (or the
real registry), with AI moves in a thread so tests need not spawn processes."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
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
