"""Records and replays: a game's record as a download, every position of a game or of an
uploaded record. All are heavy reads (``replays/heavy.py``): built off the event loop and charged to
the asking address; a game's replay is built once per revision and revalidated by ETag."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from boardplay.web.api.deps import AddressDep, HeavyDep, LimitsDep, RoomDep
from boardplay.web.replays import RecordUpload, check_length, record_of

router = APIRouter(prefix="/api")


@router.get("/games/{game_id}/record")
async def record(room: RoomDep, heavy: HeavyDep, address: AddressDep) -> Response:
    made = record_of(room)
    data = await heavy.build(address, "records", made.to_json)
    filename = f"boardplay-{room.row.game}-{room.row.id}.json"
    return Response(
        data,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/games/{game_id}/replay")
async def replay_game(
    request: Request, room: RoomDep, heavy: HeavyDep, limits: LimitsDep, address: AddressDep
) -> Response:
    """Every position of the game, built once per revision; a repeat with ``If-None-Match`` is
    a 304."""
    tag = f'"{room.row.id}.{room.row.revision}"'
    headers = {"ETag": tag, "Cache-Control": "private, no-cache"}
    if tag in request.headers.get("if-none-match", ""):
        return Response(status_code=304, headers=headers)
    made = record_of(room)
    check_length(len(made.moves), limits.replay_max_plies)
    key = (room.row.id, room.row.revision)
    data = await heavy.replay(address, made.to_json(), True, key)
    return Response(data, media_type="application/json", headers=headers)


@router.post("/replay")
async def replay_upload(
    heavy: HeavyDep, limits: LimitsDep, address: AddressDep, body: RecordUpload
) -> Response:
    """Every position of an uploaded record, checked move by move (``replays/records.py``)."""
    plies = max(len(body.actions), len(body.moves), len(body.seats))
    check_length(plies, limits.replay_max_plies)
    data = await heavy.replay(address, body.model_dump())
    return Response(data, media_type="application/json")
