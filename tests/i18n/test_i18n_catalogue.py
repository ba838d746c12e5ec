"""The ``cli`` message catalogue: every string the command line prints is extracted, and every
one of them has a Japanese translation with the same placeholders."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import boardplay.cli
import boardplay.i18n
from boardplay.i18n import DOMAINS, LANGUAGES, catalog, messages, translations

CLI_DIR = Path(boardplay.cli.__file__).parent
LOCALE = Path(boardplay.i18n.__file__).parent / "locale"
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def extracted_cli_ids() -> set[str]:
    """The msgids of the CLI code as Babel finds them now (not as the .pot last saw them)."""
    found: set[str] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(CLI_DIR), method_map=[("**.py", "python")], keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else message[0])
    return found


def test_the_cli_code_uses_many_messages() -> None:
    ids = extracted_cli_ids()
    assert len(ids) > 100
    assert "Show the rules of GAME for players." in ids
    assert "{count} move" in ids


def test_every_cli_message_has_a_japanese_translation() -> None:
    ja = catalog("cli", "ja")
    missing = []
    for msgid in sorted(extracted_cli_ids()):
        entry = ja.get(msgid)
        strings = [] if entry is None else entry.string
        strings = [strings] if isinstance(strings, str) else list(strings)
        if entry is None or entry.fuzzy or not all(strings):
            missing.append(msgid)
    assert not missing, f"untranslated in ja/cli.po (run `make i18n`, then translate): {missing}"


def test_the_template_is_up_to_date_with_the_code() -> None:
    with (LOCALE / "cli.pot").open("rb") as handle:
        template = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    assert template == extracted_cli_ids(), "run `make i18n` to refresh cli.pot and the .po files"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_translations_keep_every_placeholder(domain: str, lang: str) -> None:
    for entry in catalog(domain, lang):
        if not entry.id:
            continue
        ids = [entry.id] if isinstance(entry.id, str) else list(entry.id)
        strings = [entry.string] if isinstance(entry.string, str) else list(entry.string)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in filter(None, strings):
            assert set(PLACEHOLDER.findall(text)) == wanted, (entry.id, text)
            assert text.count("[") == ids[-1].count("["), (entry.id, text)  # Rich markup


def test_japanese_really_is_japanese() -> None:
    ja = messages("cli", "ja")
    kana = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    words = [msgid for msgid in ja if re.search(r"[a-z]{3}", msgid)]
    untouched = [msgid for msgid in words if not kana.search(ja[msgid])]
    assert not untouched


def test_english_and_japanese_plurals() -> None:
    assert translations("cli", "en").ngettext("{count} move", "{count} moves", 1) == "{count} move"
    assert translations("cli", "en").ngettext("{count} move", "{count} moves", 5) == "{count} moves"
    assert translations("cli", "ja").ngettext("{count} move", "{count} moves", 5) == "{count} 手"


# Calls whose string arguments reach the user: every literal there must go through _().
PRINTING = {"print", "input", "fail", "echo", "add_column", "add_row", "add_task", "Table", "Panel"}
PRINTING_KEYWORDS = {"help", "title"}


def _has_words(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = re.sub(r"\[/?[a-z ]*\]", "", node.value)  # Rich markup such as [bold red]
        return bool(re.search(r"[A-Za-z]{2}", text))
    if isinstance(node, ast.JoinedStr):
        return any(_has_words(part) for part in node.values if isinstance(part, ast.Constant))
    return False


def _call_name(node: ast.Call) -> str:
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def bare_strings(source: str) -> list[str]:
    """English literals handed straight to something that prints them."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        arguments: list[ast.expr] = []
        if _call_name(node) in PRINTING:
            arguments += node.args
        arguments += [k.value for k in node.keywords if k.arg in PRINTING_KEYWORDS]
        found += [ast.unparse(a) for a in arguments if _has_words(a)]
    return found


def test_no_english_is_printed_around_the_catalogue() -> None:
    offenders = {
        path.name: bare
        for path in sorted(CLI_DIR.glob("*.py"))
        if (bare := bare_strings(path.read_text("utf-8")))
    }
    # The version line is a program name and a number, not a sentence.
    offenders.get("main.py", []).remove("f'boardplay {__version__}'")
    assert not {name: bare for name, bare in offenders.items() if bare}


def test_the_checker_sees_a_bare_string() -> None:
    assert bare_strings('console.print(f"Saved to {path}")') == ["f'Saved to {path}'"]
    assert bare_strings('typer.Option(1, help="Seed.")') == ["'Seed.'"]
    assert bare_strings('console.print(_("Saved to {path}").format(path=p))') == []
