"""The ``web`` message catalogue: the front end's string table and the phrases of the moves in words
are extracted, every one has Japanese, and the pieces that build them refuse what they cannot
translate."""

from __future__ import annotations

import importlib.resources
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

import boardplay.i18n
import boardplay.web
from boardplay.core.registry import available, package_of
from boardplay.i18n import LANGUAGES, catalog, messages
from boardplay.i18n.phrase import Phrase, SeatName, Sentence, say
from boardplay.i18n.webtable import TableError, read_table

WEB = Path(boardplay.web.__file__).parent
MAPPING = Path(__file__).resolve().parents[2] / "babel-web.cfg"
STATIC = WEB / "static"
LOCALE = Path(boardplay.i18n.__file__).parent / "locale"
KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def table() -> list[tuple[int, str, str]]:
    """Every entry of the front end's string tables: the site's words (``strings.js``, and a
    part's own ``<part>/strings.js``: the tournaments') and each game's, the ``EN`` of its board
    module (text.js merges them)."""
    sites = [STATIC / "strings.js", *sorted(STATIC.glob("*/strings.js"))]
    site = [e for p in sites for e in read_table(p.read_text(encoding="utf-8"))]
    boards = sorted((STATIC / "boards").glob("*.js"))
    return site + [e for p in boards for e in read_table(p.read_text("utf-8"), required=False)]


Found = set[tuple[str | None, str]]
"""(context, msgid) of messages of the web domain."""


def _extract(root: Path, wanted: Callable[[str], bool] = lambda _path: True) -> Found:
    """(context, msgid) of the web domain as Babel finds them now under ``root``, in the files
    ``wanted`` keeps (paths relative to ``root``), with the mapping `make i18n` uses."""
    with MAPPING.open(encoding="utf-8") as cfg:
        method_map, options = parse_mapping_cfg(cfg)
    keywords = {"say": None, "pgettext": ((1, "c"), 2)}
    found: Found = set()
    for path, _l, message, _c, context in extract_from_dir(
        str(root), method_map=method_map, options_map=options, keywords=keywords
    ):
        if wanted(path):
            found.add((context, message if isinstance(message, str) else message[0]))
    return found


def site_words() -> Found:
    """The site's words: the web package but the games' board modules (``strings.js``)."""
    return _extract(WEB, lambda path: not path.startswith("static/boards/"))


def game_words(name: str) -> Found:
    """A registered game's words: its board module's table and its folder's ``say`` phrases."""
    board = _extract(STATIC, lambda path: path == f"boards/{name}.js")
    return board | _extract(game_folder(name))


def game_folder(name: str) -> Path:
    return Path(str(importlib.resources.files(package_of(name))))


def extracted() -> Found:
    """Every message of the web domain: the site's and every registered game's."""
    return site_words().union(*(game_words(name) for name in available()))


def template(path: Path) -> Found:
    with path.open("rb") as handle:
        return {(m.context, m.id) for m in read_po(handle) if m.id}


def test_the_table_and_the_phrases_are_extracted() -> None:
    ids = extracted()
    assert ("lobby.newGame", "New game") in ids
    assert (None, "{who} moves the pawn {way} {onto}") in ids  # Potlatch
    assert (None, "the {colour} {shape} tile ({kind}: {rule})") in ids  # Proteus
    assert (None, "{who} lays the tile from pile {pile} on {a} and {b}") in ids  # Passtally
    assert ("game.ends", " The game ends: {result}.") in ids
    assert len([c for c, _ in ids if c]) == len(table())
    keys = [key for _line, key, _text in table()]
    assert len(keys) == len(set(keys)), "a key in two tables"
    assert [p.name for p in STATIC.glob("strings*.js")] == ["strings.js"]
    assert ("title.potlatch", "Potlatch Klone") in game_words("potlatch")  # from its board module
    mapping = MAPPING.read_text("utf-8")
    for tables in ("strings.js", "boards/*.js"):  # extracted by `make i18n` (and extracted())
        assert f"[boardplay.i18n.webtable.extract: **/{tables}]" in mapping, tables


def test_the_templates_are_up_to_date_with_the_sources() -> None:
    """The site's template holds the site's words and no game's; each registered game's
    template, in its folder, holds its words (``make i18n`` writes both)."""
    stale = "run `make i18n` to refresh the templates and the .po files"
    assert template(LOCALE / "web.pot") == site_words(), stale
    for name in available():
        assert template(game_folder(name) / "locale" / "web.pot") == game_words(name), (name, stale)


def test_a_phrase_two_catalogues_share_says_the_same_in_each() -> None:
    """The web catalogue keeps a phrase the site and games share (``"{a} and {b}"``) once, the
    first's: a different translation in another game's folder would be lost, so it is refused."""
    folders = [LOCALE, *(game_folder(name) / "locale" for name in available())]
    for lang in LANGUAGES:
        said: dict[tuple[str | None, str], tuple[Path, str]] = {}
        for folder in folders:
            with (folder / lang / "LC_MESSAGES" / "web.po").open("rb") as handle:
                for m in read_po(handle, locale=lang):
                    if not m.id or not isinstance(m.id, str):
                        continue
                    first = said.setdefault((m.context, m.id), (folder, m.string))
                    assert first[1] == m.string, (lang, m.id, first[0], folder)


def test_every_web_message_has_japanese() -> None:
    missing = [
        (m.context, m.id) for m in catalog("web", "ja") if m.id and (m.fuzzy or not m.string)
    ]
    assert not missing, f"untranslated in ja/web.po: {missing}"
    # Rule names (KING, ROOK …) stay as the Japanese rules write them; nothing else is English.
    words = {k: re.sub(r"\{\w+\}", "", v) for k, v in messages("web", "ja").items()}
    english = [k for k, v in words.items() if re.search(r"[a-z]{3}", v) and not KANA.search(v)]
    assert not english, english


def test_the_catalogue_is_keyed_by_the_tables_keys() -> None:
    ja, en = messages("web", "ja"), messages("web", "en")
    assert ja["lobby.newGame"] == "新しいゲーム" and en["lobby.newGame"] == "New game"
    assert ja["{who} moves a chip {way}"] == "{who}がチップを{way}へ動かす"
    assert set(ja) == set(en)


def test_every_literal_key_the_front_end_uses_is_in_the_table() -> None:
    keys = {key for _line, key, _text in table()}
    used: set[str] = set()
    for script in STATIC.rglob("*.js"):
        used |= set(re.findall(r"\bt\(\"(\w+\.[\w.]+)\"", script.read_text(encoding="utf-8")))
    assert used and not used - keys, sorted(used - keys)


def test_a_table_entry_that_is_not_a_plain_string_is_refused() -> None:
    with pytest.raises(TableError, match="line 2"):
        read_table('const EN = {\n  "a.b": `template ${x}`,\n};')
    with pytest.raises(TableError, match="no `EN"):
        read_table("const OTHER = {};")
    assert read_table('const EN = { "a": "x \\"y\\"", /* note */ "b": "z" };') == [
        (1, "a", 'x "y"'),
        (1, "b", "z"),
    ]


def test_a_phrase_must_fill_exactly_its_placeholders() -> None:
    with pytest.raises(ValueError, match="needs"):
        say("{who} moves", way="east")
    with pytest.raises(ValueError, match="needs"):
        say("{who} moves")
    sentence = Sentence([say("{who} moves {way}", who=SeatName("Red"), way=say("east"))])
    sentence.add(say("."))
    assert str(sentence) == "Red moves east."
    assert sentence.to_json() == [
        {"t": "{who} moves {way}", "p": {"who": {"seat": "Red"}, "way": {"t": "east", "p": {}}}},
        {"t": ".", "p": {}},
    ]
    assert isinstance(sentence.parts[0], Phrase)


def test_the_japanese_words_are_the_games_not_shogis() -> None:
    """Moves are not 指す'd (a shogi verb, odd for these games); the hex tile is a ベースタイル
    (the printed rulebook's ベーススタイル is named once, in the rules, for readers holding it)."""
    texts = messages("web", "ja").values()
    assert not [t for t in texts if "ベーススタイル" in t]
    assert not [t for t in texts if re.search(r"指[すしさ]", t) and "矢印が指す" not in t]
