"""``make i18n`` (docs/i18n.md): extract the message templates from the sources and merge them into
every language's catalogue, creating a missing one. Then translate the new (empty or fuzzy)
entries of the Japanese catalogues and run the tests.

- ``cli``: what the command line prints (``babel.cfg``, ``src/boardplay/cli``), in
  ``src/boardplay/i18n/locale``;
- ``web``, the site's words: the table of ``web/static/strings.js`` (``babel-web.cfg`` over
  ``src/boardplay/web``, the games' board modules left out), in ``src/boardplay/i18n/locale``;
- ``web``, each game's words, in the game's own folder (``games/<game>/locale``, beside its
  rules): the ``EN`` table of its board module (``web/static/boards/<game>.js``) and the
  ``say("...")`` phrases of its ``describe.py`` and ``ending.py`` (``babel-web.cfg`` over those).
  ``boardplay.i18n.catalog`` reads them with the site's as one ``web`` catalogue.

The games are the registry's (``boardplay.available()``): a new game's folder gets its catalogue
here, and nothing outside the folder changes for it.

``.venv/bin/python tools/catalogues.py [--root DIR]`` (``--root``: a checkout laid out like this
one, as the fifth game's test lays one out).
"""

from __future__ import annotations

import argparse
import importlib.resources
import os
import subprocess
import sys
from pathlib import Path

import boardplay
from boardplay.core.registry import available, package_of
from boardplay.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
COMMON = (
    "-c",
    "TRANSLATORS:",
    "--no-wrap",
    "--sort-by-file",
    "--project",
    "boardplay",
    "--version",
    boardplay.__version__,
    "--copyright-holder",
    "the boardplay authors",
    "--msgid-bugs-address",
    "the boardplay issue tracker",
)
WEB_KEYWORDS = ("--no-default-keywords", "-k", "say", "-k", "pgettext:1c,2")


def _pybabel(*arguments: str, root: Path) -> None:
    command = [str(Path(sys.executable).parent / "pybabel"), "-q", *arguments]
    subprocess.run(command, check=True, cwd=root)


def game_folder(name: str) -> Path:
    """The folder of the registered game ``name`` (wherever its package lies)."""
    return Path(str(importlib.resources.files(package_of(name))))


def extract_cli(root: Path = ROOT) -> Path:
    """The command line's template (``cli.pot``); returns its locale folder."""
    locales = root / "src" / "boardplay" / "i18n" / "locale"
    _pybabel(
        *("extract", "-F", "babel.cfg", "-k", "N_", *COMMON),
        *("-o", str(locales / "cli.pot"), "src/boardplay/cli"),
        root=root,
    )
    return locales


def extract_site(root: Path = ROOT) -> Path:
    """The site's words (``web.pot``): the web's tables but the games' board modules."""
    locales = root / "src" / "boardplay" / "i18n" / "locale"
    _pybabel(
        *(
            "extract",
            "-F",
            "babel-web.cfg",
            *WEB_KEYWORDS,
            *COMMON,
            "--ignore-dirs",
            ".* ._ boards",
        ),
        *("-o", str(locales / "web.pot"), "src/boardplay/web"),
        root=root,
    )
    return locales


def extract_game(name: str, root: Path = ROOT) -> Path:
    """The game's words (``games/<game>/locale/web.pot``): its board module's table and its
    describer's and end describer's phrases; returns its locale folder."""
    folder = game_folder(name)
    board = root / "src" / "boardplay" / "web" / "static" / "boards" / f"{name}.js"
    (folder / "locale").mkdir(exist_ok=True)
    _pybabel(
        *("extract", "-F", "babel-web.cfg", *WEB_KEYWORDS, *COMMON),
        *("-o", str(folder / "locale" / "web.pot")),
        *(os.path.relpath(path, root) for path in (board, folder)),
        root=root,
    )
    return folder / "locale"


def extract(root: Path = ROOT) -> list[tuple[Path, str]]:
    """Write every template; returns ``(locale folder, domain)`` for each."""
    done = [(extract_cli(root), "cli"), (extract_site(root), "web")]
    return done + [(extract_game(name, root), "web") for name in available()]


def update(templates: list[tuple[Path, str]], root: Path = ROOT) -> None:
    """Merge each template into its catalogue in every language (created if missing)."""
    for locale, domain in templates:
        for lang in LANGUAGES:
            _pybabel(
                *("update", "--init-missing", "--ignore-obsolete", "--no-wrap"),
                *("-D", domain, "-l", lang, "-i", str(locale / f"{domain}.pot"), "-d", str(locale)),
                root=root,
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout (default: this one)")
    arguments = parser.parse_args(argv)
    update(extract(arguments.root), arguments.root)


if __name__ == "__main__":
    main()
