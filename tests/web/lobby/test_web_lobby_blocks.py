"""What a block hides in the lobby (``lobby/listing.py``): a player who blocks another, and the
player blocked, do not see each other's seeks, nor a table of three the other sits at, in
``GET /api/seeks`` or in their lobby sockets' lists, from the moment of the block; everyone
else sees them all, a guest too; the block lifted shows them again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from test_web_seeks import drain, listed, lobby, wait_for
from test_web_tables import sit, table, trio_client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with trio_client(tmp_path) as test_client:
        yield test_client


def offered(player: Player, **body: Any) -> str:
    response = player.post("/api/seeks", {"game": "tiny", **body})
    assert response.status_code == 201, response.text
    return str(response.json()["seek"]["id"])


def seen_by(client: TestClient, player: Player | None) -> set[str]:
    headers = {} if player is None else player.headers()
    response = client.get("/api/seeks", headers=headers)
    assert response.status_code == 200, response.text
    return {s["id"] for s in response.json()["seeks"]}


def test_a_block_hides_each_players_seeks_and_tables_from_the_other(client: TestClient) -> None:
    ana, bo, cy = (sign_up(client, name) for name in ("Ana", "Bob", "Cyd"))
    with lobby(client, ana) as ana_ws, lobby(client, bo) as bo_ws, lobby(client) as guest_ws:
        mine, his = offered(ana), offered(bo)
        theirs = table(cy)["id"]  # Cyd's table of three, at which Bob sits
        sit(bo, theirs)
        everything = {mine, his, theirs}

        last: dict[int, set[str]] = {}

        def lists(ws: Any, expected: set[str]) -> None:
            """Wait for the socket's latest list (sent now or earlier) to be ``expected``."""

            def latest(seen: list[dict[str, Any]]) -> bool:
                found = listed(seen)
                if found is not None:
                    last[id(ws)] = set(found)
                return last.get(id(ws)) == expected

            latest(drain(ws))  # what it was sent so far, read before any wait
            wait_for(ws, latest)

        for ws in (ana_ws, bo_ws, guest_ws):
            lists(ws, everything)
        assert ana.post("/api/relations/block/Bob").status_code == 200
        lists(ana_ws, {mine})
        lists(bo_ws, {his, theirs})
        assert seen_by(client, ana) == {mine}
        assert seen_by(client, bo) == {his, theirs}
        assert seen_by(client, cy) == everything and seen_by(client, None) == everything

        # A seek posted while blocked is hidden too, and the guest's list moves on as ever.
        later = offered(bo, options={"bonus": 1})
        lists(guest_ws, everything | {later})
        lists(ana_ws, {mine})
        assert seen_by(client, ana) == {mine}

        assert client.delete("/api/relations/block/Bob", headers=ana.headers()).status_code == 200
        lists(ana_ws, everything | {later})
        lists(bo_ws, everything | {later})
        assert seen_by(client, ana) == everything | {later}
