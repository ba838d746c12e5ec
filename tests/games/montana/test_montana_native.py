"""Montana's native yardstick (``tools/native/montana.c``, issue 51) plays the engine's game.

Random games played by the engine are written as records (every action and chance outcome in
the engine's numbering, with a fingerprint of the legal set at every step, and the final
holdings and result) and replayed by the C program's ``check`` mode, which stops at the first
step where its own legal set differs. Its own uniform-random games must then last as long as the
engine's, on average, within sampling noise: the games per second it reports are games of the
same length. The record format is described at the top of the C source.
"""

from __future__ import annotations

import json
import math
import random
import subprocess
from array import array
from dataclasses import dataclass
from pathlib import Path

import pytest

import boardplay
from boardplay.core.speed import native_program, yardstick_speed
from boardplay.games.montana import fields
from boardplay.games.montana.game import MontanaGame
from support import SplitMix, games

MAGIC = 0x4D4F4E54
MASK = (1 << 64) - 1
ENDED_BY = {"": 0, "trigger": 1, "max_turns": 2}
OPTION_BITS = {
    "recruit_grain": ("additional", 1),
    "build_adjacent_any": (True, 2),
    "canteen_after_final": (True, 4),
    "tiebreak_money": ("coins", 8),
}


@pytest.fixture(scope="module")
def program() -> Path:
    built = native_program("montana")
    if built is None:
        pytest.skip("no C compiler (cc or $CC) to build tools/native/montana.c")
    return built


def _keys(count: int) -> list[int]:
    stream = SplitMix(MAGIC)
    return [stream.next() for _ in range(count)]


@dataclass
class Recorded:
    words: array[int]
    lengths: list[int]
    decisions: int


def _option_bits(game: MontanaGame) -> int:
    bits = 0
    for name, (value, bit) in OPTION_BITS.items():
        if game.options[name] == value:
            bits |= bit
    return bits


def record_games(game: MontanaGame, count: int, seed: int) -> Recorded:
    """``count`` random games of ``game`` by the engine (a uniform choice among the legal
    actions and among the chance outcomes, which are uniform in Montana), as check records."""
    rng = random.Random(seed)
    keys = _keys(max(game.num_distinct_actions, game.max_chance_outcomes))
    fingerprint = keys.__getitem__
    start = game.new_initial_state().kernel
    assert start is not None
    bits = _option_bits(game)
    words: array[int] = array("q")
    lengths: list[int] = []
    decisions = 0
    for _ in range(count):
        kernel = start.clone()
        steps: list[int] = []
        while (player := kernel.current_player()) != -4:
            if player == -1:
                outcomes = kernel.chance_outcomes()
                chance = 1.0 / len(outcomes)
                assert all(p == chance for _, p in outcomes)  # the C side draws uniformly
                ids = [o for o, _ in outcomes]
                action = ids[rng.randrange(len(ids))]
                steps += (action, -len(ids), sum(map(fingerprint, ids)) & MASK)
            else:
                legal = kernel.legal_actions()
                action = legal[rng.randrange(len(legal))]
                steps += (action, len(legal), sum(map(fingerprint, legal)) & MASK)
                decisions += 1
            kernel.step(action)
        end = fields.snapshot(kernel)
        tail = [end["won_mask"], ENDED_BY[end["ended_by"]], end["turn_number"]]
        for p in range(4):
            if p < game.num_players:
                goods = sum(end["goods"][6 * p : 6 * p + 6])  # flat: seat by seat
                workers = sum(end["workers"][4 * p : 4 * p + 4])
                tail += [end["tiles"][p], end["silver"][p], end["cattle"][p], end["canteens"][p]]
                tail += [goods, workers]
            else:
                tail += [0] * 6
        words.extend([MAGIC, game.num_players, bits, game.max_turns, len(steps) // 3])
        # fingerprints are unsigned 64-bit sums; the words are signed
        words.extend(w - (1 << 64) if w >= 1 << 63 else w for w in steps)
        words.extend(tail)
        lengths.append(len(steps) // 3)
    return Recorded(words, lengths, decisions)


def check(program: Path, recorded: Recorded) -> dict[str, int]:
    done = subprocess.run(
        [str(program), "check"], input=recorded.words.tobytes(), capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    report: dict[str, int] = json.loads(done.stdout)
    return report


def native_bench(program: Path, players: int, count: int, seed: int) -> dict[str, float]:
    done = subprocess.run(
        [str(program), "bench", str(players), str(count), str(seed)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    report: dict[str, float] = json.loads(done.stdout)
    return report


def _replays(program: Path, total: int, seed: int) -> None:
    """``total`` engine games, split over 2, 3 and 4 players, replayed by ``check``; and the
    program's own random games as long as the engine's, within sampling noise (4 sigma)."""
    for players in (2, 3, 4):
        game = boardplay.load("montana", players=players)
        assert isinstance(game, MontanaGame)
        recorded = record_games(game, total // 3 + 1, seed + players)
        report = check(program, recorded)
        assert report["games"] == len(recorded.lengths)
        assert report["failures"] == 0
        assert report["steps"] == sum(recorded.lengths)
        assert report["decisions"] == recorded.decisions
        ours = native_bench(program, players, 5 * len(recorded.lengths), seed)
        n = len(recorded.lengths)
        mean = sum(recorded.lengths) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in recorded.lengths) / (n - 1))
        noise = math.sqrt(sd**2 / n + ours["length_sd"] ** 2 / ours["games"])
        assert abs(ours["mean_length"] - mean) < 4 * noise, (players, mean, ours)


def test_native_program_replays_the_engine_games(program: Path) -> None:
    """2,000 engine games (20,000 under make soak) step by step: 1.3 million steps, each
    legal set compared, in about ten seconds."""
    _replays(program, games(2000, 20_000), 51)


@pytest.mark.parametrize(
    "options",
    [
        "recruit_grain=additional,build_adjacent_any=true",
        "canteen_after_final=true,tiebreak_money=coins,max_turns=120",
    ],
)
def test_native_program_plays_the_other_rule_options(program: Path, options: str) -> None:
    """The options it takes as bits (and a shorter turn cap) replay as well."""
    for players in (2, 4):
        game = boardplay.load(f"montana(players={players},{options})")
        assert isinstance(game, MontanaGame)
        recorded = record_games(game, games(60, 600), players)
        assert check(program, recorded)["failures"] == 0


def test_check_mode_finds_a_wrong_record(program: Path) -> None:
    """A record whose legal set is off by one action, or whose result is wrong, fails."""
    game = boardplay.load("montana", players=3)
    assert isinstance(game, MontanaGame)
    recorded = record_games(game, 1, 7)
    wrong = array("q", recorded.words)
    wrong[5 + 3 * 40 + 1] += 1  # the count of legal actions at step 40
    done = subprocess.run([str(program), "check"], input=wrong.tobytes(), capture_output=True)
    assert done.returncode == 1 and b"step 40" in done.stderr
    wrong = array("q", recorded.words)
    wrong[-6 * 4 + 1] += 1  # seat 0's silver at the end
    done = subprocess.run([str(program), "check"], input=wrong.tobytes(), capture_output=True)
    assert done.returncode == 1 and b"result word" in done.stderr


def test_bench_runs_it_as_montanas_yardstick(program: Path) -> None:
    """``boardplay bench`` reads its games per second for the option sets it plays."""
    speed = yardstick_speed(boardplay.load("montana", players=4), 0.01)
    assert speed is not None and speed.games == 1000 and speed.seconds > 0
    assert 700 < speed.actions / speed.games < 1000  # about 840 actions a game
    assert yardstick_speed(boardplay.load("montana(max_turns=100)"), 0.01) is None
