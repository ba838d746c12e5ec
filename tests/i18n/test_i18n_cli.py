"""``boardplay`` in Japanese: the language comes from ``--lang``, ``$BOARDPLAY_LANG`` or the
locale, reaches help texts, run-time messages and the rules, and a wrong code is one clear line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from boardplay.cli.main import app, build_app, main, requested_language
from boardplay.i18n import (
    UnknownLanguageError,
    check_language,
    get_language,
    language_from_environment,
    set_language,
)

runner = CliRunner()


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Other tests in this process expect English: put the language back after each test."""
    yield
    set_language("en")


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def test_lang_ja_rules_potlatch_prints_the_japanese_rules(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_main(["--lang", "ja", "rules", "potlatch", "--raw"], capsys)
    assert code == 0
    assert out.startswith("# ポトラッチクローネ")
    assert "コマ移動" in out and "チップ移動" in out


def test_rules_lang_option_and_the_messages_language_agree() -> None:
    by_option = runner.invoke(app, ["rules", "proteus", "--lang", "ja", "--raw"])
    by_root = runner.invoke(app, ["--lang", "ja", "rules", "proteus", "--raw"])
    assert by_option.exit_code == by_root.exit_code == 0
    assert by_option.stdout == by_root.stdout
    assert "第1フェーズ" in by_root.stdout
    english = runner.invoke(app, ["--lang", "ja", "rules", "proteus", "--lang", "en", "--raw"])
    assert english.stdout.startswith("# Proteus")


def test_help_is_japanese_when_the_app_is_built_in_japanese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run_main(["--lang=ja", "--help"], capsys)
    assert code == 0
    assert "バージョンを表示します。" in out
    assert "GAME のルールを表示します" in out
    code, out, _ = run_main(["--lang", "ja", "sim", "--help"], capsys)
    assert "ランダム対局の数。" in out


def test_environment_chooses_the_language(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("BOARDPLAY_LANG", raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    code, out, _ = run_main(["rules", "passtally", "--raw"], capsys)
    assert code == 0 and "プレイヤーマーカー" in out
    monkeypatch.setenv("BOARDPLAY_LANG", "en")  # ours wins over the locale
    code, out, _ = run_main(["rules", "passtally", "--raw"], capsys)
    assert out.startswith("# Passtally")


def test_language_resolution_order() -> None:
    assert language_from_environment({}) == "en"
    assert language_from_environment({"LANG": "C.UTF-8"}) == "en"
    assert language_from_environment({"LANG": "fr_FR.UTF-8"}) == "en"
    assert language_from_environment({"LANG": "ja_JP.UTF-8"}) == "ja"
    assert language_from_environment({"LANGUAGE": "fr:ja", "LANG": "en_US"}) == "ja"
    assert language_from_environment({"LC_ALL": "ja_JP", "LANG": "en_US"}) == "ja"
    assert language_from_environment({"BOARDPLAY_LANG": "ja", "LANG": "en_US"}) == "ja"
    with pytest.raises(UnknownLanguageError):
        language_from_environment({"BOARDPLAY_LANG": "klingon"})
    assert check_language("JA") == "ja"
    with pytest.raises(UnknownLanguageError):
        check_language("../../etc/passwd")
    assert requested_language(["--lang", "ja", "rules", "x"]) == "ja"
    assert requested_language(["--lang=ja"]) == "ja"
    assert requested_language(["rules", "x", "--lang", "ja"]) is None  # the command's own


@pytest.mark.parametrize(
    "argv",
    [["--lang", "xx", "rules", "potlatch"], ["rules", "potlatch", "--lang", "../ja"]],
)
def test_unknown_language_is_one_clear_line(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_main(argv, capsys)
    assert code == 2
    assert "unknown language" in err and "en, ja" in err
    assert "Traceback" not in out + err


def test_bad_boardplay_lang_is_reported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BOARDPLAY_LANG", "xx")
    code, _, err = run_main(["rules", "potlatch"], capsys)
    assert code == 2 and "unknown language 'xx'" in err


def test_play_talks_japanese() -> None:
    args = ["--lang", "ja", "play", "potlatch", "--p1", "random", "--seed", "4"]
    result = runner.invoke(build_app("ja"), args, input="nonsense\nhelp\nquit\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "シード 4" in out
    assert "Red (人間) 手を入力>" in out
    assert "(または 1〜6 の番号を入力。'help' でコマンド一覧)" in out
    assert "'moves' で合法手の一覧" in out
    assert "対局を中断しました。" in out
    assert get_language() == "ja"


def test_sim_table_in_japanese() -> None:
    result = runner.invoke(app, ["--lang", "ja", "sim", "potlatch", "-n", "5"])
    assert result.exit_code == 0, result.output
    assert "potlatch のランダム対局 5 局" in result.stdout
    assert "先手の勝ち" in result.stdout
    assert "対局の長さ" in result.stdout


def test_errors_are_wrapped_in_japanese() -> None:
    result = runner.invoke(app, ["--lang", "ja", "replay", "/nonexistent/record.json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("エラー:")


def test_english_stays_the_default() -> None:
    result = runner.invoke(app, ["--lang", "en", "sim", "potlatch", "-n", "3"])
    assert "3 random games of potlatch" in result.stdout
