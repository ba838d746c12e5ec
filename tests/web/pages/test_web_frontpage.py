"""The page a visit starts from loads the front end as esbuild's bundle (``make bundle``): one
script and one style sheet under names that carry their content's hash, kept a year by the
browser and sent gzipped; the page itself and the unbundled sources are asked again on every
use. A page needs a handful of requests: the page, the bundle, the file of the group of pages
it belongs to if it is not the lobby (``static/later/``), and the API answers it shows. The
script every visit loads holds no page of a group (tests/web/pages/test_web_later.py opens
each)."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path
from typing import Any

import httpcalls
import pytest
from browsing import GAMES, hold_seat
from fastapi.testclient import TestClient

from boardplay.web.app import static_dir
from boardplay.web.frontpage import IMMUTABLE, Build, FrontEnd

GZIP = {"Accept-Encoding": "gzip"}
STATIC = Path(static_dir())
LATER_PAGES = {
    "play": [
        "pages/game.js",
        "pages/replay.js",
        "pages/rules.js",
        "pages/tvchannel.js",
        "pages/puzzles.js",
    ],
    "account": ["pages/account.js", "pages/turns.js"],
    "tournament": ["pages/tournament.js"],
    "following": ["pages/following.js"],
    "moderation": ["moderation/page.js"],
}
"""The pages of each group of ``static/later/`` (later/routes.js), which the lobby's script must
not hold."""


def bundled(page: str) -> list[str]:
    """The addresses of the script and style sheet ``page`` names."""
    return re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"', page)


def later(page: str) -> dict[str, list[str]]:
    """The addresses of each group's files as ``page`` gives them to early.js."""
    found = re.search(r"<script data-later='([^']*)'>", page)
    assert found, "the page gives early.js no group's files"
    return dict(json.loads(found[1].replace("&amp;", "&")))


def build() -> tuple[Build, dict[str, Any]]:
    """esbuild's notes on the bundle the servers serve, and its inputs by file."""
    meta = json.loads((STATIC / "dist" / "meta.json").read_text())
    held = {Path(path).name: output["inputs"] for path, output in meta["outputs"].items()}
    return Build(meta), held


def test_the_page_names_the_bundle_only(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    assert 'rel="modulepreload"' not in page.text  # nothing fetched ahead but for its route
    script, style = sorted(bundled(page.text))
    notes, _ = build()
    # The file holding app.js's code, not app.js's own, which would only import it.
    assert script == f"/static/dist/{notes.holder('app.js')}", script
    assert re.fullmatch(r"/static/dist/chunk-\w+\.js", script), script
    assert re.fullmatch(r"/static/dist/style-\w+\.css", style), style
    assert page.text.count('rel="stylesheet"') == 1 and "/static/early.js" not in page.text
    # early.js is written into the page: the first API answers are asked before the bundle comes.
    early = re.search(r"<script data-later='[^']*'>(.*?)</script>", page.text, re.S)
    assert early and "/api/account/me" in early[1] and "boardplayEarly" in early[1]
    assert page.text.count("<script") == 2
    groups = later(page.text)
    assert sorted(groups) == sorted(LATER_PAGES)
    for group, files in groups.items():
        assert files == [f"/static/dist/{n}" for n in notes.groups()[group]], group
        assert all(client.get(f).status_code == 200 for f in files), files


def test_the_lobbys_script_holds_no_page_of_a_group_and_every_board() -> None:
    """What keeps the first load light: a page of a group that a module of the lobby imported
    again (not through app.js's ``import()``) would be back in the script every visit loads.
    Every registered game's board module is in it (boards/load.js lists them): a page draws the
    offered games' cards and words before anything else."""
    notes, held = build()
    first = {name[len("src/boardplay/web/static/") :] for name in held[notes.holder("app.js")]}
    for group, pages in LATER_PAGES.items():
        assert not first & set(pages), f"{group}'s pages in the first load: {first & set(pages)}"
        (own,) = [name for name in notes.groups()[group] if name.startswith(f"{group}-")]
        assert set(pages) <= {n[len("src/boardplay/web/static/") :] for n in held[own]}
    assert {f"boards/{game}.js" for game in GAMES} <= first
    assert "later/routes.js" in first and "pages/lobby.js" in first


def test_the_page_names_the_games_offered(client: TestClient) -> None:
    """app.js loads these games' board modules, which hold their words, before the first page."""
    assert '<body data-games="tiny">' in client.get("/").text


def test_the_bundle_is_kept_a_year_and_sent_gzipped(client: TestClient) -> None:
    page = client.get("/").text
    script, style = sorted(bundled(page))
    (play,) = later(page)["play"]
    for address, kind in (
        (script, "text/javascript"),
        (style, "text/css"),
        (play, "text/javascript"),
    ):
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


def notes(*outputs: tuple[str, str | None, list[str], list[str]]) -> str:
    """A metafile as esbuild writes one: each output's file, entry point, inputs and imports."""
    where = "src/boardplay/web/static"
    return json.dumps(
        {
            "outputs": {
                f"{where}/.dist-new/{name}": {
                    **({"entryPoint": f"{where}/{entry}"} if entry else {}),
                    "inputs": {f"{where}/{source}": {} for source in inputs},
                    "imports": [
                        {"path": f"{where}/.dist-new/{o}", "kind": "import-statement"}
                        for o in imports
                    ],
                }
                for name, entry, inputs, imports in outputs
            }
        }
    )


def test_a_missing_bundle_stops_the_server_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        '<link rel="stylesheet" href="/static/style.css">'
        '<script type="module" src="/static/app.js"></script>'
    )
    with pytest.raises(RuntimeError, match="make bundle"):
        FrontEnd(tmp_path)
    dist = tmp_path / "dist"
    dist.mkdir()
    for name in ("app-NEW.js", "chunk-C.js", "play-P.js", "style-A.css", "early-B.js"):
        (dist / name).write_text("x")
    with pytest.raises(RuntimeError, match="make bundle"):  # no notes on the build
        FrontEnd(tmp_path)
    built = [
        ("app-NEW.js", "app.js", [], ["chunk-C.js"]),
        ("chunk-C.js", None, ["app.js", "pages/lobby.js"], []),
        ("play-P.js", "later/play.js", ["later/play.js", "pages/game.js"], ["chunk-C.js"]),
        ("style-A.css", "style.css", ["style.css"], []),
    ]
    (dist / "meta.json").write_text(notes(*built[1:]))  # app.js is no entry of this build
    with pytest.raises(RuntimeError, match="make bundle"):
        FrontEnd(tmp_path)
    (dist / "meta.json").write_text(notes(*built))
    (dist / "play-P.js").unlink()  # a file the notes name is missing: two builds mixed
    with pytest.raises(RuntimeError, match="make bundle"):
        FrontEnd(tmp_path)
    (dist / "play-P.js").write_text("x")
    with pytest.raises(RuntimeError, match="make bundle"):  # index.html without early.js's tag
        FrontEnd(tmp_path)
    (tmp_path / "index.html").write_text(
        '<script type="module" src="/static/early.js"></script>'
        + (tmp_path / "index.html").read_text()
    )
    front = FrontEnd(tmp_path)
    # The page names the file holding app.js's code; early.js gets the group's file, not the
    # chunk every page loads already.
    assert bundled(front.page) == ["/static/dist/style-A.css", "/static/dist/chunk-C.js"]
    assert later(front.page) == {"play": ["/static/dist/play-P.js"]}
    assert front.page.startswith("<script data-later='") and "'>x</script>" in front.page
    assert gzip.decompress(front.files["play-P.js"].packed) == b"x"


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
    bundle's script and style sheet, a game page's group (later/play.js), and the API answers
    shown, each asked once (the answers early.js asks for ahead, the player's view with the
    seat's token among them, are taken up, not asked again); no source module is loaded on its
    own, and the lobby loads no group's file. The lobby's ten: the page, its script and style,
    who is signed in, the catalogue, the preview of the new-game form, the tournaments, TV, and
    the open and recent games."""
    seats = [{"kind": "me"}, {"kind": "hotseat"}]
    made = httpcalls.post(f"{server}/api/games", json={"game": "potlatch", "seats": seats})
    assert made.status_code == 201, made.text
    game = f"{server}/#/game/{made.json()['id']}"
    seat = (made.json()["id"], made.json()["token"])
    page = httpcalls.get(f"{server}/").text
    for url, ready, held, group in (
        (f"{server}/", "article.card", None, []),
        (game, "#board svg", None, later(page)["play"]),
        (game, "#board svg", seat, later(page)["play"]),
    ):
        asked = requests_of(browser, url, ready, held)
        assert len(asked) <= 10 and len(asked) == len(set(asked)), "\n".join(asked)
        static = [a.removeprefix(server) for a in asked if "/static/" in a]
        assert sorted(static) == sorted(bundled(page) + group), static
        if held:
            assert f"{server}/api/i18n/ja" in asked
