"""Bot accounts and personal API tokens on one process (``bots/``): a token is shown once and
stored hashed, listed without its secret and revoked; the ceiling of tokens per account; only
an account with no game becomes a bot, for good; a bot is marked BOT wherever it is named (the
game's seats, challenges, the profile) and has its own leaderboard; a bot gets no seeks; the
Bot API plays for bot accounts only; an abort while a player has not moved."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from accountcalls import PASSWORD, RAPID, Player, session_of, sign_up
from fastapi.testclient import TestClient
from sqlalchemy.engine.interfaces import CacheStats
from websettings import tiny_settings

from boardplay.web.app import create_app
from boardplay.web.bots.store import api_tokens_table
from boardplay.web.table.schema import games_table, seat_keys_table
from boardplay.web.tokens import hash_token


def token(player: Player, scopes: list[str], label: str = "t") -> Any:
    answer = player.post("/api/account/tokens", {"label": label, "scopes": scopes})
    assert answer.status_code == 201, answer.text
    return answer.json()


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def bot_of(client: TestClient, name: str) -> tuple[Player, str]:
    player = sign_up(client, name)
    secret = token(player, ["bot:play", "challenge:read", "challenge:write"])["token"]
    upgraded = client.post("/api/bot/account/upgrade", headers=bearer(secret))
    assert upgraded.status_code == 200, upgraded.text
    return player, secret


def test_a_token_is_shown_once_stored_hashed_listed_and_revoked(tmp_path: Path) -> None:
    settings = tiny_settings(tmp_path, limits={"api_tokens_per_account": 2})
    with TestClient(create_app(settings)) as client:
        ann = sign_up(client, "ann")
        made = token(ann, ["challenge:read"], "my   script\n")
        secret = made["token"]
        assert secret.startswith("bp_") and made["label"] == "my script"
        engine = sa.create_engine(settings.database_url)
        with engine.connect() as conn:
            stored = conn.execute(sa.select(api_tokens_table.c.token_hash)).scalars().all()
        assert stored == [hash_token(secret)]  # the secret itself is nowhere
        listed = ann.get("/api/account/tokens").json()
        assert listed["bot"] is False
        assert [t["id"] for t in listed["tokens"]] == [made["id"]]
        assert "token" not in listed["tokens"][0]
        me = client.get("/api/account", headers=bearer(secret)).json()
        assert me == {"id": "ann", "username": "ann", "title": None, "scopes": ["challenge:read"]}
        token(ann, ["bot:play"])
        third = ann.post("/api/account/tokens", {"scopes": ["bot:play"]})
        assert third.status_code == 409 and third.json()["error"]["code"] == "too_many_tokens"
        no_csrf = client.post(
            "/api/account/tokens", json={"scopes": ["bot:play"]}, headers=ann.headers(csrf=False)
        )
        assert no_csrf.status_code == 403
        gone = client.delete(f"/api/account/tokens/{made['id']}", headers=ann.headers())
        assert gone.status_code == 200
        assert client.get("/api/account", headers=bearer(secret)).status_code == 401
        again = client.delete(f"/api/account/tokens/{made['id']}", headers=ann.headers())
        assert again.status_code == 404
        bo = sign_up(client, "bob")
        theirs = client.delete(
            f"/api/account/tokens/{made['id'] + 1}", headers=bo.headers()
        )  # ann's other token: not bo's to revoke
        assert theirs.status_code == 404
        assert len(ann.get("/api/account/tokens").json()["tokens"]) == 1


def test_a_bots_token_is_read_once_and_forgotten_once_revoked_unheard(tmp_path: Path) -> None:
    """A bot's token is read from the database once per process, then known without a query;
    a revocation this process never heard of (another process's, whose broker message was lost)
    is found by the next check of the tokens known, and the token is refused from then on."""
    settings = tiny_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        bots = client.app.state.hub.bots  # type: ignore[attr-defined]
        _bot, secret = bot_of(client, "botty")
        assert client.get("/api/account", headers=bearer(secret)).status_code == 200
        read: list[str] = []
        find = bots.store.find

        def counted(digest: str) -> Any:
            read.append(digest)
            return find(digest)

        bots.store.find = counted
        for _ in range(3):
            assert client.get("/api/account", headers=bearer(secret)).json()["title"] == "BOT"
        assert read == []
        with sa.create_engine(settings.database_url).begin() as conn:
            conn.execute(api_tokens_table.delete())  # revoked where this process did not hear
        client.portal.call(bots.check)  # type: ignore[union-attr]
        assert client.get("/api/account", headers=bearer(secret)).status_code == 401


def test_only_a_fresh_account_becomes_a_bot_and_a_bot_is_marked_everywhere(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        ann = sign_up(client, "ann")
        made = client.post(
            "/api/games",
            json={"game": "tiny", "seats": [{"kind": "me"}, {"kind": "ai", "spec": "random"}]},
            headers=ann.headers(),
        )
        assert made.status_code == 201
        ann_token = token(ann, ["bot:play"])["token"]
        late = client.post("/api/bot/account/upgrade", headers=bearer(ann_token))
        assert late.status_code == 409 and late.json()["error"]["code"] == "not_fresh"
        page = ann.post("/api/account/bot", {"confirm": "ann"})
        assert page.status_code == 409

        robo, secret = bot_of(client, "robo")
        assert client.get("/api/account", headers=bearer(secret)).json()["title"] == "BOT"
        assert robo.get("/api/account/tokens").json()["bot"] is True
        assert client.get("/api/players/robo").json()["bot"] is True
        assert client.get("/api/players/ann").json()["bot"] is False
        # No seeks for a bot: challenges only.
        seek = robo.post("/api/seeks", {"game": "tiny"})
        assert seek.status_code == 403 and seek.json()["error"]["code"] == "bot_no_seeks"
        quick = robo.post("/api/seeks/quick", {"game": "tiny"})
        assert quick.status_code == 403
        # A rated challenge from a person to the bot: marked on both sides, and on the seats.
        sent = ann.post(
            "/api/challenges", {"to": "robo", "game": "tiny", "rated": True, "clock": RAPID}
        )
        assert sent.status_code == 201, sent.text
        shown = sent.json()["challenge"]
        assert (shown["from_bot"], shown["to_bot"]) == (False, True)
        listed = client.get("/api/challenge", headers=bearer(secret)).json()
        assert listed["in"][0]["to_bot"] is True
        accepted = client.post(f"/api/challenge/{shown['id']}/accept", headers=bearer(secret))
        assert accepted.status_code == 200, accepted.text
        game_id = accepted.json()["game"]
        view = client.get(f"/api/games/{game_id}").json()
        assert view["rated"] is True
        assert {s["name"]: s["bot"] for s in view["seats"]} == {"ann": False, "robo": True}
        games = ann.get("/api/account/games").json()["games"]
        listed_game = next(g for g in games if g["id"] == game_id)
        assert {s["name"]: s["bot"] for s in listed_game["seats"]}["robo"] is True
        # Upgrading twice changes nothing; a bot cannot be made a person again.
        assert client.post("/api/bot/account/upgrade", headers=bearer(secret)).status_code == 200


def test_the_bot_api_plays_for_bots_only_and_aborts_before_both_moved(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        ann = sign_up(client, "ann")
        person_token = token(ann, ["bot:play", "challenge:write"])["token"]
        robo, secret = bot_of(client, "robo")
        sent = client.post(
            "/api/challenge/ann", json={"game": "tiny"}, headers=bearer(secret)
        ).json()["challenge"]
        assert sent["from_bot"] is True
        unknown = client.post(f"/api/challenge/{sent['id']}/reject", headers=bearer(person_token))
        assert unknown.status_code == 400  # accept, decline or cancel
        game_id = client.post(
            f"/api/challenge/{sent['id']}/accept", headers=bearer(person_token)
        ).json()["game"]
        refused = client.post(f"/api/bot/game/{game_id}/resign", headers=bearer(person_token))
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_a_bot"
        view = client.get(f"/api/games/{game_id}").json()
        mine = next(s["seat"] for s in view["seats"] if s["name"] == "robo")
        if view["current_player"] == mine:
            move = client.post(f"/api/bot/game/{game_id}/move/t1", headers=bearer(secret))
            assert move.status_code == 200, move.text
        wrong = client.post(f"/api/bot/game/{game_id}/draw/maybe", headers=bearer(secret))
        assert wrong.status_code == 400
        aborted = client.post(f"/api/bot/game/{game_id}/abort", headers=bearer(secret))
        assert aborted.status_code == 200, aborted.text
        result = client.get(f"/api/games/{game_id}").json()["result"]
        assert result["ended"] == "aborted" and result["winners"] == []
        over = client.post(f"/api/bot/game/{game_id}/abort", headers=bearer(secret))
        assert over.status_code == 409
        assert robo.name == "robo"


def test_a_game_both_have_moved_in_cannot_be_aborted(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        ann = sign_up(client, "ann")
        robo, secret = bot_of(client, "robo")
        sent = client.post("/api/challenge/ann", json={"game": "tiny"}, headers=bearer(secret))
        accepted = ann.post(f"/api/challenges/{sent.json()['challenge']['id']}/accept")
        game_id, ann_token = accepted.json()["id"], accepted.json()["token"]
        for _ in range(4):  # two turns of two steps: each has moved
            view = client.get(f"/api/games/{game_id}").json()
            if view["seats"][view["current_player"]]["name"] == "robo":
                answer = client.post(f"/api/bot/game/{game_id}/move/t1", headers=bearer(secret))
            else:
                answer = client.post(
                    f"/api/games/{game_id}/actions",
                    json={"action": "t1"},
                    headers=bearer(ann_token),
                )
            assert answer.status_code == 200, answer.text
        refused = client.post(f"/api/bot/game/{game_id}/abort", headers=bearer(secret))
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "not_abortable"
        assert robo.name == "robo"


def test_a_bots_first_act_stores_its_move_alone_and_reads_nothing(tmp_path: Path) -> None:
    """A bot's first act in a game stores nothing but the act: its seat token is granted to the
    process's copy (``Room.grant``), not stored as a seat key, so the game's revision rises by
    the move alone and nothing is read; the copy reads the game again only when another
    process changed it unheard of."""
    settings = tiny_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        reads: list[str] = []
        get_game, revision = hub.storage.get_game, hub.house.revision
        hub.storage.get_game = lambda *a: reads.append("get_game") or get_game(*a)

        async def counted_revision(game_id: str) -> int | None:
            reads.append("revision")
            return await revision(game_id)

        hub.house.revision = counted_revision
        _, one = bot_of(client, "one")
        _, two = bot_of(client, "two")
        sent = client.post("/api/challenge/two", json={"game": "tiny"}, headers=bearer(one))
        accepted = client.post(
            f"/api/challenge/{sent.json()['challenge']['id']}/accept", headers=bearer(two)
        )
        game_id = accepted.json()["game"]
        room = client.portal.call(client.app.state.hub.room, game_id, False)  # type: ignore
        secrets = {s.seat: one if s.name == "one" else two for s in room.row.seats}
        reads.clear()
        before = room.row.revision
        mover = secrets[room.state.current_player()]
        answer = client.post(f"/api/bot/game/{game_id}/move/t1", headers=bearer(mover))
        assert answer.status_code == 200, answer.text
        assert reads == [] and room.row.revision == before + 1
        with sa.create_engine(settings.database_url).connect() as conn:
            keys = conn.execute(sa.select(seat_keys_table.c.game_id)).all()
        assert keys == []
        while secrets[room.state.current_player()] == mover:  # the rest of its turn
            client.post(f"/api/bot/game/{game_id}/move/t1", headers=bearer(mover))
        engine = sa.create_engine(settings.database_url)
        with engine.begin() as conn:
            conn.execute(  # another process's change this one did not hear of
                games_table.update()
                .where(games_table.c.id == game_id)
                .values(revision=games_table.c.revision + 1)
            )
        other = secrets[room.state.current_player()]
        answer = client.post(f"/api/bot/game/{game_id}/move/t1", headers=bearer(other))
        assert answer.status_code == 200, answer.text
        assert "get_game" in reads
        with engine.connect() as conn:
            stored = conn.execute(
                sa.select(games_table.c.revision).where(games_table.c.id == game_id)
            ).scalar_one()
        assert room.row.revision == stored
        # Read back, the copy still knows both bots' tokens, and the database none.
        assert all(not s.keys for s in room.row.seats) and len(room.grants) == 2


def test_bots_have_their_own_leaderboard(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        ann = sign_up(client, "ann")
        robo, secret = bot_of(client, "robo")
        sent = client.post(
            "/api/challenge/ann",
            json={"game": "tiny", "rated": True, "clock": RAPID},
            headers=bearer(secret),
        )
        accepted = ann.post(f"/api/challenges/{sent.json()['challenge']['id']}/accept")
        game_id, ann_token = accepted.json()["id"], accepted.json()["token"]
        while (view := client.get(f"/api/games/{game_id}").json())["status"] == "active":
            if view["seats"][view["current_player"]]["name"] == "robo":
                most = view["legal"][-1]["move"]  # the most counters it may take
                answer = client.post(f"/api/bot/game/{game_id}/move/{most}", headers=bearer(secret))
            else:
                answer = client.post(
                    f"/api/games/{game_id}/actions",
                    json={"action": "t1"},
                    headers=bearer(ann_token),
                )
            assert answer.status_code == 200, answer.text
        for _ in range(50):  # rated at the game's end, or by the settlement's sweep
            people = client.get("/api/ratings/tiny").json()["players"]
            bots = client.get("/api/ratings/tiny?bots=true").json()["players"]
            if people and bots:
                break
            time.sleep(0.1)
        assert [(p["name"], p["bot"]) for p in people] == [("ann", False)]
        assert [(p["name"], p["bot"]) for p in bots] == [("robo", True)]
        assert robo.name == "robo"


def test_a_new_password_and_deleting_the_account_end_every_token(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        ann = sign_up(client, "ann")
        first = token(ann, ["challenge:read"])["token"]
        second = token(ann, ["bot:play"])["token"]
        changed = client.post(
            "/api/account/password",
            json={"old": PASSWORD, "new": "another horse battery"},
            headers=ann.headers(),
        )
        assert changed.status_code == 200, changed.text
        for secret in (first, second):
            assert client.get("/api/account", headers=bearer(secret)).status_code == 401
        ann = session_of(client, changed, "ann")  # this browser stays signed in
        assert ann.get("/api/account/tokens").json()["tokens"] == []
        third = token(ann, ["bot:play"])["token"]
        assert client.get("/api/account", headers=bearer(third)).status_code == 200
        gone = ann.post("/api/account/delete", {"confirm": "ann"})
        assert gone.status_code == 200, gone.text
        assert client.get("/api/account", headers=bearer(third)).status_code == 401


def test_every_statement_of_a_bots_game_is_compiled_once(tmp_path: Path) -> None:
    """Each statement a bots' game sends (a challenge, its acceptance, the moves, the end, the
    ratings) has a cache key, so SQLAlchemy compiles it once per process: an ``INSERT`` of
    several rows written as ``values([...])`` has none and was compiled at every call, ten
    times the CPU of the statement itself (``EventStore._events``)."""
    app = create_app(tiny_settings(tmp_path))
    with TestClient(app) as client:
        _, one = bot_of(client, "one")
        _, two = bot_of(client, "two")
        uncached: list[str] = []

        def executed(
            conn: Any, cursor: Any, statement: str, params: Any, context: Any, _: Any
        ) -> None:
            if context.cache_hit == CacheStats.NO_CACHE_KEY:
                uncached.append(statement.split("\n")[0][:120])

        engine = app.state.hub.storage.engine
        sa.event.listen(engine, "after_cursor_execute", executed)
        sent = client.post("/api/challenge/two", json={"game": "tiny"}, headers=bearer(one))
        accepted = client.post(
            f"/api/challenge/{sent.json()['challenge']['id']}/accept", headers=bearer(two)
        )
        game_id = accepted.json()["game"]
        for _ in range(40):
            shown = client.get(f"/api/games/{game_id}").json()
            if shown["terminal"]:
                break
            for secret in (one, two):  # the one to move is taken, the other refused
                client.post(f"/api/bot/game/{game_id}/move/t1", headers=bearer(secret))
        assert shown["terminal"], shown
        client.portal.call(app.state.hub.tournaments.ends_told)
        sa.event.remove(engine, "after_cursor_execute", executed)
    assert uncached == []
