"""The lobby's seeks and tables are for people, whatever a program sends: every seek or table
route (found in the app's own routes, so a new one is covered) answers a bot's API token 403
``bot_no_seeks``, as docs/bots.md says and the admission rule decides, never "sign in first";
a person's token gets 403 ``seeks_need_session`` (no scope opens the lobby to a program), an
unknown token 401; and nothing changes: the seek a person posted is still open, untaken."""

from __future__ import annotations

from pathlib import Path

from accountcalls import sign_up
from fastapi.testclient import TestClient
from test_web_bots import bearer, bot_of, token
from websettings import tiny_settings

from boardplay.web.app import create_app


def seek_routes(client: TestClient, seek_id: str) -> list[tuple[str, str]]:
    """(method, path) of every route that changes the lobby's seeks and tables, from the app's
    own schema."""
    paths = client.app.openapi()["paths"]  # type: ignore[attr-defined]
    return [
        (method.upper(), path.replace("{seek_id}", seek_id))
        for path, methods in sorted(paths.items())
        if path.startswith("/api/seeks")
        for method in sorted(methods)
        if method not in ("get", "head")
    ]


def test_a_token_at_a_seek_or_table_route_is_refused_as_the_docs_say(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        ann = sign_up(client, "ann")
        posted = ann.post("/api/seeks", {"game": "tiny"})
        assert posted.status_code == 201, posted.text
        seek_id = posted.json()["seek"]["id"]
        _, bot_secret = bot_of(client, "robo")
        person_secret = token(sign_up(client, "bob"), ["challenge:read"])["token"]
        routes = seek_routes(client, seek_id)
        assert len(routes) == 6, routes  # post, quick, cancel, accept, sit, leave

        for method, path in routes:
            body = {"game": "tiny"}
            said = client.request(method, path, json=body, headers=bearer(bot_secret))
            assert said.status_code == 403, (method, path, said.text)
            assert said.json()["error"]["code"] == "bot_no_seeks", (method, path, said.text)
            assert "sign in" not in said.json()["error"]["message"]

            person = client.request(method, path, json=body, headers=bearer(person_secret))
            assert person.status_code == 403, (method, path, person.text)
            assert person.json()["error"]["code"] == "seeks_need_session"

            unknown = client.request(method, path, json=body, headers=bearer("bp_" + "x" * 40))
            assert unknown.status_code == 401
            assert unknown.json()["error"]["code"] == "bad_token"

        # Nothing changed: ann's seek is still open and nobody took it.
        listed = client.get("/api/seeks").json()["seeks"]
        assert [s["id"] for s in listed] == [seek_id]
