"""Moves in words (issue 16, build 1): every kind of action of every game, on positions reached by
real play, gets a JSON-ready struct that says what moved where and a sentence a first-time player
can read; the history and the legal list of a live view carry both."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from keptnames import RULE_NAMES

from boardplay.core.game import Game, State
from boardplay.core.records import Move
from boardplay.i18n import messages
from boardplay.web.catalogue import REGISTRY
from boardplay.web.words import History, legal_said, said

KINDS = {
    "potlatch": {"pawn", "chip"},
    "proteus": {"tile", "piece", "move", "trade"},
    "passtally": {"setup", "place", "marker", "reveal"},
    "montana": {
        "board",
        "start",
        "recruit",
        "spin",
        "push",
        "wild",
        "work",
        "right",
        "city",
        "place",
        "pass",
        "reward",
        "build",
        "stop",
        "trade",
        "end",
    },
}
"""The kinds each game's random play must reach (rare ones, such as Proteus' pass, are tested on
their own below)."""


def load(name: str, **options: Any) -> Game:
    return REGISTRY.load(name, options)


def playthrough(game: Game, seed: int, limit: int = 600) -> Iterator[tuple[State, int]]:
    """(state, action) for each step of one seeded random game; the state is the one before."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(limit):
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        yield state, action
        state.apply_action(action)


def described(name: str, games: int) -> dict[str, list[tuple[State, int, dict[str, Any]]]]:
    game = load(name)
    seen: dict[str, list[tuple[State, int, dict[str, Any]]]] = {}
    for seed in range(games):
        for state, action in playthrough(game, seed):
            entry = said(game, state, action)
            seen.setdefault(entry["struct"]["kind"], []).append((state.clone(), action, entry))
    return seen


GAMES_PER_NAME = {"potlatch": 6, "proteus": 12, "passtally": 2, "montana": 3}


@pytest.fixture(scope="module", params=sorted(KINDS))
def plays(request: pytest.FixtureRequest) -> tuple[str, dict[str, list[Any]]]:
    name: str = request.param
    return name, described(name, GAMES_PER_NAME[name])


def test_every_kind_is_reached_and_every_move_is_described(
    plays: tuple[str, dict[str, list[Any]]],
) -> None:
    name, seen = plays
    assert KINDS[name] <= set(seen), f"{name}: kinds never reached: {KINDS[name] - set(seen)}"
    game = load(name)
    names = [game.seat_name(s) for s in range(game.num_players)]
    for kind, entries in seen.items():
        for state, _action, entry in entries[:50]:
            struct, words = entry["struct"], entry["words"]
            json.dumps(struct)  # JSON-ready
            assert struct["kind"] == kind
            assert words.endswith(".") and words[0].isupper()
            seat = state.current_player()
            if seat >= 0:
                assert words.startswith(names[seat]), words
                assert struct["seat"] == seat


def spoken(parts: list[dict[str, Any]], lang: str) -> str:
    """A move's ``say`` phrases in ``lang``, filled as the browser fills them (text.js ``say``)."""
    catalogue = messages("web", lang)

    def one(value: Any) -> str:
        if not isinstance(value, dict):
            return str(value)
        if "seat" in value:
            numbered = re.fullmatch(r"Player (\d+)", value["seat"])
            if numbered:
                return catalogue["name.player"].format(n=numbered.group(1))
            return catalogue.get(f"name.{value['seat']}", value["seat"])
        params = {k: one(v) for k, v in value["p"].items()}
        return re.sub(r"\{(\w+)\}", lambda m: params[m.group(1)], catalogue[value["t"]])

    return "".join(one(part) for part in parts)


KANA = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
NAMES_KEPT = RULE_NAMES
"""The only Latin words a Japanese move may hold (cells, piles and spaces are shorter)."""


def check_japanese(entry: dict[str, Any], names: list[str]) -> str:
    """The move's words in Japanese, once its English phrases are checked to say its words."""
    ends = entry["struct"].get("ends")
    ending = f" The game ends: {ends['result']}." if ends else ""
    if ends and "say" in ends:  # where and why, where the game explains its endings
        ending += " " + spoken(ends["say"], "en")
        assert KANA.search(spoken(ends["say"], "ja")), ends["say"]
    assert spoken(entry["say"], "en") + ending == entry["words"]
    if ends:  # the browser words the result from the winners' seat names and the end code
        assert ends["winner_names"] == [names[w] for w in ends["winners"]]
        assert ends["end"] and f"end.{ends['end']}" in messages("web", "ja")
    japanese = spoken(entry["say"], "ja")
    assert japanese.endswith("。") and KANA.search(japanese), japanese
    assert set(re.findall(r"[A-Za-z]{3,}", japanese)) <= NAMES_KEPT, japanese
    return japanese


def test_the_phrases_say_the_english_words_and_have_japanese(
    plays: tuple[str, dict[str, list[Any]]],
) -> None:
    name, seen = plays
    game = load(name)
    names = [game.seat_name(s) for s in range(game.num_players)]
    for entries in seen.values():
        for _state, _action, entry in entries[:50]:
            check_japanese(entry, names)


def templates(parts: list[dict[str, Any]]) -> Iterator[str]:
    """Every phrase template of a move's ``say``, nested ones included."""
    for part in parts:
        if isinstance(part, dict) and "t" in part:
            yield part["t"]
            yield from templates([v for v in part["p"].values() if isinstance(v, dict)])


def test_every_montana_sentence_is_said_and_has_japanese() -> None:
    """Every phrase of Montana's describer is reached: every legal choice of two random games is
    described (not only the ones played), and a game of a player who recruits whenever they can
    reaches the rare ones (giving workers back over the cap of 8). Each sentence is Japanese."""
    game = load("montana")
    names = [game.seat_name(s) for s in range(game.num_players)]
    source = (Path(__file__).parents[3] / "src/boardplay/games/montana/describe.py").read_text()
    wanted = set(re.findall(r'say\(\s*"((?:[^"\\]|\\.)*)"', source)) - {"Chance", "Seat {n}"}
    reached: set[str] = set()
    for seed, recruiter in ((0, False), (1, False), (2, True)):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(300 if recruiter else 3000):
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                choices = [outcomes[rng.randrange(len(outcomes))][0]]
                action = choices[0]
            else:
                choices = state.legal_actions()
                named = {state.action_to_string(a): a for a in choices}
                action = named.get("recruit") if recruiter else None
                action = choices[rng.randrange(len(choices))] if action is None else action
            for choice in choices:
                entry = said(game, state, choice)
                check_japanese(entry, names)
                reached |= set(templates(entry["say"]))
            if wanted <= reached:
                return  # every sentence said and checked: the rest of the games adds none
            state.apply_action(action)
    assert wanted <= reached, sorted(wanted - reached)


def first(seen: dict[str, list[Any]], kind: str) -> tuple[State, int, dict[str, Any]]:
    found: tuple[State, int, dict[str, Any]] = seen[kind][0]
    return found


def after(state: State, action: int) -> dict[str, Any]:
    later = state.clone()
    later.apply_action(action)
    position: dict[str, Any] = later.to_json()
    return position


def check_potlatch(seen: dict[str, list[Any]]) -> None:
    for kind in ("pawn", "chip"):
        for state, action, entry in seen[kind][:40]:
            struct = entry["struct"]
            position = state.to_json()
            assert struct["from"] == position["pawns"][struct["seat"]]
            assert struct["new_tile"] == (struct["to"] not in position["tiles"])
            assert struct["to"] in after(state, action)["tiles"]
            way = {"E": "east", "W": "west", "NE": "north-east", "SW": "south-west"}
            if struct["dir"] in way:
                assert way[struct["dir"]] in entry["words"]
            if kind == "pawn":
                assert "moves the pawn" in entry["words"]
            else:
                assert "moves a chip" in entry["words"]


def check_proteus(seen: dict[str, list[Any]]) -> None:
    state, action, entry = first(seen, "tile")
    assert entry["struct"]["tile"] + "@" + entry["struct"]["to"] == state.action_to_string(action)
    assert "face down on" in entry["words"] and "tile (" in entry["words"]
    state, action, entry = first(seen, "piece")
    assert f"on {entry['struct']['to']}" in entry["words"]
    state, action, entry = first(seen, "move")
    struct = entry["struct"]
    assert f"from {struct['from']} to {struct['to']}" in entry["words"]
    state, action, entry = first(seen, "trade")
    a, b = entry["struct"]["cells"]
    assert f"swaps the tiles of {a} and {b}" in entry["words"]
    board = after(state, action)["board"]
    assert board[a][:2] == state.to_json()["board"][b][:2]


def check_passtally(seen: dict[str, list[Any]]) -> None:
    state, action, entry = first(seen, "setup")
    assert str(entry["struct"]["slot"]) in after(state, action)["markers"]
    for state, _action, entry in seen["place"][:40]:
        struct = entry["struct"]
        assert len(struct["cells"]) == 2 and struct["cells"][0] == struct["anchor"]
        assert struct["design"] == state.to_json()["piles"]["ABC".index(struct["pile"])]["face_up"]
        assert f"on {struct['cells'][0]} and {struct['cells'][1]}" in entry["words"]
    for state, action, entry in seen["marker"][:40]:
        struct = entry["struct"]
        markers = after(state, action)["markers"]
        assert markers[str(struct["to"])] == struct["seat"]
        assert str(struct["from"]) not in markers or struct["from"] == struct["to"]
        assert f"to slot {struct['to']}" in entry["words"]
    state, action, entry = first(seen, "reveal")
    assert entry["words"].startswith(f"Pile {entry['struct']['pile']} turns up")
    # The tile is drawn on its pile; its code (notation such as "NENE") is not in the words.
    assert entry["struct"]["design"] not in entry["words"], entry["words"]
    scoring = [
        e for kind in ("place", "marker") for _s, _a, e in seen[kind] if e["struct"]["scored"]
    ]
    assert scoring, "no scoring move in these games"
    assert "scores" in scoring[0]["words"]


def check_montana(seen: dict[str, list[Any]]) -> None:
    state, action, entry = first(seen, "work")
    struct = entry["struct"]
    assert struct["space"] in state.action_to_string(action)
    assert sum(struct["workers"].values()) >= 1
    assert "worker" in entry["words"] and struct["space"] in entry["words"]
    bank = [e for _s, _a, e in seen["work"] if e["struct"]["space"].startswith("B")]
    assert bank and "silver" in bank[0]["words"] and bank[0]["struct"]["gains"]["silver"] > 0
    state, action, entry = first(seen, "build")
    # The map rings the hex the struct names; its coordinates, drawn nowhere, are not in words.
    q, r = entry["struct"]["hex"]
    assert "builds a settlement" in entry["words"] and f"{q},{r}" not in entry["words"]
    assert entry["struct"]["gains"]["settlements"] >= 1
    state, action, entry = first(seen, "place")
    assert f"row {entry['struct']['row']}, column {entry['struct']['column']}" in entry["words"]
    state, action, entry = first(seen, "trade")
    assert "trades a cattle for" in entry["words"] and entry["struct"]["gains"]["cattle"] == -1
    # Where the table rings a decision whose notation does not say: the production space of a
    # right part, the store row of a reward.
    for state, _action, entry in seen["right"]:
        assert entry["struct"]["space"] == state.to_json()["stage"]["production_space"]
    for state, _action, entry in seen["reward"]:
        seat = entry["struct"]["seat"]
        assert entry["struct"]["row"] == state.to_json()["contractors"][seat][0]


CHECKS: dict[str, Callable[[dict[str, list[Any]]], None]] = {
    "potlatch": check_potlatch,
    "proteus": check_proteus,
    "passtally": check_passtally,
    "montana": check_montana,
}


def test_structs_name_what_the_move_changes(plays: tuple[str, dict[str, list[Any]]]) -> None:
    name, seen = plays
    CHECKS[name](seen)


def test_a_move_that_ends_the_game_says_so() -> None:
    game = load("potlatch")
    for state, action in playthrough(game, 7):
        later = state.clone()
        later.apply_action(action)
        if later.is_terminal():
            entry = said(game, state, action)
            assert entry["struct"]["ends"]["winners"] == later.winners()
            # The result, then where and why (Potlatch explains its endings).
            result, _, why = entry["words"].partition(f" The game ends: {later.result_text()}. ")
            assert result and why.startswith("Red is stuck"), entry["words"]
            assert entry["struct"]["ends"]["mark"]["kind"] == "stuck"
            return
    pytest.fail("the game did not end")


def test_potlatch_sentences_on_a_known_position() -> None:
    game = load("potlatch")
    state = game.state_from_json(
        {
            "tiles": {"0,0": "N", "1,0": "NN", "-1,0": "NNR"},
            "stock": 5,
            "pawns": ["0,0", "-1,0"],
            "to_move": 0,
        }
    )
    words = {
        state.action_to_string(a): said(game, state, a)["words"] for a in state.legal_actions()
    }
    assert words["P-E"] == "Red moves the pawn east onto a stack of 2."
    assert words["P-NE"] == "Red moves the pawn north-east onto a new tile from the stock."
    assert words["C-E"] == "Red moves a chip east; the stack there rises to 3."


def test_proteus_pass_is_described() -> None:
    from boardplay.games.proteus.describe import describe

    struct, words = describe({"board": {}, "to_move": 1}, "pass", None, 1, ["Black", "White"])
    assert struct == {"seat": 1, "activated": [], "kind": "pass"}
    assert str(words) == "White passes (no other move is possible)."


@pytest.mark.parametrize("name", sorted(KINDS))
def test_bad_notation_is_refused_with_a_clear_message(name: str) -> None:
    import importlib

    describe = importlib.import_module(f"boardplay.games.{name}.describe").describe
    position = load(name).new_initial_state().to_json()
    with pytest.raises(ValueError, match="is not a"):
        describe(position, "nonsense!", None, 0, ["A", "B"])


def test_the_history_is_described_incrementally_and_after_an_undo() -> None:
    game = load("potlatch")
    steps = [(s.clone(), a) for s, a in playthrough(game, 3, limit=8)]
    moves = [Move(a, s.action_to_string(a), s.current_player()) for s, a in steps]
    history = History(game, game.new_initial_state)
    full = history.describe(moves)
    assert [w["words"] for w in full] == [said(game, s, a)["words"] for s, a in steps]
    assert history.describe(moves[:5]) == full[:5]  # an undo: described again from the start
    assert len(history.describe(moves)) == len(moves)


@pytest.mark.parametrize("name", REGISTRY.names())
def test_the_history_says_each_move_as_said_does_to_the_end(name: str) -> None:
    # The history the views send (built move by move as the game grows) says each move as
    # said() says it alone: structs, words and phrases over a whole game, the ending's too.
    game = load(name)
    steps = [(s.clone(), a) for s, a in playthrough(game, 11, limit=5000)]
    moves = [Move(a, s.action_to_string(a), s.current_player()) for s, a in steps]
    full = History(game, game.new_initial_state).describe(moves)
    assert full == [said(game, s, a) for s, a in steps]
    assert "ends" in full[-1]["struct"]


def test_the_legal_list_carries_id_notation_struct_and_words() -> None:
    game = load("passtally")
    state = next(s.clone() for s, _a in playthrough(game, 1) if not s.is_chance_node())
    listed = legal_said(game, state, state.legal_actions())
    assert [entry["id"] for entry in listed] == state.legal_actions()
    assert all(entry["move"] and entry["struct"]["kind"] and entry["words"] for entry in listed)


def test_the_view_sends_words_with_legal_moves_and_history_and_deltas_keep_them(
    registry_client: Any,
) -> None:
    from liveview import Live

    created = registry_client.post(
        "/api/games",
        json={"game": "potlatch", "seats": [{"kind": "me"}, {"kind": "hotseat"}]},
    ).json()
    gid, token = created["id"], created["token"]
    view = registry_client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
    legal = view.json()["legal"]
    assert legal and all({"id", "move", "struct", "words"} <= set(m) for m in legal)
    with registry_client.websocket_connect(f"/api/games/{gid}/ws") as socket:
        live = Live(socket)
        live.game()
        socket.send_json({"type": "hello", "token": token})
        live.game()
        first = legal[0]
        socket.send_json({"type": "act", "action": first["id"]})
        game = live.game()
        while game["ply"] == 0:
            game = live.game()
        played = game["moves"][0]
        assert played["words"] == first["words"] and played["struct"] == first["struct"]
        fresh = registry_client.get(f"/api/games/{gid}").json()
        assert game["moves"] == fresh["moves"]


VP = [
    (56, 15),
    (46, 10),
    (37, 9),
    (29, 8),
    (22, 7),
    (16, 6),
    (11, 5),
    (7, 4),
    (4, 3),
    (2, 2),
    (1, 1),
]
"""The rules spec's pass → VP table (§7.3), highest threshold first."""


def test_passtally_lines_are_traced_as_the_engine_scores_them() -> None:
    from boardplay.games.passtally.describe import lines_of

    seen = described("passtally", GAMES_PER_NAME["passtally"])
    bare = {"placements": [], "markers": {"0": 0, "17": 0, "6": 1, "22": 1}}
    assert [(line["from"], line["to"], line["passes"]) for line in lines_of(bare, 0)] == [
        (0, 17, 0)
    ]
    assert lines_of(bare, 1) == []  # 6 joins 23, not 22
    checked = 0
    for kind in ("place", "marker"):
        for _state, _action, entry in seen[kind]:
            struct = entry["struct"]
            if struct["scored"]:
                passes = sum(line["passes"] for line in struct["lines"])
                assert struct["scored"] == next(vp for low, vp in VP if passes >= low)
                checked += 1
    assert checked


@pytest.mark.parametrize(
    ("name", "limit"),
    [
        ("potlatch", "turn_limit"),
        ("proteus", "max_turns"),
        ("passtally", "max_turns"),
        ("montana", "max_turns"),
    ],
)
def test_every_end_has_a_code_the_catalogue_words(name: str, limit: str) -> None:
    """A game ends with a stable end code (none while it runs), in both catalogues: played to its
    end by the rules, and cut short by its turn limit."""
    en, ja = messages("web", "en"), messages("web", "ja")
    for options in ({}, {limit: 2}):
        game = load(name, **options)
        final = game.new_initial_state()
        for final, _action in playthrough(game, 3, limit=5000):
            assert final.end_code() is None
        code = final.end_code()  # playthrough plays on the state it hands out: now the end
        assert final.is_terminal() and code is not None
        assert f"end.{code}" in en and f"end.{code}" in ja
        if options:
            assert code == "turn_limit", (name, code)
