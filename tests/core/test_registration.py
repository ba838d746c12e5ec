"""One registration point per game: a fifth game registered with one line (``register``) is
found by the CLI help, the web catalogue, the balance-study variants, the AI's evaluation and
level lookup and the web's move words, all from its ``Game`` class; and the four real games
declare what those parts find."""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import completeness
import pytest
from fifthgame import HEURISTICS, RaceGame, describe
from typer.testing import CliRunner

import boardplay
from boardplay.ai.analysis import Variant, variants_for
from boardplay.ai.evaluation import GENERIC, heuristics_for
from boardplay.ai.specs import LEVEL_NAMES, level_spec, make_agent
from boardplay.cli.main import build_app
from boardplay.core.errors import OptionError
from boardplay.core.game import Game
from boardplay.core.registry import available, find, game_class, register, unregister
from boardplay.web.catalogue import REGISTRY, WebCatalogue
from boardplay.web.moves import describer, said

runner = CliRunner()


@pytest.fixture
def fifth() -> Iterator[None]:
    register("race", "fifthgame:RaceGame", aliases=("race-to-ten",))
    try:
        yield
    finally:
        unregister("race")


def test_one_line_makes_a_fifth_game_loadable(fifth: None) -> None:
    assert "race" in available() and "race" in boardplay.available()
    game = boardplay.load("race-to-ten(target=15)")
    assert isinstance(game, RaceGame) and game.options == {"target": 15, "step": 2}
    assert game_class("race") is RaceGame


def test_the_cli_help_lists_it(fifth: None) -> None:
    app = build_app("en")
    for command in ("play", "rules", "sim", "arena", "analyze"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, result.output
        assert "race" in result.output and "montana" in result.output
    result = runner.invoke(app, ["rules", "race", "--raw"])
    assert result.exit_code == 0 and "reaching ten wins" in result.output


def test_the_web_catalogue_offers_it(fifth: None) -> None:
    assert "race" in REGISTRY.names()
    assert "race" in WebCatalogue(REGISTRY).names()
    assert isinstance(WebCatalogue(REGISTRY).load("race", {"step": 3}), RaceGame)


def test_the_balance_study_varies_its_axes(fifth: None) -> None:
    assert variants_for("race") == [
        Variant("target=10", {"target": 10}),
        Variant("target=15", {"target": 15}),
    ]


def test_the_ai_finds_its_evaluation_and_levels(fifth: None) -> None:
    game = boardplay.load("race")
    assert heuristics_for(game) is HEURISTICS
    assert level_spec("hard", game) == "mcts(iterations=20)"
    state = game.new_initial_state()
    agent = make_agent("medium", game, seed=1)
    assert agent.step(state) in state.legal_actions()


def test_the_web_finds_its_move_words(fifth: None) -> None:
    game = boardplay.load("race")
    assert describer(game) is describe
    state = game.new_initial_state()
    assert said(game, state, 1)["words"] == "Player 1 adds 2 to 0."


def test_unregistered_it_is_gone_everywhere(fifth: None) -> None:
    unregister("race")
    with pytest.raises(OptionError, match="unknown game 'race'"):
        boardplay.load("race")
    assert "race" not in REGISTRY.names()
    result = runner.invoke(build_app("en"), ["rules", "--help"])
    assert "race" not in result.output


def test_registering_refuses_bad_names_and_targets() -> None:
    with pytest.raises(OptionError, match="lowercase identifier"):
        register("two words", "fifthgame:RaceGame")
    with pytest.raises(OptionError, match="module:ClassName"):
        register("race", "fifthgame.RaceGame")
    assert "race" not in available()


@pytest.mark.parametrize("name", ["montana", "passtally", "potlatch", "proteus"])
def test_the_four_games_declare_what_the_rest_finds(name: str) -> None:
    cls = game_class(name)
    game = boardplay.load(name)
    assert (
        heuristics_for(game) is find(cls.heuristics or "") and heuristics_for(game) is not GENERIC
    )
    assert cls.describer is not None and describer(game) is find(cls.describer)
    assert cls.levels is not None and set(cls.levels) == set(LEVEL_NAMES)
    assert cls.study_axes is not None
    options = cls.option_set.by_name()
    assert all(axis in options for axis, _ in cls.study_axes)
    assert len(variants_for(name)) >= 2


@pytest.mark.parametrize("name", sorted(available()))
def test_every_registered_game_provides_every_piece(name: str) -> None:
    """The checklist of docs/contributing.md, held against every game (as OpenSpiel's test of
    its game list): nothing a part of boardplay looks for may be missing."""
    assert completeness.missing(game_class(name)) == []


def _without(cls: type[Game], attribute: str) -> type[Game]:
    """``cls`` rebuilt directly on ``Game`` without one of its own attributes."""
    body = {k: v for k, v in vars(cls).items() if k not in (attribute, "__dict__", "__weakref__")}
    return type(cls.__name__, (Game,), body)


@pytest.mark.parametrize(
    ("attribute", "piece"),
    [
        ("can_draw", "Game.can_draw"),
        ("seat_colours", "Game.seat_colours (one per seat)"),
        ("levels", "Game.levels"),
        ("describer", "Game.describer"),
        ("end_describer", "Game.end_describer"),
        ("heuristics", "Game.heuristics"),
    ],
)
def test_the_checklist_fails_when_a_declaration_is_removed(attribute: str, piece: str) -> None:
    cls = game_class("potlatch")
    assert completeness.missing(cls) == []
    assert piece in completeness.missing(_without(cls, attribute))


def test_the_checklist_fails_when_the_evaluation_in_c_is_missing(monkeypatch: Any) -> None:
    module, _, attribute = (game_class("potlatch").heuristics or "").partition(":")
    heuristics = find(f"{module}:{attribute}")
    monkeypatch.setattr(
        importlib.import_module(module), attribute, replace(heuristics, compiled=None)
    )
    assert "Heuristics.compiled" in completeness.missing(game_class("potlatch"))


@pytest.mark.parametrize(
    ("path", "edit", "piece"),
    [
        ("boards/potlatch.js", None, "boards/potlatch.js exporting draw"),
        (
            "boards/potlatch.js",
            ("export function draw(", "function draw("),
            "boards/potlatch.js exporting draw",
        ),
        (
            "boards/potlatch.js",
            ("export function miniature(", "function miniature("),
            "boards/potlatch.js exporting miniature",
        ),
        (
            "boards/potlatch.js",
            ("export const about", "const about"),
            "boards/potlatch.js exporting about",
        ),
        (
            "boards/potlatch.js",
            ("export const tutorial", "const tutorial"),
            "boards/potlatch.js exporting tutorial",
        ),
        (
            "strings-games.js",
            ('"about.potlatch.', '"about.x.'),
            "strings-games.js about.*",
        ),
    ],
)
def test_the_checklist_fails_when_a_web_piece_is_removed(
    tmp_path: Path, path: str, edit: tuple[str, str] | None, piece: str
) -> None:
    static = tmp_path / "static"
    shutil.copytree(completeness.STATIC, static)
    target = static / path
    if edit is None:
        target.unlink()
    else:
        text = target.read_text()
        assert edit[0] in text
        target.write_text(text.replace(edit[0], edit[1]))
    cls = game_class("potlatch")
    assert completeness.missing(cls) == []
    assert piece in completeness.missing(cls, static=static)


def test_the_checklist_fails_when_a_document_is_removed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(completeness.DOCS / "rules", docs / "rules")
    shutil.copytree(completeness.DOCS / "formats", docs / "formats")
    (docs / "formats" / "potlatch.md").unlink()
    assert completeness.missing(game_class("potlatch"), docs=docs) == ["docs/formats/potlatch.md"]
