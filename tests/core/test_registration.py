"""A game is found from its folder: the toy fifth game (``fifthgame``, Race to ten), arriving as
a folder, its board module and its docs, is found by the CLI help, the web catalogue, the
balance-study variants, the AI's evaluation and levels and the web's move and end words, all from
its ``Game`` class; it provides every piece of the checklist (``completeness``), and removing any
one piece makes the checklist name it. The four real games are held to the same checklist, and a
game from outside the package still registers with ``register``."""

from __future__ import annotations

import importlib
import shutil
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import catalogues
import completeness
import pytest
from babel.messages.pofile import read_po
from fifthgame import FIFTH, arrived
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
from boardplay.web.table.hints import hints_for
from boardplay.web.words import describer, end_describer, said
from golden import load_cases, start, trajectory

runner = CliRunner()


@pytest.fixture
def fifth() -> Iterator[Path]:
    with arrived() as root:
        yield root


def complete(cls: type[Game], root: Path = FIFTH) -> list[str]:
    """``completeness.missing`` of a game whose files are under ``root`` (the fifth game's)."""
    return completeness.missing(
        cls, static=root / "static", docs=root / "docs", tests=root / "tests"
    )


# ----- the fifth game, found from its folder -----------------------------------------------------
def test_the_folder_makes_a_fifth_game_loadable(fifth: Path) -> None:
    assert "race" in available() and "race" in boardplay.available()
    game = boardplay.load("race-to-ten(target=15)")
    assert game.name == "race" and game.options == {"target": 15, "step": 2}
    assert type(game) is game_class("race")
    assert type(game).__module__ == "boardplay.games.race.game"


def test_without_its_folder_it_is_nowhere() -> None:
    assert "race" not in available() and "race" not in REGISTRY.names()
    with pytest.raises(OptionError, match="unknown game 'race'"):
        boardplay.load("race")
    result = runner.invoke(build_app("en"), ["rules", "--help"])
    assert "race" not in result.output


def test_the_cli_help_lists_it(fifth: Path) -> None:
    app = build_app("en")
    for command in ("play", "rules", "sim", "arena", "analyze"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0, result.output
        assert "race" in result.output and "montana" in result.output
    result = runner.invoke(app, ["rules", "race", "--raw"])
    assert result.exit_code == 0 and "Whoever brings the count to ten" in result.output


def test_the_web_catalogue_offers_it(fifth: Path) -> None:
    assert "race" in REGISTRY.names()
    assert "race" in WebCatalogue(REGISTRY).names()
    game = WebCatalogue(REGISTRY).load("race", {"step": 3})
    assert game.name == "race" and game.options["step"] == 3
    assert hints_for(game)["seat_colours"] == ["#d33c3c", "#2f6fd6"]


def test_the_balance_study_varies_its_axes(fifth: Path) -> None:
    assert variants_for("race") == [
        Variant("target=10", {"target": 10}),
        Variant("target=15", {"target": 15}),
    ]


def test_the_ai_finds_its_evaluation_and_levels(fifth: Path) -> None:
    game = boardplay.load("race")
    assert heuristics_for(game) is find("boardplay.games.race.evaluation:HEURISTICS")
    assert level_spec("hard", game) == "mcts(time=0.05,iterations=20)"
    state = game.new_initial_state()
    state.apply_action(1)  # count 2: adding 2 leaves 6, a multiple of three, lost for the opponent
    assert make_agent("expert", game, seed=1).step(state) == 1


def test_the_web_finds_its_move_and_end_words(fifth: Path) -> None:
    game = boardplay.load("race")
    assert describer(game) is find("boardplay.games.race.describe:describe")
    assert end_describer(game) is find("boardplay.games.race.ending:describe_end")
    state = game.new_initial_state()
    assert said(game, state, 1)["words"] == "Player 1 adds 2 to 0."
    state = game.state_from_json({"count": 8, "to_move": 1})
    last = said(game, state, 1)
    assert (
        last["words"] == "Player 2 adds 2 to 8. The game ends: Player 2 wins. Player 2 reaches 10."
    )
    assert last["struct"]["ends"]["mark"] == {"kind": "target", "seat": 1, "cell": 10}


def test_the_research_adapters_play_it(fifth: Path) -> None:
    openspiel = pytest.importorskip("boardplay.adapters.openspiel")
    game = openspiel.load("race(target=15)")
    assert game.get_type().short_name == "boardplay_race"
    state = game.new_initial_state()
    while not state.is_terminal():  # +1 each time: the 15th, by the first player, wins
        state.apply_action(state.legal_actions()[0])
    assert state.returns() == [1.0, -1.0]


def test_its_moves_go_through_the_checked_path(fifth: Path) -> None:
    state = boardplay.load("race").new_initial_state()
    state.apply_move("+2")
    with pytest.raises(boardplay.IllegalActionError, match="legal moves: \\+1, \\+2"):
        state.apply_action(2)
    assert state.history() == [1] and state.to_json() == {"count": 2, "to_move": 1}


def test_it_replays_its_frozen_trajectories(fifth: Path) -> None:
    for case in load_cases(fifth / "tests" / "games" / "race" / "golden.json"):
        game = boardplay.load("race", **case["options"])
        played = trajectory(start(game, case), case["seed"], game.num_players)
        assert played == (case["actions"], case["digest"])


def test_it_provides_every_piece(fifth: Path) -> None:
    assert complete(game_class("race")) == []


def test_make_i18n_writes_its_words_into_its_folder(tmp_path: Path) -> None:
    """``make i18n`` (``tools/catalogues.py``) run where the fifth game is laid out as in the
    repository: the words of its board module (``EN``) and of its moves and endings (``say``)
    go to its own folder's ``locale/``, the template the fifth game carries, and its Japanese
    entries (translated by hand) are kept; the site's catalogue takes none of them."""
    package = tmp_path / "src" / "boardplay"
    shutil.copytree(FIFTH / "games", package / "games")
    boards = package / "web" / "static" / "boards"
    boards.mkdir(parents=True)
    shutil.copy(FIFTH / "static" / "boards" / "race.js", boards)
    shutil.copy(completeness.ROOT / "babel-web.cfg", tmp_path)
    with arrived(package):
        catalogues.update([(catalogues.extract_game("race", tmp_path), "web")], tmp_path)
    locale = package / "games" / "race" / "locale"
    text = (locale / "web.pot").read_text()
    for key in ("title.race", "about.race.line", "tutorial.race.1", "race.label"):
        assert f'msgctxt "{key}"' in text
    assert 'msgid "{seat} adds {n} to {count}."' in text
    assert 'msgid "{seat} reaches {target}."' in text
    assert messages(locale / "web.pot") == messages(FIFTH / "games" / "race" / "locale" / "web.pot")
    japanese = (locale / "ja" / "LC_MESSAGES" / "web.po").read_text()
    assert 'msgstr "10への競争"' in japanese and "#, fuzzy" not in japanese
    assert not (package / "i18n").exists()


def messages(template: Path) -> set[tuple[str | None, str]]:
    with template.open("rb") as handle:
        return {(m.context, m.id) for m in read_po(handle) if m.id}


# ----- removing any piece of the fifth game fails the checklist, naming it ----------------------
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
def test_removing_a_declaration_fails_the_checklist(
    fifth: Path, attribute: str, piece: str
) -> None:
    cls = game_class("race")
    assert complete(cls) == []
    assert piece in complete(_without(cls, attribute))


@pytest.mark.parametrize("level", ["random", "mcts(time=0.05)", "mcts(time=3,iterations=500)"])
def test_levels_that_are_not_capped_searches_fail_the_checklist(fifth: Path, level: str) -> None:
    """What the AI suite holds every game's levels to (``tests/ai/test_ai_agents.py``): each a
    search with an iteration cap, hard and expert timed, expert at most 2 s a move."""
    cls = game_class("race")
    levels = {**(cls.levels or {}), "expert": level}
    weak = type(cls.__name__, (cls,), {"levels": levels, "__module__": cls.__module__})
    assert "Game.levels (each a search with an iteration cap, hard and expert timed)" in complete(
        weak
    )


FILES = [
    ("games/race/rules.md", None, "rules.md in the game's package"),
    ("games/race/rules.ja.md", None, "rules.ja.md in the game's package"),
    ("games/race/rules.md", "<!-- expert:", "rules.md ending in one experts' fold"),
    ("games/race/rules.ja.md", "<!-- /expert -->", "rules.ja.md ending in one experts' fold"),
    ("games/race/terms.ja.txt", None, "terms.ja.txt in the game's package"),
    ("games/race/locale/web.pot", None, "locale/web.pot in the game's package"),
    ("games/race/locale/ja/LC_MESSAGES/web.po", None, "locale/ja/LC_MESSAGES/web.po in the game"),
    ("games/race/locale/ja/LC_MESSAGES/web.po", 'msgstr "10への競争"', "the Japanese of 1 of its"),
    ("static/boards/race.js", None, "boards/race.js exporting draw"),
    ("static/boards/race.js", "export function draw(", "boards/race.js exporting draw"),
    ("static/boards/race.js", "export function miniature(", "boards/race.js exporting miniature"),
    ("static/boards/race.js", "export const about", "boards/race.js exporting about"),
    ("static/boards/race.js", "export const tutorial", "boards/race.js exporting tutorial"),
    ("static/boards/race.js", '"title.race"', "the words title.race"),
    ("static/boards/race.js", '"about.race.line"', "the words about.race.line"),
    ("static/boards/race.js", '"tutorial.race.1"', "the words tutorial.race.1"),
    ("docs/rules/race.md", None, "docs/rules/race.md"),
    ("docs/rules/race.ja.md", None, "docs/rules/race.ja.md"),
    ("docs/rules/race.ja.md", "10への競争", "docs/rules/race.ja.md the same as the game's"),
    ("docs/formats/race.md", None, "docs/formats/race.md"),
    ("tests/games/race/golden.json", None, "games/race/golden.json"),
]


@pytest.mark.parametrize(("path", "text", "piece"), FILES, ids=[f"{p}:{t}" for p, t, _ in FILES])
def test_removing_a_file_or_an_export_fails_the_checklist(
    tmp_path: Path, path: str, text: str | None, piece: str
) -> None:
    """The fifth game copied (its docs' links as the files they show), one file removed (or one
    export, word key, fold or page spoiled), and the copy's folder is the one boardplay finds."""
    root = tmp_path / "fifth"
    shutil.copytree(FIFTH, root)
    target = root / path
    if text is None:
        target.unlink()
    else:
        source = target.read_text()
        assert text in source
        spoiled = text.replace("export ", "").replace("race", "x").replace("expert", "note")
        target.write_text(source.replace(text, spoiled if spoiled != text else "?"))
    with arrived(root):
        assert [p for p in complete(game_class("race"), root) if p.startswith(piece)]


def test_a_folder_without_its_declaration_is_an_error(tmp_path: Path) -> None:
    root = tmp_path / "fifth"
    shutil.copytree(FIFTH, root)
    (root / "games" / "race" / "__init__.py").write_text('"""Race to ten."""\n')
    with (
        arrived(root),
        pytest.raises(OptionError, match=r"boardplay\.games\.race declares no game"),
    ):
        available()


def test_the_checklist_fails_when_the_evaluation_in_c_of_a_kernel_is_missing(
    monkeypatch: Any,
) -> None:
    """A game without a kernel needs no evaluation in C (the fifth game); one with a kernel does,
    or MCTS quietly runs the Python search."""
    module, _, attribute = (game_class("potlatch").heuristics or "").partition(":")
    heuristics = find(f"{module}:{attribute}")
    monkeypatch.setattr(
        importlib.import_module(module), attribute, replace(heuristics, compiled=None)
    )
    assert "Heuristics.compiled" in completeness.missing(game_class("potlatch"))


# ----- the four games, and games from outside the package ---------------------------------------
@pytest.mark.parametrize("name", sorted(available()))
def test_every_registered_game_provides_every_piece(name: str) -> None:
    """The checklist of docs/contributing.md, held against every game (as OpenSpiel's test of
    its game list): nothing a part of boardplay looks for may be missing."""
    cls = game_class(name)
    assert cls.name == name and cls.__module__ == f"boardplay.games.{name}.game"
    assert completeness.missing(cls) == []


@pytest.mark.parametrize("name", available())
def test_every_game_declares_what_the_rest_finds(name: str) -> None:
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


@pytest.mark.parametrize("key", ["title.potlatch", "about.potlatch.line", "tutorial.potlatch.2"])
def test_a_word_missing_from_a_games_board_module_is_named(tmp_path: Path, key: str) -> None:
    """The four games keep their words in their board modules, as the fifth does; a key missing
    there is named."""
    static = tmp_path / "static"
    shutil.copytree(completeness.STATIC, static)
    board = static / "boards" / "potlatch.js"
    assert f'"{key}"' in board.read_text()
    board.write_text(board.read_text().replace(f'"{key}"', '"x.potlatch.x"'))
    assert completeness.missing(game_class("potlatch"), static=static) == [f"the words {key}"]


@pytest.fixture
def outside(monkeypatch: Any) -> Iterator[None]:
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "adapters"))
    register("dicerace", "dicerace:DiceRaceGame", aliases=("dice-race",))
    try:
        yield
    finally:
        unregister("dicerace")


def test_a_game_outside_the_package_registers_with_one_line(outside: None) -> None:
    assert "dicerace" in available() and "dicerace" in REGISTRY.names()
    assert boardplay.load("dice-race(target=12)").options["target"] == 12
    unregister("dicerace")
    assert "dicerace" not in available()
    with pytest.raises(OptionError, match="unknown game 'dice-race'"):
        boardplay.load("dice-race")


def test_registering_refuses_bad_names_targets_and_a_folder_games_name() -> None:
    with pytest.raises(OptionError, match="lowercase identifier"):
        register("two words", "dicerace:DiceRaceGame")
    with pytest.raises(OptionError, match="module:ClassName"):
        register("dicerace", "dicerace.DiceRaceGame")
    with pytest.raises(OptionError, match="already the game of the folder"):
        register("potlatch", "dicerace:DiceRaceGame")
    assert "dicerace" not in available()
