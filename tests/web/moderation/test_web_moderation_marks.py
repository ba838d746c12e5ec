"""A moderator's mark (``moderation/`` asks ``Ratings.exclude_account``), on SQLite and
PostgreSQL: after a handful of rated games among four accounts, one is marked; every other
account's rating is then what an independent Glicko-2 (``glickoref.py``) gives over the games
left, in the order they were settled, with the weights of the results repeated between two
players within the day (``ratings/repeats.py``) counted over those games alone. The marked
account keeps no rating and leaves the leaderboard; a game of theirs that ends while marked
rates nobody; the player is told; the log keeps the grounds. Unmarking puts every game back,
exactly. Games settled on other threads while a mark replays the pools come out the same."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import glickoref
import pytest
import sqlalchemy as sa
from accountcalls import Player, sign_up
from fastapi.testclient import TestClient
from ondatabase import DATABASES, settings_on
from typer.testing import CliRunner

from boardplay.cli.main import app as cli
from boardplay.web.app import create_app
from boardplay.web.ratings.store import RatingStore
from boardplay.web.ratings.tables import rated_games_table
from boardplay.web.table.storage import HUMAN, GameRow, SeatRow

NEW = (1500.0, 350.0, 0.06)
"""A new player's rating, deviation and volatility (Glickman's defaults)."""
Places = list[tuple[int, int]]
SEATS = [{"kind": "me"}, {"kind": "open"}]


@pytest.fixture(scope="module", params=DATABASES)
def site(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[TestClient, str]]:
    settings = settings_on(request.param, tmp_path_factory.mktemp("marks"), request)
    with TestClient(create_app(settings)) as client:
        yield client, settings.database_url


def fresh(client: TestClient, stem: str) -> Player:
    return sign_up(client, f"{stem}{uuid.uuid4().hex[:6]}")


def moderator(client: TestClient, url: str) -> Player:
    mod = fresh(client, "Mod")
    result = CliRunner().invoke(cli, ["db", "role", mod.name, "moderator", "--db", url])
    assert result.exit_code == 0, result.output
    return mod


class Games:
    """Rated games of the tiny game stored and settled straight away, in order."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.hub: Any = client.app.state.hub  # type: ignore[attr-defined]
        self.store: RatingStore = self.hub.ratings.store
        self.played: list[Places] = []
        self.pool = f"tiny-{uuid.uuid4().hex[:8]}"
        """A pool of this test's own, so the module's other tests' games are not in it."""

    def account(self, player: Player) -> int:
        found = self.client.portal.call(self.hub.accounts.by_name, player.name)
        return int(found.id)

    def stored(self, places: Places) -> str:
        game_id = f"m{len(self.played):03d}{uuid.uuid4().hex[:12]}"
        seats = [SeatRow(i, HUMAN, f"p{a}", account=a) for i, (a, _) in enumerate(places)]
        self.hub.storage.create_game(
            GameRow(id=game_id, game="tiny", options={}, seed=None, seats=seats, rated=True)
        )
        return game_id

    def play(self, places: Places) -> None:
        assert self.store.settle(self.stored(places), self.pool, places)
        self.played.append(places)

    def ratings(self, accounts: Sequence[int]) -> dict[int, tuple[float, float, float]]:
        found = {}
        for account in accounts:
            for standing in self.store.standings_of(account):
                if standing.pool == self.pool:
                    r = standing.rating
                    found[account] = (r.rating, r.deviation, r.volatility)
        return found


def reference(games: Sequence[Places], excluded: set[int]) -> dict[int, tuple[float, float, float]]:
    """Every account's rating after ``games`` less those an ``excluded`` account sat at, by
    ``glickoref``: a result repeated between two players within the day (all of these are)
    counts ½ per earlier one between them among the games kept, which moves a two-player
    game's rating, deviation and volatility that share of Glicko-2's step."""
    kept = [g for g in games if not excluded & {a for a, _ in g}]
    ratings: dict[int, tuple[float, float, float]] = {}
    for i, places in enumerate(kept):
        accounts = [a for a, _ in places]
        before = [ratings.get(a, NEW) for a in accounts]
        full = glickoref.game(before, [p for _, p in places])
        for k, a in enumerate(accounts):
            weights = [
                0.5 ** sum(1 for earlier in kept[:i] if {a, b} <= {x for x, _ in earlier})
                for b in accounts
                if b != a
            ]
            if weights == [1.0] * len(weights):
                ratings[a] = full[k]
                continue
            assert len(weights) == 1, "the reference weighs two-player games only"
            ratings[a] = tuple(  # type: ignore[assignment]
                old + weights[0] * (new - old) for old, new in zip(before[k], full[k], strict=True)
            )
    return ratings


def close_to(found: dict[int, Any], expected: dict[int, Any]) -> None:
    """Equal to the reference's 1e-4 (the server solves the volatility's equation by Illinois
    iteration to 1e-6, the reference by bisection; a game left in or out moves points)."""
    assert found.keys() == expected.keys()
    for account, triple in expected.items():
        assert found[account] == pytest.approx(triple, abs=1e-4), account


def test_a_marked_accounts_games_are_taken_out_of_every_rating_exactly(site: Any) -> None:
    client, url = site
    games, mod = Games(client), moderator(client, url)
    players = [fresh(client, stem) for stem in ("Ann", "Ben", "Cho", "Mal")]
    ann, ben, cho, mal = (games.account(p) for p in players)
    everyone = [ann, ben, cho, mal]
    for places in (
        [(mal, 1), (cho, 2), (ann, 3)],  # a table of three, everyone's first game
        [(ann, 1), (mal, 2)],  # Ann and Mal again: half
        [(ann, 1), (ben, 2)],
        [(mal, 1), (ben, 2)],
        [(ben, 1), (ann, 2)],  # Ann and Ben again: half
        [(cho, 1), (ben, 2)],
        [(ann, 1), (ben, 1)],  # a draw, Ann and Ben's third: a quarter
        [(mal, 1), (cho, 2)],  # Mal and Cho again: half
        [(ann, 1), (cho, 2)],  # half with Mal's table of three counted, whole without it
    ):
        games.play(places)
    close_to(games.ratings(everyone), reference(games.played, set()))
    assert mal in {s.account_id for s in games.store.leaderboard(games.pool, 50)}
    unmarked = games.ratings(everyone)

    def decide(action: str, **body: Any) -> Any:
        body = {"action": action, "reason": "engine moves", "account": players[3].name, **body}
        return mod.post("/api/moderation/actions", body)

    marked = decide("mark", grounds="engine")
    assert marked.status_code == 201, marked.text
    assert marked.json()["entry"]["grounds"] == "engine"
    close_to(games.ratings(everyone), reference(games.played, {mal}))
    assert games.store.standings_of(mal) == []
    assert {s.account_id for s in games.store.leaderboard(games.pool, 50)} == {ann, ben, cho}
    assert len(games.store.history_of(ann, 100)[games.pool]) == 4  # of Ann's six
    again = decide("mark", grounds="boosting")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_marked"
    notices = players[3].get("/api/account/notices").json()["notices"]
    assert [(n["action"], n["grounds"], n["reason"]) for n in notices] == [
        ("mark", "engine", "engine moves")
    ]

    assert decide("unmark").status_code == 201
    assert games.ratings(everyone) == unmarked  # to the last digit
    twice = decide("unmark")
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "not_marked"

    # Marked again, a game of Mal's that began before the mark and ends after it rates
    # nobody; once the mark is lifted, it counts in its place.
    assert decide("mark", grounds="boosting").status_code == 201
    before = games.ratings(everyone)
    games.play([(mal, 2), (ben, 1)])
    assert games.ratings(everyone) == before
    assert decide("unmark").status_code == 201
    close_to(games.ratings(everyone), reference(games.played, set()))
    entries = mod.get("/api/moderation/log").json()["entries"]
    assert [(e["action"], e["grounds"]) for e in entries if e["account"] == players[3].name] == [
        ("unmark", None),
        ("mark", "boosting"),
        ("unmark", None),
        ("mark", "engine"),
    ]


def test_a_marked_player_asks_for_no_rated_game_and_plays_casual(site: Any) -> None:
    client, url = site
    mod, player = moderator(client, url), fresh(client, "Cas")
    body = {"action": "mark", "grounds": "boosting", "reason": "fed", "account": player.name}
    assert mod.post("/api/moderation/actions", body).status_code == 201
    rapid = {"base": 600, "increment": 5}
    for path, terms in (
        ("/api/seeks", {"game": "tiny", "rated": True, "clock": rapid}),
        ("/api/seeks/quick", {"game": "tiny", "rated": True, "clock": rapid}),
        ("/api/games", {"game": "tiny", "seats": SEATS, "rated": True, "clock": rapid}),
    ):
        refused = player.post(path, terms)
        assert refused.status_code == 403, (path, refused.text)
        assert refused.json()["error"]["code"] == "marked"
    assert player.post("/api/seeks", {"game": "tiny", "clock": rapid}).status_code == 201
    assert player.post("/api/games", {"game": "tiny", "seats": SEATS}).status_code == 201


def test_a_mark_needs_its_grounds_and_changes_nothing_without_them(site: Any) -> None:
    client, url = site
    mod, player = moderator(client, url), fresh(client, "Gr")
    body = {"action": "mark", "reason": "why", "account": player.name}
    missing = mod.post("/api/moderation/actions", body)
    assert missing.status_code == 400 and "grounds" in missing.text
    wrong = mod.post("/api/moderation/actions", {**body, "grounds": "luck"})
    assert wrong.status_code == 400
    assert player.get("/api/account/notices").json()["notices"] == []
    logged = mod.get("/api/moderation/log").json()["entries"]
    assert all(e["account"] != player.name for e in logged)


def test_games_settled_while_a_mark_replays_the_pools_are_neither_lost_nor_misrated(
    site: Any,
) -> None:
    """Other threads settle games (of the marked player and of the others) while the mark
    replays: the ratings lock puts each before or after the replay, so the end is the
    reference over the games in the order they were settled, less the marked player's."""
    client, url = site
    games, mod = Games(client), moderator(client, url)
    players = [fresh(client, stem) for stem in ("Ann", "Ben", "Cho", "Mal")]
    ann, ben, cho, mal = (games.account(p) for p in players)
    pairs = [(ann, ben), (mal, cho), (ben, cho), (ann, mal), (cho, ann), (ben, mal)]
    for first, second in pairs * 2:
        games.play([(first, 1), (second, 2)])
    later = [[(first, 2), (second, 1)] for first, second in pairs * 2]
    ids = [games.stored(places) for places in later]

    def settle(start: int) -> None:
        for index in range(start, len(later), 2):
            assert games.store.settle(ids[index], games.pool, later[index])

    threads = [threading.Thread(target=settle, args=(start,)) for start in (0, 1)]
    for thread in threads:
        thread.start()
    marked = mod.post(
        "/api/moderation/actions",
        {"action": "mark", "grounds": "boosting", "reason": "farm", "account": players[3].name},
    )
    for thread in threads:
        thread.join()
    assert marked.status_code == 201, marked.text
    query = (
        sa.select(rated_games_table.c.game_id)
        .where(rated_games_table.c.game_id.in_(ids))
        .order_by(rated_games_table.c.settled, rated_games_table.c.game_id)
    )
    with games.store.engine.connect() as conn:  # the order they were settled in
        settled = list(conn.execute(query).scalars())
    played = games.played + [later[ids.index(game_id)] for game_id in settled]
    close_to(games.ratings([ann, ben, cho, mal]), reference(played, {mal}))
