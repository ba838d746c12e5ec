"""The admission rule at every door a game is made through (``web/admission``).

Each member of ``Door`` has a scenario here: two accounts of one person (both new, signed up from
one address) try to sit at one rated table through that door, as the fifth attack round's
farmer did (a rated arena paired them: 1500 -> 1560 / 1440 after one game). Each is refused 403
``same_person`` and no rated game of theirs exists. A door added to ``Door`` without a scenario
fails ``test_every_door_has_a_scenario``.

The removal case: with the rule taken out (``Admission.judge`` admitting everyone), every
scenario seats the two in a rated game. So each door's refusal comes from the one rule, not
from a copy of it kept at the door, and a maker that skipped the rule would be caught here.

The same scenarios, casual, between two people one of whom blocks the other just before the
last step (``World.part``): every door refuses 403 ``blocked`` and makes no game of theirs,
but a quick game, which passes the blocker's offer over and posts the player's own seek, and a
tournament, which pairs whoever entered whatever their blocks, as lichess's do. With the
rule's block check taken out, every door seats them.

And the same scenarios, rated, between two people the second of whom a moderator marks just
before the last step: every door refuses 403 ``marked`` (a tournament at its entry, the
marked player's); with the rule's mark check taken out, every door seats them rated."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from accountcalls import RAPID, Player, sign_in, sign_up
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from webcalls import elsewhere
from websettings import tiny_settings

from boardplay.cli.main import app as cli
from boardplay.web.admission import MARKED, UNBLOCKED_DOORS, Admission, Door, Seating, Verdict
from boardplay.web.app import create_app
from boardplay.web.config import Limits

RATED = {"rated": True, "clock": RAPID}
CASUAL = {"rated": False, "clock": RAPID}


@dataclass
class World:
    """One app; ``home`` is the address both accounts of the person use, ``away`` another."""

    home: TestClient
    away: TestClient
    a: Player
    b: Player
    before: int = 0
    """Games of the scenario's kind the two may rightly have played before its last step."""
    terms: dict[str, Any] = field(default_factory=lambda: dict(RATED))
    """The games asked for: rated (two accounts of one person), or casual (a block)."""
    part: Callable[[World], None] = lambda w: None
    """What happens just before the scenario's last step (one of them blocks the other)."""
    url: str = ""
    """The database's (for the operator's command that makes a moderator)."""

    def rated_games_together(self) -> list[dict[str, Any]]:
        """The games of the scenario's kind (rated or casual) in which both hold a seat."""
        games = self.b.get("/api/account/games").json()["games"]
        return [
            g
            for g in games
            if g["rated"] == self.terms["rated"]
            and {self.a.name, self.b.name} <= {s["name"] for s in g["seats"]}
        ]

    def tick(self) -> None:
        """A minute on (a tournament starts), and the tournaments' step."""
        hub = self.home.app.state.hub  # type: ignore[attr-defined]
        hub.now = lambda: time.time() + 60
        self.home.portal.call(hub.tournaments.tick)


Scenario = Callable[[World], Any]
"""Brings the two accounts to one rated table through a door; returns the last answer."""


def _made(response: Any) -> Any:
    assert response.status_code in (200, 201), response.text
    return response.json()


def through_game(w: World) -> Any:
    made = _made(w.a.post("/api/games", {"game": "tiny", "seats": SEATS, **w.terms}))
    w.part(w)
    return w.b.post(f"/api/games/{made['id']}/join", {"seat": 1})


def through_challenge(w: World) -> Any:
    sent = _made(w.a.post("/api/challenges", {"to": w.b.name, "game": "tiny", **w.terms}))
    w.part(w)
    return w.b.post(f"/api/challenges/{sent['challenge']['id']}/accept")


def through_bot_challenge(w: World) -> Any:
    def token(player: Player) -> dict[str, str]:
        body = {"label": "client", "scopes": ["challenge:write"]}
        return {
            "Authorization": f"Bearer {_made(player.post('/api/account/tokens', body))['token']}"
        }

    sent = w.home.post(
        f"/api/challenge/{w.b.name}", json={"game": "tiny", **w.terms}, headers=token(w.a)
    )
    challenge = _made(sent)["challenge"]["id"]
    w.part(w)
    return w.home.post(f"/api/challenge/{challenge}/accept", headers=token(w.b))


def through_seek(w: World) -> Any:
    seek = _made(w.a.post("/api/seeks", {"game": "tiny", **w.terms}))["seek"]
    w.part(w)
    return w.b.post(f"/api/seeks/{seek['id']}/accept")


def through_quick_game(w: World) -> Any:
    _made(w.a.post("/api/seeks", {"game": "tiny", **w.terms}))
    w.part(w)
    return w.b.post("/api/seeks/quick", {"game": "tiny", **w.terms})


def through_open_table(w: World) -> Any:
    """A table for three: a stranger sits first, then the second account takes the last seat."""
    seek = _made(w.a.post("/api/seeks", {"game": "trio", **w.terms}))["seek"]
    _made(sign_up(w.away, "Kenji").post(f"/api/seeks/{seek['id']}/sit"))
    w.part(w)
    return w.b.post(f"/api/seeks/{seek['id']}/sit")


def through_rematch(w: World) -> Any:
    """The person's second account is made on another address, plays the first a rated game
    while nothing ties them, then signs in at the first's address; the first offers to play
    again, the second accepts."""
    away = w.b = sign_up(w.away, "HanaAway")
    made = _made(w.a.post("/api/games", {"game": "tiny", "seats": SEATS, **w.terms}))
    joined = _made(away.post(f"/api/games/{made['id']}/join", {"seat": 1}))
    resigned = w.home.post(f"/api/games/{made['id']}/resign", json={"token": joined["token"]})
    _made(resigned)
    w.b = sign_in(w.home, w.b.name)  # now the accounts share an address
    w.before = 1
    w.part(w)
    _made(w.home.post(f"/api/games/{made['id']}/rematch", json={"token": made["token"]}))
    return w.home.post(f"/api/games/{made['id']}/rematch", json={"token": joined["token"]})


def through_tournament(w: World) -> Any:
    body = {"name": "Farm", "kind": "arena", "game": "tiny", "minutes": 10, **w.terms}
    made = _made(w.a.post("/api/tournaments", {**body, "starts": time.time() + 30}))
    path = f"/api/tournaments/{made['tournament']['id']}/join"
    _made(w.a.post(path))
    w.part(w)
    answer = w.b.post(path)
    w.tick()  # the arena starts and pairs whoever is in
    return answer


SEATS = [{"kind": "me"}, {"kind": "open"}]
SCENARIOS: dict[Door, Scenario] = {
    Door.GAME: through_game,
    Door.CHALLENGE: through_challenge,
    Door.BOT_CHALLENGE: through_bot_challenge,
    Door.SEEK: through_seek,
    Door.QUICK: through_quick_game,
    Door.TABLE: through_open_table,
    Door.REMATCH: through_rematch,
    Door.TOURNAMENT: through_tournament,
}


@pytest.fixture
def world(tmp_path: Path) -> Iterator[World]:
    """The default age a rated table asks of two accounts that share an address (the tests'
    settings lift it: their players all sign up from one address)."""
    limits = {"rated_fresh_account": Limits().rated_fresh_account}
    settings = tiny_settings(tmp_path, limits)
    app = create_app(dataclasses.replace(settings, catalogue="webtiny:TRIO_CATALOGUE"))
    with TestClient(app, client=("10.0.0.1", 50000)) as home:
        away = elsewhere(home, "10.0.0.2")
        yield World(home, away, sign_up(home, "Hana"), sign_up(home, "HanaAlt"))


def test_every_door_has_a_scenario() -> None:
    assert set(SCENARIOS) == set(Door)


@pytest.mark.parametrize("door", list(Door))
def test_two_accounts_of_one_person_are_refused_at_every_door(door: Door, world: World) -> None:
    answer = SCENARIOS[door](world)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["code"] == "same_person"
    assert len(world.rated_games_together()) == world.before


@pytest.mark.parametrize("door", list(Door))
def test_without_the_rule_every_door_seats_them_rated(
    door: Door, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def everyone(self: Admission, seating: Seating) -> Verdict:
        found = await self.accounts.by_ids(seating.players)
        return Verdict([found[p] for p in seating.players], None)

    monkeypatch.setattr(Admission, "judge", everyone)
    answer = SCENARIOS[door](world)
    assert answer.status_code in (200, 201), answer.text
    assert len(world.rated_games_together()) == world.before + 1


def blocks(w: World) -> None:
    """The player who offered (or the table's first player) blocks the other."""
    _made(w.a.post(f"/api/relations/block/{w.b.name}"))


@pytest.fixture
def strangers(tmp_path: Path) -> Iterator[World]:
    """Two people (casual games: no rule of one person's two accounts applies), one of whom
    blocks the other just before the scenario's last step."""
    settings = tiny_settings(tmp_path)
    app = create_app(dataclasses.replace(settings, catalogue="webtiny:TRIO_CATALOGUE"))
    with TestClient(app, client=("10.0.0.1", 50000)) as home:
        away = elsewhere(home, "10.0.0.2")
        a, b = sign_up(home, "Hana"), sign_up(away, "Goro")
        yield World(home, away, a, b, terms=dict(CASUAL), part=blocks)


@pytest.mark.parametrize("door", list(Door))
def test_a_block_keeps_two_players_apart_at_every_door(door: Door, strangers: World) -> None:
    answer = SCENARIOS[door](strangers)
    together = len(strangers.rated_games_together()) - strangers.before
    if door in UNBLOCKED_DOORS:  # a tournament pairs whoever entered, as lichess's do
        assert answer.status_code in (200, 201), answer.text
        assert together == 1
        return
    if door == Door.QUICK:  # the blocker's seek is passed over: the player's own is posted
        assert answer.status_code in (200, 201), answer.text
        assert answer.json().get("seek") and not answer.json().get("game"), answer.json()
    else:
        assert answer.status_code == 403, answer.text
        assert answer.json()["error"]["code"] == "blocked"
        assert "block" in answer.json()["error"]["message"]
    assert together == 0


@pytest.mark.parametrize("door", list(Door))
def test_without_the_block_check_every_door_seats_them(
    door: Door, strangers: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never(self: Admission, seated: Any, newcomer: int | None) -> bool:
        return False

    monkeypatch.setattr(Admission, "_blocked", never)
    answer = SCENARIOS[door](strangers)
    assert answer.status_code in (200, 201), answer.text
    assert len(strangers.rated_games_together()) == strangers.before + 1


def marks(w: World) -> None:
    """A moderator marks the player who takes the last step (for boosting)."""
    mod = sign_up(w.away, "Yuki")
    result = CliRunner().invoke(cli, ["db", "role", mod.name, "moderator", "--db", w.url])
    assert result.exit_code == 0, result.output
    body = {"action": "mark", "grounds": "boosting", "reason": "fed", "account": w.b.name}
    _made(mod.post("/api/moderation/actions", body))


@pytest.fixture
def marked(tmp_path: Path) -> Iterator[World]:
    """Two people at a rated table, the second marked by a moderator just before the
    scenario's last step."""
    settings = tiny_settings(tmp_path)
    app = create_app(dataclasses.replace(settings, catalogue="webtiny:TRIO_CATALOGUE"))
    with TestClient(app, client=("10.0.0.1", 50000)) as home:
        away = elsewhere(home, "10.0.0.2")
        a, b = sign_up(home, "Hana"), sign_up(away, "Goro")
        yield World(home, away, a, b, part=marks, url=settings.database_url)


@pytest.mark.parametrize("door", list(Door))
def test_a_marked_player_sits_at_no_rated_table_at_any_door(door: Door, marked: World) -> None:
    answer = SCENARIOS[door](marked)
    assert answer.status_code == 403, answer.text
    assert answer.json()["error"]["code"] == MARKED
    assert "marked" in answer.json()["error"]["message"]
    assert len(marked.rated_games_together()) == marked.before


@pytest.mark.parametrize("door", list(Door))
def test_without_the_mark_check_every_door_seats_a_marked_player_rated(
    door: Door, marked: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def nobody(self: Admission, seating: Any, seated: Any) -> None:
        return None

    monkeypatch.setattr(Admission, "_marked", nobody)
    answer = SCENARIOS[door](marked)
    assert answer.status_code in (200, 201), answer.text
    assert len(marked.rated_games_together()) == marked.before + 1
