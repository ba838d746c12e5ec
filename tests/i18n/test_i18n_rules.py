"""The Japanese player rules: one per game, shipped beside the English ones, covering the same
ground (the same sections), in the terms of the Japanese rule texts, and in our own words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boardplay.core.registry import available, load
from boardplay.i18n.rules import rules_file_name, rules_text

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT.parent / "shared" / "seeds"

# Each game's key terms, as the Japanese rule texts (../shared/seeds/*.ja.txt) name them.
KEY_TERMS = {
    "potlatch": [
        "ベーススタイル",
        "コマ移動",
        "チップ移動",
        "チップの増加",
        "スタック",
        "段差",
        "中立色",
        "終了条件",
    ],
    "proteus": [
        "第1フェーズ",
        "第2フェーズ",
        "ゲームピース",
        "表向き",
        "裏向き",
        "勝利条件",
        "形状",
        "赤色タイル",
        "青色タイル",
        "黄色タイル",
    ],
    "passtally": [
        "プレイヤーマーカー",
        "タイルを配置する",
        "段数",
        "勝利点",
        "スタートプレイヤー",
        "最終ラウンド",
        "ライン",
    ],
    "montana": [
        "居留地",
        "募集回転盤",
        "請負人コマ",
        "雑貨屋",
        "謝礼",
        "水筒",
        "牛の取引",
        "労働ボード",
        "景観タイル",
        "開始地点タイル",
    ],
}
SEED_FILES = {
    "potlatch": "potlatch-klone.ja.txt",
    "proteus": "proteus.ja.txt",
    "passtally": "passtally.ja.txt",
    "montana": "montana.ja.txt",
}
DOCS_NAMES = {"potlatch": "potlatch-klone"}


def test_every_game_has_japanese_rules_and_terms() -> None:
    assert sorted(KEY_TERMS) == sorted(available())
    for name, terms in KEY_TERMS.items():
        text = rules_text(load(name), "ja")
        assert len(text) > 3000, name
        missing = [term for term in terms if term not in text]
        assert not missing, (name, missing)


def headings(markdown: str) -> list[str]:
    body = re.sub(r"```.*?```", "", markdown, flags=re.S)
    return [line.split(" ", 1)[0] for line in body.splitlines() if re.match(r"#{1,3} ", line)]


@pytest.mark.parametrize("name", sorted(KEY_TERMS))
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


@pytest.mark.parametrize("name", sorted(KEY_TERMS))
def test_japanese_rules_are_prose_for_people(name: str) -> None:
    text = rules_text(load(name), "ja")
    prose = re.sub(r"```.*?```|`[^`]*`|^\|.*$", "", text, flags=re.S | re.M)
    japanese = len(re.findall(r"[\u3040-\u30ff\u4e00-\u9fff]", prose))
    latin = len(re.findall(r"[A-Za-z]", prose))
    assert japanese > 5 * latin  # Japanese sentences, not English with a few words
    # No soft line breaks inside Japanese sentences: a browser would show them as spaces.
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff、]\n[\u3040-\u30ff\u4e00-\u9fff]", prose)


@pytest.mark.outside_repo
@pytest.mark.skipif(not SEEDS.is_dir(), reason="the seed rule texts live outside the repository")
@pytest.mark.parametrize("name", sorted(SEED_FILES))
def test_no_passage_is_copied_from_the_seed(name: str) -> None:
    ours = re.sub(r"\s+", "", rules_text(load(name), "ja"))
    seed = re.sub(r"\s+", "", (SEEDS / SEED_FILES[name]).read_text("utf-8"))
    width = 24
    shared = {seed[i : i + width] for i in range(len(seed) - width)} & {
        ours[i : i + width] for i in range(len(ours) - width)
    }
    assert not shared, sorted(shared)[:5]


@pytest.mark.parametrize("name", sorted(KEY_TERMS))
def test_docs_link_to_the_japanese_rules(name: str) -> None:
    game = load(name)
    link = ROOT / "docs" / "rules" / f"{DOCS_NAMES.get(name, name)}.ja.md"
    assert link.is_symlink()
    assert link.read_text("utf-8") == rules_text(game, "ja")
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
