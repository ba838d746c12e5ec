"""The page a visit starts from preloads every module the first screen imports, read from the
modules themselves: the app's static imports and every game's board module (loaded by name with
``import()``; the lobby's cards draw from them)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from boardplay.web.app import static_dir
from boardplay.web.frontpage import static_imports

STATIC = Path(static_dir())


def test_the_page_preloads_the_first_screens_modules(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-cache"
    preloaded = re.findall(r'<link rel="modulepreload" href="/static/([^"]+)">', page.text)
    assert preloaded[0] == "app.js" and len(preloaded) == len(set(preloaded))
    assert {"dom.js", "text.js", "strings.js", "strings-games.js"} <= set(preloaded)
    assert {"pages/game.js", "live.js"} <= set(preloaded)
    boards = {"boards/potlatch.js", "boards/proteus.js", "boards/passtally.js", "boards/montana.js"}
    assert boards | {"boards/montana-map.js", "boards/miniframe.js"} <= set(preloaded)
    for name in preloaded:
        assert client.get(f"/static/{name}").status_code == 200, name
    assert page.text.index("modulepreload") < page.text.index('<script type="module"')


def test_every_statically_imported_module_is_found(tmp_path: Path) -> None:
    (tmp_path / "pages").mkdir()
    (tmp_path / "app.js").write_text(
        'import { a } from "./a.js";\nimport {\n  b,\n} from "./pages/b.js";\n'
        'export { c } from "./c.js";\nconst board = await import(`./boards/${name}.js`);\n'
    )
    (tmp_path / "a.js").write_text('import "./c.js";\n')
    (tmp_path / "pages" / "b.js").write_text('import { a } from "../a.js";\n')
    (tmp_path / "c.js").write_text("export const c = 1;\n")
    assert static_imports(tmp_path) == ["app.js", "a.js", "pages/b.js", "c.js"]


def test_the_real_front_end_imports_resolve() -> None:
    """Every module the preload list names exists (a renamed file would break the page)."""
    for name in static_imports(STATIC):
        assert (STATIC / name).is_file(), name
