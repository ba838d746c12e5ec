"""What other domains decide reaches the tournaments (the fifth attack round's N2, N3, N7, N8):
two accounts of one person cannot meet in a rated tournament (entering refuses the second, and
a pair found only at the pairing plays casual); an account that becomes a bot leaves the
people's tournaments it entered; a deleted account leaves every tournament, shown as a deleted
player, and is never paired again; and joining then withdrawing does not open a tournament's
chat to a new account. Each is the review's repro, through the API, with every player on an
address of their own unless the test says otherwise."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_in, sign_up
from fastapi.testclient import TestClient
from webcalls import elsewhere
from websettings import tiny_settings

from boardplay.web.app import create_app
from boardplay.web.config import Limits


@dataclasses.dataclass
class Site:
    """One app, seen from several addresses (``at(n)``: a client on 10.0.0.n)."""

    home: TestClient
    clients: dict[int, TestClient] = dataclasses.field(default_factory=dict)
    ahead: float = 0.0

    def at(self, n: int) -> TestClient:
        if n == 1:
            return self.home
        if n not in self.clients:
            self.clients[n] = elsewhere(self.home, f"10.0.0.{n}")
        return self.clients[n]

    def tick(self, seconds: float = 60) -> None:
        """Time moves on ``seconds``, and the tournaments take their step."""
        hub = self.home.app.state.hub  # type: ignore[attr-defined]
        self.ahead += seconds
        hub.now = lambda: time.time() + self.ahead
        self.home.portal.call(hub.tournaments.tick)

    def view(self, tournament_id: str) -> dict[str, Any]:
        found: dict[str, Any] = self.home.get(f"/api/tournaments/{tournament_id}").json()
        return found

    def game(self, game_id: str) -> dict[str, Any]:
        found: dict[str, Any] = self.home.get(f"/api/games/{game_id}").json()
        return found


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    """The defaults of the rules these tests are about (the tests' settings lift them)."""
    defaults = Limits()
    limits = {
        "rated_fresh_account": defaults.rated_fresh_account,
        "chat_account_age": defaults.chat_account_age,
    }
    with TestClient(create_app(tiny_settings(tmp_path, limits))) as home:
        yield Site(home)


def tournament(player: Player, kind: str = "arena", **extra: Any) -> str:
    body = {"name": "Evening", "kind": kind, "game": "tiny", "clock": RAPID, "rated": True}
    body.update({"minutes": 10} if kind == "arena" else {"rounds": 2})
    body.update(starts=time.time() + 30, **extra)
    made = player.post("/api/tournaments", body)
    assert made.status_code == 201, made.text
    found: str = made.json()["tournament"]["id"]
    return found


def join(player: Player, tournament_id: str) -> Any:
    return player.post(f"/api/tournaments/{tournament_id}/join")


def tables(site: Site, tournament_id: str) -> list[dict[str, Any]]:
    return [t for r in site.view(tournament_id)["rounds"] for t in r["tables"]]


def test_a_second_account_of_one_person_cannot_enter_a_rated_arena(site: Site) -> None:
    """N2: two accounts made a minute ago on one address; the second's entry is refused, so
    no rated game of theirs is ever paired."""
    ana, alt = sign_up(site.home, "Ana"), sign_up(site.home, "AnaAlt")
    arena = tournament(ana)
    assert join(ana, arena).status_code == 200
    refused = join(alt, arena)
    assert refused.status_code == 403, refused.text
    assert refused.json()["error"]["code"] == "same_person"
    site.tick()
    assert tables(site, arena) == []


def test_a_pair_found_only_at_the_pairing_plays_casual(site: Site) -> None:
    """N2 behind the door: the second account entered from another address, then signed in at
    the first's; the arena pairs them, but the game it makes is not rated."""
    ana = sign_up(site.home, "Ana")
    alt = sign_up(site.at(2), "AnaAlt")
    arena = tournament(ana)
    assert join(ana, arena).status_code == 200
    assert join(alt, arena).status_code == 200
    sign_in(site.home, "AnaAlt")  # the accounts now share an address
    site.tick()
    (table,) = tables(site, arena)
    assert sorted(table["players"]) == ["Ana", "AnaAlt"]
    assert site.game(table["game"])["rated"] is False


def test_an_account_that_becomes_a_bot_leaves_the_peoples_tournaments(site: Site) -> None:
    """N3: a person enters a people's rated Swiss, then upgrades to a bot: it is withdrawn at
    once, never paired against a person, and may not enter again; a tournament open to bots
    keeps it."""
    ana, bo = sign_up(site.home, "Ana"), sign_up(site.at(2), "Bob")
    xan = sign_up(site.at(3), "Xan")
    swiss = tournament(ana, "swiss", rounds=1)
    for_bots = tournament(ana, "swiss", rounds=1, rated=False, bots=True)
    for player in (ana, bo, xan):
        assert join(player, swiss).status_code == 200
    assert join(xan, for_bots).status_code == 200
    made = xan.post("/api/account/tokens", {"label": "bot", "scopes": ["bot:play"]})
    token = {"Authorization": f"Bearer {made.json()['token']}"}
    upgraded = site.at(3).post("/api/bot/account/upgrade", headers=token)
    assert upgraded.status_code == 200, upgraded.text
    statuses = {line["name"]: line["status"] for line in site.view(swiss)["standings"]}
    assert statuses == {"Ana": "active", "Bob": "active", "Xan": "withdrawn"}
    kept = {line["name"]: line["status"] for line in site.view(for_bots)["standings"]}
    assert kept == {"Xan": "active"}
    again = site.at(3).post(f"/api/tournaments/{swiss}/join", headers=token)
    assert again.status_code == 403 and again.json()["error"]["code"] == "bots_not_allowed"
    site.tick()
    (table,) = tables(site, swiss)
    assert sorted(table["players"]) == ["Ana", "Bob"]


def test_a_deleted_account_leaves_its_tournaments_and_is_never_paired_again(site: Site) -> None:
    """N8: in round 1 of a Swiss of four, two players (the creator one of them) delete their
    accounts; round 2 pairs the two who are left, and the standings show the others as deleted
    players, withdrawn."""
    names = ["Ana", "Bob", "Cyd", "Dee"]
    people = {name: sign_up(site.at(n + 1), name) for n, name in enumerate(names)}
    swiss = tournament(people["Ana"], "swiss", rated=False)
    for player in people.values():
        assert join(player, swiss).status_code == 200
    site.tick()
    first = tables(site, swiss)
    assert len(first) == 2
    leaving = [people[t["players"][0]] for t in first]
    if people["Ana"] not in leaving:  # the creator leaves too: the first of her table
        leaving[0] = people["Ana"]
    for player in leaving:
        gone = player.post("/api/account/delete", {"confirm": player.name})
        assert gone.status_code == 200, gone.text
    site.tick()
    statuses = {(line["name"], line["status"]) for line in site.view(swiss)["standings"]}
    staying = sorted(set(names) - {p.name for p in leaving})
    assert statuses == {
        ("deleted player", "withdrawn"),
        *((name, "active") for name in staying),
    }
    second = [t for r in site.view(swiss)["rounds"] if r["round"] == 2 for t in r["tables"]]
    assert [sorted(t["players"]) for t in second] == [staying]


def test_joining_and_withdrawing_does_not_open_the_chat_to_a_new_account(site: Site) -> None:
    """N7: a new account that joined and withdrew at once may not write; a new account still
    entered may, and so may the tournament's organiser."""
    ana = sign_up(site.home, "Ana")
    swiss = tournament(ana, "swiss")
    path = f"/api/tournament-pages/{swiss}/chat"
    fresh, staying = sign_up(site.at(2), "Fresh"), sign_up(site.at(3), "Stays")
    for player in (fresh, staying):
        assert join(player, swiss).status_code == 200
    assert fresh.post(f"/api/tournaments/{swiss}/withdraw").status_code == 200
    refused = fresh.post(path, {"text": "hello all"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "account_too_new"
    assert staying.post(path, {"text": "good luck"}).status_code == 201
    assert ana.post(path, {"text": "welcome"}).status_code == 201
