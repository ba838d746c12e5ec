"""``GET /api/i18n/{lang}`` and ``GET /api/rules/{game}?lang=``: a closed set of languages,
anything else a 400 that opens nothing."""

from __future__ import annotations

from fastapi.testclient import TestClient
from webcalls import refused

from boardplay.i18n import messages


def test_catalogue_answers_in_english_and_japanese(client: TestClient) -> None:
    bodies = {}
    for lang in ("en", "ja"):
        response = client.get(f"/api/i18n/{lang}")
        assert response.status_code == 200
        body = response.json()
        assert body["lang"] == lang and body["domain"] == "web"
        assert body["messages"] == messages("web", lang)
        assert body["languages"] == {"en": "English", "ja": "日本語"}
        assert body["plural_forms"].startswith("nplurals=")
        assert "max-age" in response.headers["cache-control"]
        bodies[lang] = body
    assert bodies["ja"]["plural_forms"] == "nplurals=1; plural=0;"
    assert set(bodies["en"]["messages"]) == set(bodies["ja"]["messages"])


def test_catalogue_refuses_other_languages(client: TestClient) -> None:
    for lang in ("fr", "JA", "ja_JP", "en-US", "...", "cli", "x" * 300):
        message = refused(client.get(f"/api/i18n/{lang}"), 400)
        assert "unknown language" in message and "en, ja" in message


def test_rules_in_japanese(registry_client: TestClient) -> None:
    for name, term in (("potlatch", "コマ移動"), ("montana", "居留地")):
        body = registry_client.get(f"/api/rules/{name}", params={"lang": "ja"}).json()
        assert body["lang"] == "ja" and term in body["markdown"]
    english = registry_client.get("/api/rules/proteus").json()
    assert english["lang"] == "en" and english["markdown"].startswith("# Proteus")


def test_rules_refuse_unknown_languages(registry_client: TestClient) -> None:
    for lang in ("de", "../rules", "ja.md", ""):
        response = registry_client.get("/api/rules/passtally", params={"lang": lang})
        assert "unknown language" in refused(response, 400)


def test_a_game_without_japanese_rules_falls_back_to_english(client: TestClient) -> None:
    body = client.get("/api/rules/tiny", params={"lang": "ja"}).json()
    assert body["lang"] == "en" and body["markdown"].startswith("# Tiny take")
