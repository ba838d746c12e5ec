"""The adapter benchmark runs every adapter and PettingZoo's connect_four_v3 in one call (speed
itself is measured by `make bench`, never asserted)."""

from __future__ import annotations

import pytest

import boardplay
from boardplay.adapters.bench import ADAPTERS, REFERENCE, adapter_throughput, format_table


def test_rows_for_every_adapter_and_the_reference() -> None:
    name = sorted(boardplay.available())[0]
    rows = adapter_throughput([name], seconds=0.02, seed=1)
    assert [(r.adapter, r.game) for r in rows] == [(a, name) for a in ADAPTERS] + [
        ("pettingzoo", REFERENCE)
    ]
    for row in rows:
        if row.note:  # only the reference and compact rows may be skipped, saying why
            assert (row.game == REFERENCE and "pygame" in row.note) or (
                row.adapter == "compact" and "no compact observation" in row.note
            )
            continue
        assert row.steps > 0 and row.seconds > 0
        assert row.steps_per_second == row.steps / row.seconds
    table = format_table(rows)
    assert all(a in table for a in ADAPTERS) and REFERENCE in table


def test_compact_row_runs_where_the_kernel_has_a_compact_observation() -> None:
    (row,) = adapter_throughput(["potlatch"], seconds=0.02, seed=1, adapters=["compact"])
    assert not row.note and row.steps >= 1024 and row.seconds > 0


def test_unknown_adapter_is_named() -> None:
    with pytest.raises(ValueError, match="unknown adapter 'rllib'"):
        adapter_throughput([], adapters=["rllib"])


@pytest.mark.parametrize("engine_rollouts", [False, True])
def test_openspiel_mctsbot_searches_the_position_the_compiled_search_measures(
    engine_rollouts: bool,
) -> None:
    """``boardplay bench --mcts``'s MCTSBot columns: a rate from OpenSpiel's bot, with its own
    rollouts and with the engine's (``adapters.mctsbot``, beside ``ai.bench``)."""
    from boardplay.adapters.mctsbot import openspiel_mcts_speed

    assert openspiel_mcts_speed("potlatch", 0.05, engine_rollouts=engine_rollouts) > 0
