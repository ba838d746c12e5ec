"""The page a visit starts from loads the front end as esbuild's bundle (``make bundle``): one
script and one style sheet under names that carry their content's hash, kept a year by the
browser and sent gzipped; the page itself and the unbundled sources are asked again on every
use. A page needs a handful of requests: the page, the bundle, and the API answers it shows."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from browsing import hold_seat
from fastapi.testclient import TestClient

from boardplay.web.frontpage import IMMUTABLE, FrontEnd

GZIP = {"Accept-Encoding": "gzip"}


def bundled(page: str) -> list[str]:
    """The addresses of the script and style sheet ``page`` names."""
    return re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"', page)


def test_the_page_names_the_bundle_only(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    assert "modulepreload" not in page.text
    script, style = sorted(bundled(page.text))
    assert re.fullmatch(r"/static/dist/app-\w+\.js", script), script
    assert re.fullmatch(r"/static/dist/style-\w+\.css", style), style
    assert page.text.count('rel="stylesheet"') == 1 and "/static/early.js" not in page.text
    # early.js is written into the page: the first API answers are asked before the bundle comes.
    early = re.search(r"<script>(.*?)</script>", page.text, re.S)
    assert early and "/api/account/me" in early[1] and "boardplayEarly" in early[1]
    assert page.text.count("<script") == 2


def test_the_page_names_the_games_offered(client: TestClient) -> None:
    """app.js loads these games' board modules, which hold their words, before the first page."""
    assert '<body data-games="tiny">' in client.get("/").text


def test_the_bundle_is_kept_a_year_and_sent_gzipped(client: TestClient) -> None:
    script, style = sorted(bundled(client.get("/").text))
    for address, kind in ((script, "text/javascript"), (style, "text/css")):
        plain = client.get(address, headers={"Accept-Encoding": "identity"})
        packed = client.get(address, headers=GZIP)
        assert plain.status_code == packed.status_code == 200, address
        assert plain.headers["content-type"].startswith(kind)
        assert plain.headers.get("content-encoding") is None
        assert packed.headers["content-encoding"] == "gzip" and packed.content == plain.content
        assert int(packed.headers["content-length"]) < len(plain.content) / 2
        for answer in (plain, packed):
            assert answer.headers["cache-control"] == IMMUTABLE
            assert answer.headers["vary"] == "Accept-Encoding"
        again = client.get(address, headers={"If-None-Match": plain.headers["etag"]})
        assert again.status_code == 304 and not again.content
    # The script names its source map (the sources, for a debugger), served the same way.
    body = client.get(script).text
    assert body.rstrip().endswith(f"//# sourceMappingURL={Path(script).name}.map")
    source_map = client.get(f"{script}.map")
    assert source_map.status_code == 200 and source_map.headers["cache-control"] == IMMUTABLE
    assert "boards/potlatch.js" in source_map.text  # every game's board module is in the bundle
    assert client.get("/static/dist/meta.json").status_code == 404  # esbuild's notes stay home
    assert client.get("/static/dist/app-NOSUCH.js").status_code == 404


def test_unbundled_files_are_asked_again_before_each_use(client: TestClient) -> None:
    """The sources keep their names (the mail pages' style sheet links one), so a browser must
    check them before using a copy: no-cache with an ETag, and a 304 while it still holds."""
    first = client.get("/static/style.css", headers=GZIP)
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    assert first.headers["content-encoding"] == "gzip"
    again = client.get("/static/style.css", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304


def test_only_answers_the_same_for_everyone_are_compressed(client: TestClient) -> None:
    """The catalogue and the translations are the same for every visitor and carry no text a
    visitor chose: compressed. A visitor's own answers are not (BREACH)."""
    for path in ("/api/catalogue", "/api/i18n/ja"):
        answer = client.get(path, headers=GZIP)
        assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip", path
    mine = client.get("/api/account/me", headers=GZIP)
    assert mine.status_code == 200 and mine.headers.get("content-encoding") is None


def test_a_missing_bundle_stops_the_server_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<link rel="stylesheet" href="/static/style.css">'
        '<script type="module" src="/static/app.js"></script>'
    )
    with pytest.raises(RuntimeError, match="make bundle"):
        FrontEnd(tmp_path)
    (tmp_path / "dist").mkdir()
    for name in ("app-OLD.js", "app-NEW.js", "style-A.css", "early-B.js"):  # two builds mixed
        (tmp_path / "dist" / name).write_text("x")
    with pytest.raises(RuntimeError, match="make bundle"):
        FrontEnd(tmp_path)
    (tmp_path / "dist" / "app-OLD.js").unlink()
    with pytest.raises(RuntimeError, match="make bundle"):  # index.html without early.js's tag
        FrontEnd(tmp_path)
    (tmp_path / "index.html").write_text(
        '<script type="module" src="/static/early.js"></script>'
        + (tmp_path / "index.html").read_text()
    )
    front = FrontEnd(tmp_path)
    assert bundled(front.page) == ["/static/dist/style-A.css", "/static/dist/app-NEW.js"]
    assert front.page.startswith("<script>x</script>")
    assert gzip.decompress(front.files["app-NEW.js"].packed) == b"x"


def requests_of(
    browser: Any, url: str, ready: str, seat: tuple[str, str] | None = None
) -> list[str]:
    """The addresses a fresh browser (holding ``seat``'s game id and token, and reading
    Japanese, if given) asks the server for while opening ``url``, until ``ready`` shows and the
    network is idle (pictures drawn from ``data:`` addresses are no request)."""
    context = browser.new_context()
    if seat is not None:
        hold_seat(context, *seat, "ja", "potlatch")
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    context.close()
    return [address for address in asked if not address.startswith("data:")]


@pytest.mark.browser
def test_a_page_needs_a_handful_of_requests(browser: Any, server: str) -> None:
    """The lobby and a game page, a spectator's and its player's (in Japanese): the page, the
    bundle's script and style sheet, and the API answers shown, each asked once (the answers
    early.js asks for ahead, the player's view with the seat's token among them, are taken up,
    not asked again); no source module is loaded on its own. The lobby's ten: the page, its
    script and style, who is signed in, the catalogue, the preview of the new-game form, the
    tournaments, TV, and the open and recent games."""
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    made = httpx.post(f"{server}/api/games", json={"game": "potlatch", "seats": seats})
    assert made.status_code == 201, made.text
    game = f"{server}/#/game/{made.json()['id']}"
    seat = (made.json()["id"], made.json()["token"])
    for url, ready, held in (
        (f"{server}/", "article.card", None),
        (game, "#board svg", None),
        (game, "#board svg", seat),
    ):
        asked = requests_of(browser, url, ready, held)
        assert len(asked) <= 10 and len(asked) == len(set(asked)), "\n".join(asked)
        static = [a.removeprefix(server) for a in asked if "/static/" in a]
        assert sorted(static) == sorted(bundled(httpx.get(f"{server}/").text)), static
        if held:
            assert f"{server}/api/i18n/ja" in asked
