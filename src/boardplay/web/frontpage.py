"""The page every visit starts from and the front end it loads: one script and one style sheet.

The front end is written as plain ES modules (``static/``), but a page that loads them one by one
waits a round trip for every level of imports and queues behind the browser's six connections:
on a slow connection that, not the bytes, kept a page from being usable for seconds. esbuild
(``make bundle``) joins ``app.js`` with everything it imports, every game's board module
included (the lobby's cards draw from all of them), and ``style.css``, into ``static/dist``
under names that carry a hash of their content. A changed file is a new name, so a browser may
keep each one for a year without asking again; only the page, which names them, is asked for
every time.

A third, small entry, ``early.js``, is written into the page itself: it asks for the first API
answers the page will show (the session, the lobby's catalogue, a game's view) while the bundle
is still on its way, so those round trips overlap the bundle's download instead of following it.

The bundle is read into memory once, with its gzipped form, when the server starts: a rebuild of
the working tree while a server runs then never takes away a file its page names."""

from __future__ import annotations

import functools
import gzip
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html import escape
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response

DIST = "dist"
"""The bundle's folder under ``static`` (git-ignored, built by ``make bundle``)."""
ENTRIES = {"/static/app.js": r"app-\w+\.js", "/static/style.css": r"style-\w+\.css"}
"""What ``index.html`` names, and the pattern of the bundled file that replaces it."""
EARLY = ('<script type="module" src="/static/early.js"></script>', r"early-\w+\.js")
"""The tag of ``index.html`` that the bundled ``early.js`` replaces, written into the page as a
classic script: the browser runs it as it reads the page, before any module script, where an
``async`` module could run after the bundle had asked for the same answers itself."""
IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {".js": "text/javascript", ".css": "text/css", ".map": "application/json"}


@dataclass(frozen=True)
class Built:
    """One file of the bundle, as sent: plain and gzipped."""

    body: bytes
    packed: bytes
    media_type: str


class FrontEnd:
    """The page (``index.html`` naming the bundle's files) and the bundle's files by name."""

    def __init__(self, static: Path) -> None:
        folder = static / DIST
        names = sorted(p.name for p in folder.glob("*") if p.suffix in TYPES)
        page = (static / "index.html").read_text("utf-8")

        def named(source: str, pattern: str) -> str:
            found = [name for name in names if re.fullmatch(pattern, name)]
            if len(found) != 1 or source not in page:
                raise RuntimeError(
                    f"the front end's bundle in {folder} is missing or mixed ({found}): "
                    "run `make bundle`"
                )
            return found[0]

        for source, pattern in ENTRIES.items():
            name = named(f'"{source}"', pattern)
            page = page.replace(f'"{source}"', f'"/static/{DIST}/{name}"')
        name = named(*EARLY)
        code = (folder / name).read_text("utf-8").strip()
        code = code.replace(f"sourceMappingURL={name}", f"sourceMappingURL=/static/{DIST}/{name}")
        if "</script" in code.lower():
            raise RuntimeError(f"{folder / name} would end the <script> it is written into")
        self.page = page.replace(EARLY[0], f"<script>{code}</script>")
        self.files: dict[str, Built] = {}
        for name in names:
            body = (folder / name).read_bytes()
            self.files[name] = Built(body, _gzipped(body), TYPES[Path(name).suffix])

    def page_for(self, games: Iterable[str]) -> str:
        """The page, naming the games this server offers (``<body data-games>``): every game's
        words are in its board module, and app.js loads the modules of these games before it
        draws the first page, which may name a game before it draws its board (a title, a
        challenge). The bundle holds every board module, so this asks the network for nothing."""
        return self.page.replace("<body>", f'<body data-games="{escape(" ".join(games))}">', 1)

    def response(self, name: str, headers: Headers) -> Response:
        """A bundled file, kept a year by the browser (its name changes with its content), gzipped
        for a browser that accepts it; 304 to a browser that already holds it."""
        built = self.files.get(name)
        if built is None:
            raise HTTPException(404)
        etag = f'"{name}"'
        sent = {"Cache-Control": IMMUTABLE, "ETag": etag, "Vary": "Accept-Encoding"}
        if headers.get("if-none-match") == etag:
            return Response(status_code=304, headers=sent)
        if "gzip" in headers.get("accept-encoding", ""):
            sent["Content-Encoding"] = "gzip"
            return Response(built.packed, media_type=built.media_type, headers=sent)
        return Response(built.body, media_type=built.media_type, headers=sent)


@functools.lru_cache(maxsize=16)
def _gzipped(body: bytes) -> bytes:
    """``body`` gzipped at the highest level, once per content in a process: compressing the
    bundle takes about 0.2 s, and an app is made many times in one process (every test's own)."""
    return gzip.compress(body, compresslevel=9, mtime=0)
