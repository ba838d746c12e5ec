"""Fair-play evidence on the site (``fairplay/``), on SQLite and PostgreSQL: a rated game, once
rated, is judged in the background and each account's evidence is what a moderator reads per
pool; a casual game is not judged; when the pool's flag fires the system files one ``cheating``
report into the moderators' queue, not a second while it waits, and one when an established
account agrees far above its rating band's norm; the route is a moderator's."""

from __future__ import annotations

import dataclasses
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_up
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from typer.testing import CliRunner

from boardplay.ai import fairplay
from boardplay.ai.fairplay import FlagRule, SeatEvidence
from boardplay.cli.main import app as cli
from boardplay.web.accounts.service import name_key
from boardplay.web.app import create_app
from boardplay.web.config import DEFAULT_CATALOGUE
from boardplay.web.fairplay import service as fairplay_service
from boardplay.web.ratings.tables import ratings_table

ITERATIONS = 200
"""The judge's budget here (``Limits.judge_iterations``), which keeps the test quick."""


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[TestClient, str]]:
    limits = {"judge_iterations": ITERATIONS}
    settings = settings_on(request.param, tmp_path_factory.mktemp("fair"), request, limits)
    settings = dataclasses.replace(settings, catalogue=DEFAULT_CATALOGUE)
    with TestClient(create_app(settings)) as client:
        yield client, settings.database_url


def fresh(client: TestClient, stem: str) -> Player:
    return sign_up(client, f"{stem}{uuid.uuid4().hex[:6]}")


def moderator(client: TestClient, url: str) -> Player:
    mod = fresh(client, "Mod")
    result = CliRunner().invoke(cli, ["db", "role", mod.name, "moderator", "--db", url])
    assert result.exit_code == 0, result.output
    return mod


def finished_game(first: Player, second: Player, rated: bool, turns: int = 4) -> str:
    """A Proteus game, ``first`` moving first: ``turns`` moves each, then ``second`` resigns."""
    body: dict[str, Any] = {"game": "proteus", "seats": [{"kind": "me"}, {"kind": "open"}]}
    if rated:
        body.update(rated=True, clock=RAPID)
    made = first.post("/api/games", body)
    assert made.status_code == 201, made.text
    gid = str(made.json()["id"])
    joined = second.post(f"/api/games/{gid}/join", {"seat": 1})
    assert joined.status_code == 200, joined.text
    tokens = {0: made.json()["token"], 1: joined.json()["token"]}
    view = joined.json()["game"]
    for _ in range(2 * turns):
        seat = view["current_player"]
        move = {"action": view["legal"][-1]["id"], "ply": view["ply"]}
        answer = first.post(f"/api/games/{gid}/actions", move, token=tokens[seat])
        assert answer.status_code == 200, answer.text
        view = answer.json()["game"]
    resigned = second.post(f"/api/games/{gid}/resign", {}, token=tokens[1])
    assert resigned.json()["game"]["status"] == "finished", resigned.text
    return gid


def evidence(mod: Player, name: str, games: int, wait: float = 60.0) -> dict[str, Any]:
    """The account's evidence once ``games`` of its games are judged and the judge is idle
    (the judging, and the report it may file after the evidence is stored, are background
    work)."""
    deadline = time.monotonic() + wait
    fairplay = mod.client.app.state.hub.fairplay  # type: ignore[attr-defined]
    while True:
        answer = mod.get(f"/api/moderation/fairplay/{name}")
        assert answer.status_code == 200, answer.text
        found = answer.json()
        judged = sum(p["games"] for p in found["pools"]) >= games and fairplay.unsettled == 0
        if judged or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def system_reports(mod: Player, name: str) -> list[dict[str, Any]]:
    queue = mod.get("/api/moderation/queue").json()["players"]
    return [r for r in queue if r["system"] and r["reported"] == name]


def test_a_rated_game_is_judged_and_read_per_pool(site: Any) -> None:
    client, url = site
    mod, hana, kenji = moderator(client, url), fresh(client, "Hana"), fresh(client, "Kenji")
    gid = finished_game(hana, kenji, rated=True)
    found = evidence(mod, hana.name, 1)
    assert found["account"] == hana.name
    (pool,) = found["pools"]
    assert pool["pool"] == "proteus" and pool["games"] == 1
    assert 1 <= pool["judged"] <= 4 and 0 <= pool["agreed"] <= pool["judged"]
    assert 0.0 <= pool["lower_bound"] <= pool["agreement"] <= 1.0
    assert pool["mean_loss"] >= 0.0
    (game,) = pool["standout"]
    assert game["game_id"] == gid and game["seat"] == 0
    assert game["judged"] + game["forced"] <= 4  # its own four decisions at most
    assert [p["standout"][0]["seat"] for p in evidence(mod, kenji.name, 1)["pools"]] == [1]
    # A casual game is not judged.
    casual = fresh(client, "Casual")
    finished_game(casual, fresh(client, "Other"), rated=False)
    time.sleep(0.5)
    assert mod.get(f"/api/moderation/fairplay/{casual.name}").json()["pools"] == []
    assert mod.get("/api/moderation/fairplay/nobody-at-all").status_code == 404


def test_the_flag_files_one_system_report_while_it_waits(
    site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, url = site
    mod, suspect = moderator(client, url), fresh(client, "Suspect")
    # Proteus's pool is not calibrated at this test's tiny budget: a rule that always fires
    # once a move is judged stands in for the measured one.
    monkeypatch.setitem(fairplay.RULES, "proteus", FlagRule(threshold=0.0, min_moves=1))
    finished_game(suspect, fresh(client, "Opp"), rated=True)
    pools = evidence(mod, suspect.name, 1)["pools"]
    assert pools[0]["flagged"] and pools[0]["threshold"] == 0.0
    assert pools[0]["rule"] == {"threshold": 0.0, "min_moves": 1, "margin": None}
    (report,) = system_reports(mod, suspect.name)
    assert report["reason"] == "cheating" and report["reporter"] is None
    assert "agreed with the expert" in report["text"] and "proteus" in report["text"]
    finished_game(suspect, fresh(client, "Opp"), rated=True)
    assert sum(p["games"] for p in evidence(mod, suspect.name, 2)["pools"]) == 2
    assert len(system_reports(mod, suspect.name)) == 1  # the waiting one is not repeated
    # Once decided, the next game that fires files a new one.
    decided = mod.post(
        "/api/moderation/actions",
        {"action": "dismiss", "reason": "looked at the games", "report": report["id"]},
    )
    assert decided.status_code == 201, decided.text
    finished_game(suspect, fresh(client, "Opp"), rated=True)
    evidence(mod, suspect.name, 3)
    (again,) = system_reports(mod, suspect.name)
    assert again["id"] != report["id"]


def established(client: TestClient, player: Player, rating: float) -> int:
    """Give ``player`` an established Proteus rating (as many games would), by the ratings'
    own table; its account id."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    account = hub.accounts.store.by_name(name_key(player.name))
    row = {"rating": rating, "deviation": 60.0, "volatility": 0.06, "games": 30, "updated": 0.0}
    with hub.fairplay.store.engine.begin() as conn:
        conn.execute(ratings_table.insert().values(account_id=account.id, pool="proteus", **row))
    return int(account.id)


def test_an_account_far_above_its_rating_bands_norm_is_reported(
    site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the pool's threshold but above its band's norm plus the margin: flagged, with the
    band in the report and on the moderator's page; a provisional rating is held to the
    pool's threshold alone."""
    client, url = site
    mod = moderator(client, url)
    # The pool's threshold out of reach; a band's flag at its norm (margin 0), with two
    # established peers enough for a norm here and the norms made again at each look.
    monkeypatch.setitem(fairplay.RULES, "proteus", FlagRule(1.01, min_moves=1, margin=0.0))
    monkeypatch.setattr(fairplay, "NORM_ACCOUNTS", 2)
    monkeypatch.setattr(fairplay_service, "NORMS_TTL", 0.0)
    store = client.app.state.hub.fairplay.store  # type: ignore[attr-defined]
    for i in range(2):
        peer = established(client, fresh(client, "Peer"), 1480.0 + 20 * i)
        store.save(f"peer{uuid.uuid4().hex[:8]}", "proteus", [(peer, SeatEvidence(0, 40, 0, 0, 0))])

    newcomer = fresh(client, "New")
    finished_game(newcomer, fresh(client, "Opp"), rated=True)
    (pool,) = evidence(mod, newcomer.name, 1)["pools"]
    assert pool["rating"] is None and pool["norm"] is None and pool["threshold"] == 1.01
    assert not pool["flagged"] and not system_reports(mod, newcomer.name)

    regular = fresh(client, "Regular")
    established(client, regular, 1500.0)
    finished_game(regular, fresh(client, "Opp"), rated=True)
    (pool,) = evidence(mod, regular.name, 1)["pools"]
    # Its band: the two peers and itself, whose median is a peer's.
    assert pool["norm"] == {"band": [1400, 1600], "accounts": 3, "agreement": 0.0}
    assert pool["threshold"] == 0.0 and pool["flagged"]
    assert 1400 <= pool["rating"] < 1600
    (report,) = system_reports(mod, regular.name)
    assert "players rated 1400-1600 agree 0.00" in report["text"], report["text"]


def test_every_measured_rule_is_named_as_the_site_names_its_pool() -> None:
    """A rule is looked up by the rating pool's name (``pool_of``): a Passtally or Montana game
    counts for ``passtally-2p`` or ``montana-3p``, never the bare game's name, so a rule kept
    under another name would never fire."""
    from boardplay.web.catalogue import WebCatalogue, resolve
    from boardplay.web.errors import ApiError
    from boardplay.web.ratings.rated import pool_of

    catalogue = WebCatalogue(resolve(DEFAULT_CATALOGUE), None)
    pools = set()
    for game in ("potlatch", "proteus", "passtally", "montana"):
        for players in (None, 2, 3, 4):
            try:
                built = catalogue.build(game, {} if players is None else {"players": players})
            except ApiError:  # a player count the game does not have
                continue
            pools.add(pool_of(built.name, dict(built.options), built.num_players))
    assert set(fairplay.RULES) <= pools, pools
    assert {"potlatch", "proteus", "passtally-2p", "montana-2p"} <= set(fairplay.RULES)


def test_the_site_judges_each_game_at_its_own_budget_unless_the_operator_sets_one(
    site: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The flag rules of a game were measured with its judge's budget (Montana's five times the
    others'), so the site judges at that budget, not at one shared figure or the visitors' AI
    ceiling; an operator's ``BOARDPLAY_WEB_JUDGE_ITERATIONS`` replaces it for every game."""
    client, _ = site
    service = client.app.state.hub.fairplay
    assert service.iterations("montana") == service.iterations("potlatch") == ITERATIONS
    unset = dataclasses.replace(service.limits, judge_iterations=None)
    monkeypatch.setattr(service, "limits", unset)
    assert service.iterations("montana") == fairplay.judge_iterations("montana") == 100_000
    assert service.iterations("potlatch") == fairplay.JUDGE_ITERATIONS
    assert unset.ai_max_iterations < service.iterations("montana")
