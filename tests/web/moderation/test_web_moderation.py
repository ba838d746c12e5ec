"""The moderators (``moderation/``), on SQLite and PostgreSQL: every moderation route refused
to guests (401) and to players who are not moderators (403), enumerated from the app's routes;
roles given with ``boardplay db role``; "report this player" and its refusals and daily
ceiling; the queue with both kinds of report and their evidence; each action in the audit log,
told to the player; a chat ban refused at every chat door; closing an account."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from typer.testing import CliRunner

from boardplay.cli.main import app as cli
from boardplay.web.app import create_app

PER_DAY = 3


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[TestClient, str]]:
    limits = {"reports_per_day": PER_DAY}
    settings = settings_on(request.param, tmp_path_factory.mktemp("mod"), request, limits)
    with TestClient(create_app(settings)) as client:
        yield client, settings.database_url


def fresh(client: TestClient, stem: str) -> Player:
    """A new player, named apart from every other test's on the module's database."""
    return sign_up(client, f"{stem}{uuid.uuid4().hex[:6]}")


def role(url: str, *args: str) -> Any:
    return CliRunner().invoke(cli, ["db", "role", *args, "--db", url])


def moderator(client: TestClient, url: str) -> Player:
    mod = fresh(client, "Mod")
    result = role(url, mod.name, "moderator")
    assert result.exit_code == 0, result.output
    return mod


def game_between(client: TestClient, first: Player, second: Player) -> tuple[str, str, str]:
    """A game of ``first`` and ``second``'s accounts: its id and each one's seat token."""
    made = client.post(
        "/api/games",
        json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "open"}]},
        headers=first.headers(),
    )
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    joined = client.post(f"/api/games/{gid}/join", json={"seat": 1}, headers=second.headers())
    assert joined.status_code == 200, joined.text
    return gid, made.json()["token"], joined.json()["token"]


def act(mod: Player, **body: Any) -> Any:
    return mod.post("/api/moderation/actions", body)


# ----- who may moderate -----------------------------------------------------------------------
def moderation_routes(client: TestClient) -> list[tuple[str, str]]:
    """Every method and path under ``/api/moderation`` the app serves (its schema's)."""
    app: Any = client.app
    return [
        (method.upper(), path)
        for path, methods in app.openapi()["paths"].items()
        if path.startswith("/api/moderation")
        for method in methods
    ]


def test_every_moderation_route_is_refused_to_guests_and_players(
    site: tuple[str, str] | Any,
) -> None:
    client, url = site
    routes = moderation_routes(client)
    assert {path for _, path in routes} >= {
        "/api/moderation/queue",
        "/api/moderation/log",
        "/api/moderation/actions",
        "/api/moderation/fairplay/{name}",
    }
    player, mod = fresh(client, "Pl"), moderator(client, url)
    body = {"action": "warn", "reason": "x", "account": player.name}
    for method, path in routes:
        guest = client.request(method, path, json=body)
        assert guest.status_code == 401, (method, path, guest.text)
        refused = client.request(method, path, json=body, headers=player.headers())
        assert refused.status_code == 403, (method, path, refused.text)
        assert refused.json()["error"]["code"] == "not_a_moderator"
    assert mod.get("/api/moderation/queue").status_code == 200
    assert mod.get("/api/moderation/log").status_code == 200
    assert client.get("/api/moderation/log", headers=player.headers()).status_code == 403
    assert act(player, **body).status_code == 403  # and nothing was logged
    assert all(
        e["account"] != player.name for e in mod.get("/api/moderation/log").json()["entries"]
    )


def test_the_operator_gives_and_takes_back_the_role(site: Any) -> None:
    client, url = site
    player = fresh(client, "Role")
    assert client.get("/api/account/notices", headers=player.headers()).json()["moderator"] is False
    unknown = role(url, "nobody-at-all", "moderator")
    assert unknown.exit_code == 2 and "no account named" in unknown.output
    assert "Traceback" not in unknown.output
    wrong = role(url, player.name, "admin")
    assert wrong.exit_code == 2 and "unknown role" in wrong.output
    assert role(url, player.name, "moderator").exit_code == 0
    again = role(url, player.name, "moderator")
    assert again.exit_code == 0 and "already" in again.output
    assert client.get("/api/account/notices", headers=player.headers()).json()["moderator"] is True
    assert player.get("/api/moderation/queue").status_code == 200
    assert role(url, player.name, "moderator", "--remove").exit_code == 0
    assert player.get("/api/moderation/queue").status_code == 403


# ----- reports --------------------------------------------------------------------------------
def test_reporting_a_player_and_its_refusals(site: Any) -> None:
    client, url = site
    ana, bo, cy = fresh(client, "Ana"), fresh(client, "Bo"), fresh(client, "Cy")
    gid, _, _ = game_between(client, ana, bo)
    path = f"/api/players/{bo.name}/report"
    guest = client.post(path, json={"reason": "abuse"})
    assert guest.status_code == 401
    assert ana.post(f"/api/players/{ana.name}/report", {"reason": "abuse"}).status_code == 400
    assert ana.post("/api/players/nobody-here/report", {"reason": "abuse"}).status_code == 404
    assert ana.post(path, {"reason": "rude"}).status_code == 400
    assert ana.post(path, {"reason": "other", "note": "x" * 501}).status_code == 400
    other, _, _ = game_between(client, ana, cy)
    assert ana.post(path, {"reason": "cheating", "game": other}).status_code == 400
    made = ana.post(path, {"reason": "cheating", "note": " engine\nmoves ", "game": gid})
    assert made.status_code == 201, made.text
    for _ in range(PER_DAY - 1):
        assert ana.post(path, {"reason": "farming"}).status_code == 201
    over = ana.post(path, {"reason": "farming"})
    assert over.status_code == 429 and over.json()["error"]["code"] == "too_many_reports"
    assert "Retry-After" in over.headers
    # a closed account cannot be reported
    assert cy.post("/api/account/delete", {"confirm": cy.name}).status_code == 200
    assert bo.post(f"/api/players/{cy.name}/report", {"reason": "abuse"}).status_code == 404

    mod = moderator(client, url)
    queue = mod.get("/api/moderation/queue").json()
    mine = [r for r in queue["players"] if r["reporter"] == ana.name]
    assert len(mine) == PER_DAY
    first = next(r for r in mine if r["reason"] == "cheating")
    assert first["reported"] == bo.name and first["text"] == "engine moves"
    assert first["game_id"] == gid
    assert [g["id"] for g in first["games"]] == [gid]  # the games between the two, not Cy's
    shown = {"id": gid, "game": "tiny", "players": [ana.name, bo.name]}
    assert {k: first["games"][0][k] for k in shown} == shown  # as "game, date, players"
    assert first["games"][0]["updated"] and first["game"] == first["games"][0]


def test_a_reported_chat_line_is_in_the_queue_with_its_context(site: Any) -> None:
    client, url = site
    ana, bo = fresh(client, "Chat"), fresh(client, "Rude")
    gid, ana_token, bo_token = game_between(client, ana, bo)
    ids = []
    for token, text in ((ana_token, "hello"), (bo_token, "you are awful"), (ana_token, "bye")):
        if text == "bye":
            time.sleep(1.05)  # a sender's one line a second
        said = client.post(
            f"/api/games/{gid}/chat",
            json={"channel": "players", "text": text},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert said.status_code == 201, said.text
        ids.append(said.json()["message"]["id"])
    reported = client.post(
        f"/api/games/{gid}/chat/{ids[1]}/report", headers={"Authorization": f"Bearer {ana_token}"}
    )
    assert reported.status_code == 200
    mod = moderator(client, url)
    line = next(r for r in mod.get("/api/moderation/queue").json()["chat"] if r["game_id"] == gid)
    assert line["text"] == "you are awful" and line["message_id"] == ids[1]
    assert [m["text"] for m in line["context"]] == ["hello", "you are awful", "bye"]
    assert line["game"]["game"] == "tiny" and line["game"]["players"] == [ana.name, bo.name]
    entry = act(mod, action="chat_ban", days=3, reason="insults", report=line["id"])
    assert entry.status_code == 201, entry.text
    assert entry.json()["entry"]["account"] == bo.name
    assert all(r["id"] != line["id"] for r in mod.get("/api/moderation/queue").json()["chat"])
    twice = act(mod, action="dismiss", reason="again", report=line["id"])
    assert twice.status_code == 409


# ----- actions --------------------------------------------------------------------------------
def test_a_warning_is_logged_and_told_to_the_player_once(site: Any) -> None:
    client, url = site
    ana, bo = fresh(client, "Warner"), fresh(client, "Warned")
    assert ana.post(f"/api/players/{bo.name}/report", {"reason": "abuse"}).status_code == 201
    mod = moderator(client, url)
    report = next(
        r for r in mod.get("/api/moderation/queue").json()["players"] if r["reported"] == bo.name
    )
    assert act(mod, action="chat_ban", reason="x", report=report["id"]).status_code == 400
    assert act(mod, action="warn", reason="  ", report=report["id"]).status_code == 400
    assert act(mod, action="dismiss", reason="x", account=bo.name).status_code == 400
    done = act(mod, action="warn", reason="be kind\nin chat", report=report["id"])
    assert done.status_code == 201, done.text
    (entry,) = [
        e for e in mod.get("/api/moderation/log").json()["entries"] if e["account"] == bo.name
    ]
    assert entry["moderator"] == mod.name and entry["action"] == "warn"
    assert entry["reason"] == "be kind in chat" and entry["report"] == report["id"]
    assert entry["created"] > time.time() - 60
    told = client.get("/api/account/notices", headers=bo.headers()).json()["notices"]
    assert [(n["action"], n["reason"]) for n in told] == [("warn", "be kind in chat")]
    assert client.get("/api/account/notices", headers=ana.headers()).json()["notices"] == []
    assert bo.post(f"/api/account/notices/{told[0]['id']}/seen").status_code == 200
    assert client.get("/api/account/notices", headers=bo.headers()).json()["notices"] == []
    assert ana.post(f"/api/account/notices/{told[0]['id']}/seen").status_code == 404


def test_a_chat_ban_is_refused_at_every_chat_door(site: Any) -> None:
    client, url = site
    ana, bo = fresh(client, "Host"), fresh(client, "Banned")
    gid, _, bo_token = game_between(client, ana, bo)
    tournament = ana.post(
        "/api/tournaments",
        {
            "name": "Talk",
            "kind": "swiss",
            "game": "tiny",
            "clock": {"base": 600, "increment": 5},
            "starts": time.time() + 600,
            "rounds": 1,
        },
    )
    assert tournament.status_code == 201, tournament.text
    tid = tournament.json()["tournament"]["id"]
    assert bo.post(f"/api/tournaments/{tid}/join").status_code == 200
    watched, _, _ = game_between(client, ana, fresh(client, "Other"))

    def doors() -> dict[str, int]:
        bearer = {"Authorization": f"Bearer {bo_token}"}
        players = client.post(
            f"/api/games/{gid}/chat", json={"channel": "players", "text": "hi"}, headers=bearer
        )
        spectators = bo.post(f"/api/games/{watched}/chat", {"channel": "spectators", "text": "hi"})
        talk = bo.post(f"/api/tournament-pages/{tid}/chat", {"text": "hi"})
        with client.websocket_connect(f"/api/games/{gid}/ws", headers=bo.headers(csrf=False)) as ws:
            ws.send_json({"type": "hello", "token": bo_token, "id": "h"})
            while ws.receive_json().get("id") != "h":
                pass
            ws.send_json({"type": "chat", "channel": "players", "text": "hi", "id": "c"})
            while (answer := ws.receive_json()).get("id") != "c":
                pass
        banned = answer["type"] == "error" and answer["error"]["code"] == "chat_banned"
        socket = answer["status"] if banned else 201
        return {
            "players": players.status_code,
            "spectators": spectators.status_code,
            "tournament": talk.status_code,
            "socket": socket,
        }

    mod = moderator(client, url)
    assert act(mod, action="chat_ban", days=2, reason="spam", account=bo.name).status_code == 201
    refused = doors()
    assert refused == dict.fromkeys(refused, 403), refused
    said = bo.post(f"/api/tournament-pages/{tid}/chat", {"text": "hi"}).json()["error"]
    assert said["code"] == "chat_banned"
    (notice,) = client.get("/api/account/notices", headers=bo.headers()).json()["notices"]
    assert notice["action"] == "chat_ban" and notice["days"] == 2
    assert notice["until"] > time.time() + 2 * 86_400 - 120
    # reading stays open
    assert client.get(f"/api/tournament-pages/{tid}/chat").status_code == 200


def test_closing_an_account_uses_the_accounts_own_closing(site: Any) -> None:
    client, url = site
    bo = fresh(client, "Closed")
    mod = moderator(client, url)
    assert act(mod, action="close", reason="x", account=mod.name).status_code == 400
    done = act(mod, action="close", reason="boosting ring", account=bo.name)
    assert done.status_code == 201, done.text
    assert client.get(f"/api/players/{bo.name}").status_code == 404
    assert bo.get("/api/account/me").json()["account"] is None  # its sessions ended
    signin = client.post(
        "/api/account/signin", json={"name": bo.name, "password": "correct horse battery"}
    )
    assert signin.status_code == 401
    entries = mod.get("/api/moderation/log").json()["entries"]
    assert any(e["action"] == "close" and e["account"] == bo.name for e in entries)
