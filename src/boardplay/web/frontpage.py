"""The page every visit starts from and the front end it loads: one script and one style sheet,
and the script of a group of pages when one of them is first opened.

The front end is written as plain ES modules (``static/``), but a page that loads them one by one
waits a round trip for every level of imports and queues behind the browser's six connections:
on a slow connection that, not the bytes, kept a page from being usable for seconds. esbuild
(``make bundle``) joins ``app.js`` with everything it imports, every game's board module
included (the lobby's cards draw from all of them), and ``style.css``, into ``static/dist``
under names that carry a hash of their content. A changed file is a new name, so a browser may
keep each one for a year without asking again; only the page, which names them, is asked for
every time.

The pages the lobby does not show (a game's table, the account, a tournament...) are not in that
script: each group of them (``static/later/``) is a file of its own, which app.js imports when
one of its pages is first opened (esbuild's ``--splitting``). Their code then never weighs on a
visit that does not open them. esbuild's notes on the build (``meta.json``) say which file holds
app.js's code (app.js's own file is only a door to it, and naming that would cost the page one
more request) and which files each group needs.

A third, small entry, ``early.js``, is written into the page itself: it asks for the first API
answers the page will show (the session, the lobby's catalogue, a game's view) while the bundle
is still on its way, so those round trips overlap the bundle's download instead of following it;
a visit that starts on a page of a group asks for the group's files as early (the page gives
early.js their names), rather than once app.js has run.

The bundle is read into memory once, with its gzipped form, when the server starts: a rebuild of
the working tree while a server runs then never takes away a file its page names."""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from html import escape
from pathlib import Path, PurePosixPath
from typing import Any

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response

DIST = "dist"
"""The bundle's folder under ``static`` (git-ignored, built by ``make bundle``)."""
META = "meta.json"
"""esbuild's notes on the build of app.js and style.css (``--metafile``): read, never served."""
ENTRIES = ("app.js", "style.css")
"""What ``index.html`` names (as ``/static/<source>``), replaced by the bundled file holding
its code."""
LATER = "later"
"""The folder of the groups of pages loaded when first opened (``static/later/``)."""
EARLY = ('<script type="module" src="/static/early.js"></script>', r"early-\w+\.js")
"""The tag of ``index.html`` that the bundled ``early.js`` replaces, written into the page as a
classic script: the browser runs it as it reads the page, before any module script, where an
``async`` module could run after the bundle had asked for the same answers itself."""
IMMUTABLE = "public, max-age=31536000, immutable"
TYPES = {".js": "text/javascript", ".css": "text/css", ".map": "application/json"}


@dataclass(frozen=True)
class Built:
    """One file of the bundle, as sent: plain, and gzipped when first asked for so (most of the
    bundle's bytes are source maps, which only a browser's developer tools ask for)."""

    body: bytes
    media_type: str

    @property
    def packed(self) -> bytes:
        return _gzipped(self.body)


class FrontEnd:
    """The page (``index.html`` naming the bundle's files) and the bundle's files by name."""

    def __init__(self, static: Path) -> None:
        folder = static / DIST
        names = sorted(p.name for p in folder.glob("*") if p.suffix in TYPES)
        page = (static / "index.html").read_text("utf-8")

        def broken(why: str) -> RuntimeError:
            return RuntimeError(f"the front end's bundle in {folder} {why}: run `make bundle`")

        try:
            build = Build(json.loads((folder / META).read_text("utf-8")))
            held = {source: build.holder(source) for source in ENTRIES}
            # Each group of pages by name (static/later/<name>.js): the files a visit that starts
            # on one of its pages needs besides app.js's (early.js asks for them at once).
            groups = build.groups()
        except (OSError, ValueError, KeyError) as error:
            raise broken(f"has no readable {META} ({error})") from error
        for source, name in held.items():
            if name not in names or f'"/static/{source}"' not in page:
                raise broken(f"is missing or mixed (no {name} for {source})")
            page = page.replace(f'"/static/{source}"', f'"/static/{DIST}/{name}"')
        if missing := {n for files in groups.values() for n in files} - set(names):
            raise broken(f"is missing {sorted(missing)}")
        found = [name for name in names if re.fullmatch(EARLY[1], name)]
        if len(found) != 1 or EARLY[0] not in page:
            raise broken(f"is missing or mixed ({found})")
        name = found[0]
        code = (folder / name).read_text("utf-8").strip()
        code = code.replace(f"sourceMappingURL={name}", f"sourceMappingURL=/static/{DIST}/{name}")
        if "</script" in code.lower():
            raise RuntimeError(f"{folder / name} would end the <script> it is written into")
        later = {group: [f"/static/{DIST}/{n}" for n in files] for group, files in groups.items()}
        # In single quotes, so JSON's own double quotes need no escaping (a name has no quote).
        attribute = escape(json.dumps(later, separators=(",", ":")), quote=False).replace(
            "'", "&#x27;"
        )
        self.page = page.replace(EARLY[0], f"<script data-later='{attribute}'>{code}</script>")
        self.files: dict[str, Built] = {}
        for name in names:
            body = (folder / name).read_bytes()
            self.files[name] = Built(body, TYPES[Path(name).suffix])

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


class Build:
    """esbuild's notes on one build (its ``--metafile``): which file holds a source's code, and
    which files a group of pages needs."""

    def __init__(self, meta: dict[str, Any]) -> None:
        self.outputs: dict[str, dict[str, Any]] = {
            PurePosixPath(path).name: output
            for path, output in meta["outputs"].items()
            if not path.endswith(".map")
        }

    def entries(self, wanted: Callable[[PurePosixPath], bool]) -> dict[str, str]:
        """The bundle's entry points (as esbuild names them, relative to where it ran) whose
        source ``wanted`` accepts, each with the name of its own file."""
        found = {}
        for name, output in self.outputs.items():
            if "entryPoint" in output and wanted(PurePosixPath(output["entryPoint"])):
                found[output["entryPoint"]] = name
        return found

    def holder(self, source: str) -> str:
        """The file holding the code of the entry ``source`` (of ``static``): its own, unless
        esbuild moved the code into a chunk other entries import too, leaving in the entry's
        file only an import of that chunk."""
        entries = self.entries(lambda path: path.name == source and path.parent.name != LATER)
        holders = [n for n, o in self.outputs.items() if set(entries) & set(o["inputs"])]
        if len(entries) != 1 or len(holders) != 1:
            raise KeyError(f"{source} is in {holders or 'no file'}")
        return holders[0]

    def groups(self) -> dict[str, list[str]]:
        """Each group of ``static/later/`` by name: its file and the files it imports, but for
        those app.js's code imports (a page loads them with app.js)."""
        shell = self.needs(self.holder("app.js"))
        entries = self.entries(lambda path: path.parent.name == LATER)
        return {PurePosixPath(e).stem: sorted(self.needs(n) - shell) for e, n in entries.items()}

    def needs(self, name: str) -> set[str]:
        """The file ``name`` and those it imports, directly or not (not those it may import
        later: ``import()``)."""
        needed = {name}
        for imported in self.outputs[name].get("imports", []):
            other = PurePosixPath(imported["path"]).name
            if imported["kind"] == "import-statement" and other not in needed:
                needed |= self.needs(other)
        return needed


@functools.lru_cache(maxsize=64)
def _gzipped(body: bytes) -> bytes:
    """``body`` gzipped at the highest level, once per content in a process (the bundle has
    about 20 files): compressing all of it takes about 0.2 s, and an app is made many times in
    one process (every test's own)."""
    return gzip.compress(body, compresslevel=9, mtime=0)
