"""The server trusts no visitor (issue 13): no request opens a path it names, chance cannot be
predicted or read back, records are re-derived from their moves, undo is guarded like a move."""

from __future__ import annotations

import json
import os
import shutil
import threading
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webcalls import HUMANS, auth, create, refused

from boardplay.core.errors import OptionError
from boardplay.web.app import create_app
from boardplay.web.config import Settings

# ----- 1. no request opens a path it names ------------------------------------------------------


def test_options_naming_files_are_refused_without_revealing_the_file_system(
    registry_client: TestClient,
) -> None:
    before = registry_client.get("/api/games").json()["games"]
    for path in ("/etc/passwd", "/no/such/file.json", "../../etc/hostname", "default/../x"):
        for url, body in (
            ("/api/games/preview", {"game": "montana", "options": {"data": path}}),
            (
                "/api/games",
                {"game": "montana", "options": {"data": path}, "seats": HUMANS},
            ),
        ):
            message = refused(registry_client.post(url, json=body))
            assert "data" in message and "default" in message
            for leak in ("passwd", "No such file", "not valid JSON", "/etc", "hostname"):
                assert leak not in message, message
    assert registry_client.get("/api/games").json()["games"] == before


def test_the_operator_offers_data_files_by_name(tmp_path: Path) -> None:
    data_dir = tmp_path / "montana-data"
    data_dir.mkdir()
    shipped = resources.files("boardplay.games.montana").joinpath("data/components.json")
    (data_dir / "variant.json").write_text(shipped.read_text("utf-8"), "utf-8")
    (data_dir / "notes.txt").write_text("not offered", "utf-8")
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'd.sqlite3'}", ai_workers=0, data_dir=str(data_dir)
    )
    with TestClient(create_app(settings)) as client:
        games = client.get("/api/catalogue").json()["games"]
        option = next(
            o for g in games if g["name"] == "montana" for o in g["options"] if o["name"] == "data"
        )
        assert option["choices"] == ["default", "variant"]
        preview = client.post(
            "/api/games/preview", json={"game": "montana", "options": {"data": "variant"}}
        )
        assert preview.status_code == 200 and preview.json()["options"]["data"] == "variant"
        created = create(client, game="montana", options={"data": "variant"})
        texts = [
            json.dumps(created),
            client.get(f"/api/games/{created['id']}/record").text,
            client.get(f"/api/games/{created['id']}/replay").text,
        ]
        for text in texts:
            assert str(tmp_path) not in text
        message = refused(
            client.post(
                "/api/games/preview", json={"game": "montana", "options": {"data": "notes"}}
            )
        )
        assert "default, variant" in message


def test_local_data_files_are_read_with_a_size_limit_and_only_if_regular(tmp_path: Path) -> None:
    from boardplay.games.montana.data import MAX_DATA_BYTES, load_components

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    outcome: list[Any] = []

    def attempt() -> None:
        try:
            load_components(str(fifo))
            outcome.append("read")
        except OptionError as exc:
            outcome.append(exc)

    reader = threading.Thread(target=attempt, daemon=True)
    reader.start()
    reader.join(timeout=5)
    if reader.is_alive():  # unblock the stuck reader before failing
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        reader.join(timeout=5)
        pytest.fail("reading a FIFO blocked")
    assert isinstance(outcome[0], OptionError) and "regular file" in str(outcome[0])
    big = tmp_path / "big.json"
    big.write_bytes(b" " * (MAX_DATA_BYTES + 1))
    with pytest.raises(OptionError, match="larger than"):
        load_components(str(big))
    with pytest.raises(OptionError, match="regular file"):
        load_components("/dev/zero")
    shipped = resources.files("boardplay.games.montana").joinpath("data/components.json")
    local = tmp_path / "copy.json"
    with resources.as_file(shipped) as source:
        shutil.copy(source, local)
    assert load_components(str(local)).digest == load_components().digest


# ----- 2. chance drawn by the server, never shown ---------------------------------------------
def keys_and_strings(value: Any, path: str = "") -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out.append((f"{path}.{key}", item))
            out.extend(keys_and_strings(item, f"{path}.{key}"))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(keys_and_strings(item, f"{path}[{index}]"))
    return out


def secret_keys(value: Any) -> list[str]:
    """Keys that would reveal how chance is drawn (Montana's ``position.board.seed`` names the
    board already dealt and shown, so it is public)."""
    return [
        path
        for path, _ in keys_and_strings(value)
        if any(word in path.rsplit(".", 1)[-1].lower() for word in ("seed", "rng", "random"))
        and not path.endswith("board.seed")
    ]


def test_a_visitor_cannot_choose_the_seed_of_an_ordinary_game(client: TestClient) -> None:
    message = refused(client.post("/api/games", json={"game": "tiny", "seats": HUMANS, "seed": 7}))
    assert "reproducible" in message
    assert client.get("/api/games").json()["games"] == []


def test_no_response_to_any_seat_or_spectator_reveals_a_seed(client: TestClient) -> None:
    created = create(client, seats=[{"kind": "me"}, {"kind": "invite"}])
    gid, host = created["id"], created["token"]
    guest = client.post(f"/api/games/{gid}/join", json={"invite": created["invites"]["1"]}).json()
    seen: list[Any] = [created, guest, client.get("/api/catalogue").json()]
    with client.websocket_connect(f"/api/games/{gid}/ws") as spectator:
        seen.append(spectator.receive_json())
        game = created["game"]
        while not game["terminal"]:
            token = host if game["current_player"] == 0 else guest["token"]
            answer = client.post(
                f"/api/games/{gid}/actions",
                json={"action": game["legal"][-1]["move"]},
                headers=auth(token),
            ).json()
            seen.append(answer)
            seen.append(spectator.receive_json())
            game = answer["game"]
    seen += [
        client.get(f"/api/games/{gid}", headers=auth(host)).json(),
        client.get(f"/api/games/{gid}").json(),
        client.get(f"/api/games/{gid}/record").json(),
        client.get(f"/api/games/{gid}/replay").json(),
        client.get("/api/games").json(),
    ]
    for item in seen:
        assert secret_keys(item) == [], secret_keys(item)
    assert created["game"]["reproducible"] is False


def test_games_with_identical_inputs_draw_different_tiles(registry_client: TestClient) -> None:
    def reveals() -> list[int]:
        game = create(registry_client, game="passtally")["game"]
        assert secret_keys(game) == []
        return [m["action"] for m in game["moves"] if m["player"] == -1]

    draws = [reveals() for _ in range(4)]
    assert all(len(d) >= 3 for d in draws)
    assert len({tuple(d) for d in draws}) > 1, draws


def test_the_tiny_game_draws_from_the_server_not_from_a_stored_seed(client: TestClient) -> None:
    piles = {create(client)["game"]["position"]["pile"] for _ in range(30)}
    assert len(piles) > 1
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert all(room.row.seed is None for room in hub.rooms.values())


def test_reproducible_games_are_agreed_by_everyone_and_labelled(client: TestClient) -> None:
    body = {"seats": [{"kind": "me"}, {"kind": "invite"}], "reproducible": True, "seed": 7}
    first, second = create(client, **body), create(client, **body)
    assert first["game"]["reproducible"] and first["game"]["seed"] == 7
    assert first["game"]["position"] == second["game"]["position"]
    gid, code = first["id"], first["invites"]["1"]
    message = refused(client.post(f"/api/games/{gid}/join", json={"invite": code}), 409)
    assert "accept_reproducible" in message
    assert not client.get(f"/api/games/{gid}").json()["seats"][1]["claimed"]
    joined = client.post(
        f"/api/games/{gid}/join", json={"invite": code, "accept_reproducible": True}
    )
    assert joined.status_code == 200 and joined.json()["game"]["reproducible"]
    listed = client.get("/api/games").json()["games"]
    assert all(g["reproducible"] for g in listed)
    record = client.get(f"/api/games/{gid}/record").json()
    assert record["meta"]["reproducible"] and record["meta"]["seed"] == 7


# ----- 6. undo is guarded like a move; records are re-derived ------------------------------
def test_two_simultaneous_undos_take_back_one_step(client: TestClient) -> None:
    created = create(client, options={"bonus": 1})
    gid, token = created["id"], created["token"]
    for ply in (1, 2):
        answer = client.post(
            f"/api/games/{gid}/actions", json={"action": "t1", "ply": ply}, headers=auth(token)
        )
        assert answer.status_code == 200, answer.text
    first = client.post(f"/api/games/{gid}/undo", json={"ply": 3}, headers=auth(token))
    second = client.post(f"/api/games/{gid}/undo", json={"ply": 3}, headers=auth(token))
    assert first.status_code == 200 and first.json()["game"]["ply"] == 2
    assert "ply" in refused(second, 409)
    assert client.get(f"/api/games/{gid}").json()["ply"] == 2


def finished_record(client: TestClient) -> dict[str, Any]:
    created = create(client)
    gid, token = created["id"], created["token"]
    game = created["game"]
    while not game["terminal"]:
        game = client.post(
            f"/api/games/{gid}/actions",
            json={"action": game["legal"][0]["move"]},
            headers=auth(token),
        ).json()["game"]
    record: dict[str, Any] = client.get(f"/api/games/{gid}/record").json()
    return record


def test_a_record_whose_result_disagrees_with_its_moves_is_refused(client: TestClient) -> None:
    record = finished_record(client)
    forged = json.loads(json.dumps(record))
    forged["result"]["winners"] = [1] if record["result"]["winners"] != [1] else [0]
    forged["result"]["text"] = "South wins (forged)"
    assert "'result'" in refused(client.post("/api/replay", json=forged))
    unfinished = {**record, "result": None}
    unfinished["actions"], unfinished["moves"], unfinished["seats"] = (
        record["actions"][:2],
        record["moves"][:2],
        record["seats"][:2],
    )
    unfinished["finished"] = record["finished"]
    assert "'finished'" in refused(client.post("/api/replay", json=unfinished))
    players = {**record, "players": record["players"][:1]}
    assert "'players'" in refused(client.post("/api/replay", json=players))


def test_the_replay_download_is_rebuilt_from_the_moves(client: TestClient) -> None:
    record = finished_record(client)
    record["meta"] = {"note": "<script>alert(1)</script>", "server_game_id": "elsewhere"}
    record["options"] = {}
    answer = client.post("/api/replay", json=record)
    assert answer.status_code == 200, answer.text
    rebuilt = answer.json()["record"]
    assert rebuilt["options"] == {"bonus": 0}
    assert rebuilt["result"] == record["result"]
    assert "meta" not in rebuilt or "note" not in rebuilt["meta"]


def test_a_database_from_before_reproducible_games_is_brought_up_to_date(tmp_path: Path) -> None:
    """Games stored before the ``reproducible`` column existed (and before migrations: no
    ``alembic_version`` table) become ordinary games: their old seed is neither used nor shown,
    and new chance comes from the server."""
    import sqlalchemy as sa

    from boardplay.web.table import storage as st

    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    store = st.Storage(url)
    row = st.GameRow(id="old", game="tiny", options={"bonus": 0}, seed=None, seats=[])
    row.seats = [st.SeatRow(0, st.HUMAN, "A"), st.SeatRow(1, st.HUMAN, "B")]
    store.create_game(row)
    with store.engine.begin() as conn:
        conn.execute(sa.text("ALTER TABLE games DROP COLUMN reproducible"))
        conn.execute(sa.text("DROP TABLE alembic_version"))
        conn.execute(sa.text("UPDATE games SET seed = 12345"))
    store.close()
    again = st.Storage(url)
    loaded = again.get_game("old")
    assert loaded is not None and loaded.seed is None
    again.close()
