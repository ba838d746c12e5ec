"""lichess's wire format on one process (``api/bodies.py``, ``api/lookups.py``): a body sent as
JSON or as a form is read into the same model, with the same 400 for the same bad field; the
token test says what lichess says of a token and nothing more, counts against the token's
ceiling and is refused past it; plain text reaches only the route that reads it."""

from __future__ import annotations

from pathlib import Path

from accountcalls import sign_up
from fastapi.testclient import TestClient
from test_web_bots import bearer, bot_of
from websettings import tiny_settings

from boardplay.web.app import create_app

FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def test_form_and_json_bodies_are_one_model(tmp_path: Path) -> None:
    with TestClient(create_app(tiny_settings(tmp_path))) as client:
        _bot, secret = bot_of(client, "wirebot")
        sign_up(client, "ann")
        url = "/api/challenge/ann"
        as_json = client.post(
            url, json={"variant": "tiny", "clock.limit": 60}, headers=bearer(secret)
        )
        as_form = client.post(
            url, content=b"variant=tiny&clock.limit=60", headers={**bearer(secret), **FORM}
        )
        assert as_json.status_code == as_form.status_code == 201, (as_json.text, as_form.text)
        for key in ("game", "clock", "rated", "seat", "color", "options"):
            assert as_json.json()[key] == as_form.json()[key], key
        # The same bad field, the same 400 (the message names the field).
        bad_json = client.post(
            url, json={"variant": "tiny", "color": "green"}, headers=bearer(secret)
        )
        bad_form = client.post(
            url, content=b"variant=tiny&color=green", headers={**bearer(secret), **FORM}
        )
        assert bad_json.status_code == bad_form.status_code == 400
        assert bad_json.json() == bad_form.json()
        assert "color" in bad_json.json()["error"]["message"]
        # JSON keeps its types strictly; a form's text is read as the field's type.
        strict = client.post(url, json={"variant": "tiny", "rated": "true"}, headers=bearer(secret))
        assert strict.status_code == 400
        twice = client.post(
            url, content=b"variant=tiny&rated=false&rated=true", headers={**bearer(secret), **FORM}
        )
        assert twice.status_code == 400 and "twice" in twice.json()["error"]["message"]
        control = client.post(
            url, content=b"variant=tiny%00", headers={**bearer(secret), **FORM}
        )  # the guard's rule: no control character, percent-encoded or not
        assert control.status_code == 400 and control.json()["error"]["code"] == "bad_text"
        # A form on a route of JSON alone is refused there, as before.
        form_elsewhere = client.post(
            "/api/account/signin", content=b"name=ann&password=x", headers=FORM
        )
        assert form_elsewhere.status_code == 400


def test_the_token_test_says_what_lichess_says(tmp_path: Path) -> None:
    settings = tiny_settings(tmp_path, limits={"api_requests_per_minute": 5})
    with TestClient(create_app(settings)) as client:
        bot, secret = bot_of(client, "testbot")  # one request of its five: the upgrade
        unknown = "bp_" + "z" * 43
        answer = client.post("/api/token/test", content=f"{secret}, {unknown},not-a-token")
        assert answer.status_code == 200, answer.text
        found = answer.json()
        assert found == {
            secret: {
                "scopes": "bot:play,challenge:read,challenge:write",
                "userId": "testbot",
                "expires": None,
            },
            unknown: None,
            "not-a-token": None,
        }
        as_json = client.post("/api/token/test", json=[secret]).json()
        assert as_json == {secret: found[secret]}
        many = ",".join(f"bp_{i}" for i in range(101))
        assert client.post("/api/token/test", content=many).status_code == 400
        # Each test of a known token counts as a request with it: past the ceiling, 429.
        tests = [client.post("/api/token/test", content=secret) for _ in range(3)]
        assert [t.status_code for t in tests] == [200, 200, 429]
        assert tests[-1].json()["error"]["code"] == "api_rate"
        # Revoked (on the account page): null, as an unknown one.
        (made,) = bot.get("/api/account/tokens").json()["tokens"]
        assert (
            client.delete(f"/api/account/tokens/{made['id']}", headers=bot.headers()).status_code
            == 200
        )
        assert client.post("/api/token/test", content=secret).json() == {secret: None}
