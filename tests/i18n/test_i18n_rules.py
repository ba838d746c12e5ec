"""The Japanese player rules: one per game, shipped beside the English ones, covering the same
ground (the same sections), in the terms of the Japanese rule texts, and in our own words."""

from __future__ import annotations

import importlib.resources
import re
from pathlib import Path

import pytest

from boardplay.core.registry import available, load, package_of, spellings
from boardplay.i18n.rules import rules_file_name, rules_text

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"


def key_terms(name: str) -> list[str]:
    """The game's key terms, as its Japanese rule text names them: ``terms.ja.txt`` in its
    folder, one a line (``#`` starts a note), so a new game brings its own."""
    text = importlib.resources.files(package_of(name)).joinpath("terms.ja.txt").read_text("utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]


def seed_text(name: str) -> Path | None:
    """The Japanese rule text the game's rules were written from (kept outside the repository),
    named by one of the game's spellings (Potlatch's is ``potlatch-klone.ja.txt``)."""
    found = [SEEDS / f"{spelling}.ja.txt" for spelling in spellings(name)]
    return next((path for path in found if path.is_file()), None)


@pytest.mark.parametrize("name", available())
def test_every_game_has_japanese_rules_in_its_terms(name: str) -> None:
    """The Japanese rules are whole rules, not a summary: at least half as long as the English
    (Japanese is denser; the four games' stand at 0.57-0.69), and they use every key term."""
    game = load(name)
    text = rules_text(game, "ja")
    assert len(text) > len(rules_text(game, "en")) / 2, name
    terms = key_terms(name)
    missing = [term for term in terms if term not in text]
    assert terms and not missing, (name, missing)


def headings(markdown: str) -> list[str]:
    body = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return [line.split(" ", 1)[0] for line in body.splitlines() if re.match(r"#{1,3} ", line)]


@pytest.mark.parametrize("name", available())
def test_japanese_rules_cover_the_same_ground(name: str) -> None:
    game = load(name)
    english, japanese = rules_text(game, "en"), rules_text(game, "ja")
    assert headings(japanese) == headings(english)
    # Every option and every notation example of the English rules is explained in Japanese.
    codes = set(re.findall(r"`([^`\n]+)`", english))
    missing = sorted(code for code in codes if f"`{code}`" not in japanese)
    assert not missing
    # The tables keep their rows (the numbers are the same in both languages).
    assert japanese.count("\n|") == english.count("\n|")


@pytest.mark.parametrize("name", available())
def test_japanese_rules_are_prose_for_people(name: str) -> None:
    text = rules_text(load(name), "ja")
    prose = re.sub(r"```.*?```|`[^`]*`|^\|.*$", "", text, flags=re.S | re.M)
    japanese = len(re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]", prose))
    latin = len(re.findall(r"[A-Za-z]", prose))
    assert japanese > 5 * latin  # Japanese sentences, not English with a few words
    # No soft line breaks inside Japanese sentences: a browser would show them as spaces.
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff、]\n[\u3040-\u30ff\u4e00-\u9fff]", prose)


@pytest.mark.outside_repo
@pytest.mark.parametrize("name", available())
def test_no_passage_is_copied_from_the_seed(name: str) -> None:
    seed_file = seed_text(name)
    if seed_file is None:
        pytest.skip(f"no seed rule text for {name} (they live outside the repository)")
    ours = re.sub(r"\s+", "", rules_text(load(name), "ja"))
    seed = re.sub(r"\s+", "", seed_file.read_text("utf-8"))
    width = 24
    shared = {seed[i : i + width] for i in range(len(seed) - width)} & {
        ours[i : i + width] for i in range(len(ours) - width)
    }
    assert not shared, sorted(shared)[:5]


@pytest.mark.parametrize("name", available())
def test_docs_show_the_rules_of_the_games_package(name: str) -> None:
    """``docs/rules/<game>.md`` and ``.ja.md`` are the rules the game's package ships (the four
    games' are links to them), so the docs never tell other rules than ``boardplay rules``."""
    game = load(name)
    for lang in ("en", "ja"):
        page = ROOT / "docs" / "rules" / f"{name}{'' if lang == 'en' else '.ja'}.md"
        assert page.read_text("utf-8") == rules_text(game, lang), page
    assert rules_file_name(game, "ja") == "rules.ja.md"
    assert rules_file_name(game, "en") == "rules.md"


EXPERT = re.compile(r"^<!-- expert: (.+?) -->\n(.*?)^<!-- /expert -->\n", re.M | re.S)
ENGINE_WORDS = re.compile(r"\bseat [0-9]|席[0-9]|\bengine\b|エンジン|`[a-z]+_[a-z_]+`")


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("game", available())
def test_the_player_rules_keep_engine_words_behind_the_experts_fold(game: str, lang: str) -> None:
    """Option names, notation and engine notes are for the command line and researchers: in
    the rules a player reads they stand in one folded block at the end (``markdown.js`` folds
    it under its title; ``boardplay rules`` shows it), and nowhere outside it."""
    text = rules_text(load(game), lang)
    blocks = EXPERT.findall(text)
    assert len(blocks) == 1, f"{game} {lang}: {len(blocks)} expert blocks"
    title, inside = blocks[0]
    assert text.rstrip().endswith("<!-- /expert -->")
    assert ("コマンドライン" if lang == "ja" else "command line") in title
    outside = EXPERT.sub("", text)
    assert not ENGINE_WORDS.findall(outside), (game, lang, ENGINE_WORDS.findall(outside))
    assert ENGINE_WORDS.search(inside), "the block holds the option names"
