"""The analysis board's studies over HTTP on the tiny game (issue 64): a tree of variations that
survives a reload and is read through its link by another visitor, edits only by its owner,
moves checked by the rules (a bad one is a 400 naming the legal moves), chance decided or drawn,
promote, delete and comment, a record with variations exported and read back, and the ceilings
(positions per study, studies per hour, comment length) held under bursts of parallel
requests."""

from __future__ import annotations

import json
import typing
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from webcalls import refused
from websettings import tiny_settings

from boardplay.ai.specs import LEVEL_NAMES
from boardplay.web.accounts.service import DEVICE_COOKIE
from boardplay.web.analysis.schemas import Level
from boardplay.web.app import create_app

OWNER = "owner-browser-" + "o" * 20
OTHER = "other-browser-" + "x" * 20


class Guest:
    """A browser with its own device cookie, sent explicitly (the test client's jar is emptied
    after every request, so no request carries another guest's cookie)."""

    def __init__(self, client: TestClient, device: str | None) -> None:
        self.client = client
        self.device = device

    def call(self, method: str, path: str, body: Any = None) -> Any:
        headers = {"Cookie": f"{DEVICE_COOKIE}={self.device}"} if self.device else {}
        response = self.client.request(method, path, json=body, headers=headers)
        self.client.cookies.clear()
        return response

    def study(self, **body: Any) -> dict[str, Any]:
        response = self.call("POST", "/api/analysis", {"game": "tiny", **body})
        assert response.status_code == 201, response.text
        made: dict[str, Any] = response.json()
        return made

    def move(self, study: str, node: int, move: Any = None, **extra: Any) -> dict[str, Any]:
        body = {"move": move, **extra} if move is not None else extra
        response = self.call("POST", f"/api/analysis/{study}/nodes/{node}/moves", body)
        assert response.status_code == 200, response.text
        played: dict[str, Any] = response.json()
        return played


@pytest.fixture
def app_client(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[TestClient]:
    limits = getattr(request, "param", None)
    with TestClient(create_app(tiny_settings(tmp_path, limits))) as client:
        yield client


def node_of(study: dict[str, Any], node: int) -> dict[str, Any]:
    found: dict[str, Any] = next(n for n in study["nodes"] if n["id"] == node)
    return found


def three_branches(owner: Guest) -> tuple[str, int, list[int]]:
    """A study whose position after the roll has three branches; its id, that node, the
    branches' nodes."""
    study = owner.study()["id"]
    rolled = owner.move(study, 0, "roll1")["node"]
    branches = [owner.move(study, rolled, move)["node"] for move in ("t1", "t2", "t3")]
    return study, rolled, branches


def test_the_ladders_levels_are_the_lines_levels() -> None:
    assert set(typing.get_args(Level)) == set(LEVEL_NAMES)


def test_a_tree_of_three_branches_survives_a_reload_and_is_read_through_its_link(
    app_client: TestClient,
) -> None:
    owner, other = Guest(app_client, OWNER), Guest(app_client, OTHER)
    study, rolled, branches = three_branches(owner)
    deeper = owner.move(study, branches[1], "t3")["node"]
    comment = owner.call(
        "PUT", f"/api/analysis/{study}/nodes/{branches[2]}/comment", {"comment": "sharp\nline"}
    )
    assert comment.status_code == 200 and comment.json()["comment"] == "sharp line"

    again = owner.call("GET", f"/api/analysis/{study}").json()  # a reload: a second request
    assert again["yours"] and node_of(again, rolled)["children"] == branches
    assert [node_of(again, b)["move"] for b in branches] == ["t1", "t2", "t3"]
    assert node_of(again, deeper)["parent"] == branches[1] and node_of(again, deeper)["ply"] == 3
    assert node_of(again, branches[2])["comment"] == "sharp line"

    shared = Guest(app_client, None).call("GET", f"/api/analysis/{study}")  # the link, a guest
    assert shared.status_code == 200
    read = shared.json()
    assert not read["yours"] and read["nodes"] == again["nodes"]
    position = other.call("GET", f"/api/analysis/{study}/nodes/{deeper}").json()
    assert position["ply"] == 3 and position["current_player"] == 1
    assert [m["move"] for m in position["legal"]] == ["t1", "t2", "t3"]

    # Another visitor changes nothing, and may fork the study into a copy of their own.
    for method, path, body in (
        ("POST", f"nodes/{rolled}/moves", {"move": "t1"}),
        ("POST", f"nodes/{branches[2]}/promote", {}),
        ("DELETE", f"nodes/{branches[0]}", None),
        ("PUT", f"nodes/{rolled}/comment", {"comment": "mine now"}),
    ):
        answer = other.call(method, f"/api/analysis/{study}/{path}", body)
        assert answer.status_code == 403 and answer.json()["error"]["code"] == "not_yours"
    assert owner.call("GET", f"/api/analysis/{study}").json()["nodes"] == again["nodes"]
    forked = other.call("POST", f"/api/analysis/{study}/fork")
    assert forked.status_code == 201, forked.text
    copy = forked.json()
    assert copy["yours"] and copy["id"] != study and copy["source"]["study"] == study
    assert [(n["move"], n["children"]) for n in copy["nodes"]] == [
        (n["move"], n["children"]) for n in again["nodes"]
    ]
    assert other.move(copy["id"], rolled, "t1")["new"] is False  # there already


def test_moves_are_checked_and_chance_is_chosen_or_drawn(app_client: TestClient) -> None:
    owner = Guest(app_client, OWNER)
    study = owner.study()["id"]
    path = f"/api/analysis/{study}/nodes/0/moves"
    message = refused(owner.call("POST", path, {"move": "t1"}))
    assert "roll0" in message and "roll2" in message  # at the chance node: its outcomes
    drawn = owner.move(study, 0, draw=True)
    node = node_of(drawn["study"], drawn["node"])
    assert drawn["new"] and node["seat"] == -1 and node["move"] in ("roll0", "roll1", "roll2")
    position = owner.call("GET", f"/api/analysis/{study}/nodes/{drawn['node']}").json()
    after = f"/api/analysis/{study}/nodes/{drawn['node']}/moves"
    answer = owner.call("POST", after, {"move": "t9"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == "illegal_move"
    assert all(m["move"] in answer.json()["error"]["message"] for m in position["legal"])
    assert "chance node" in refused(owner.call("POST", after, {"draw": True}))
    opening = owner.call("GET", f"/api/analysis/{study}/nodes/0").json()
    assert opening["chance"] and [o["move"] for o in opening["outcomes"]] == [
        "roll0",
        "roll1",
        "roll2",
    ]
    assert opening["outcomes"][0]["probability"] == pytest.approx(1 / 3)
    unchanged = owner.call("GET", f"/api/analysis/{study}").json()
    assert len(unchanged["nodes"]) == 2


def test_promote_delete_and_comment_edit_the_tree(app_client: TestClient) -> None:
    owner = Guest(app_client, OWNER)
    study, rolled, branches = three_branches(owner)
    tail = owner.move(study, branches[2], "t1")["node"]
    promoted = owner.call("POST", f"/api/analysis/{study}/nodes/{tail}/promote", {"mainline": True})
    assert node_of(promoted.json(), rolled)["children"] == [branches[2], branches[0], branches[1]]
    promoted = owner.call("POST", f"/api/analysis/{study}/nodes/{branches[1]}/promote")
    assert node_of(promoted.json(), rolled)["children"] == [branches[1], branches[2], branches[0]]
    deleted = owner.call("DELETE", f"/api/analysis/{study}/nodes/{branches[2]}").json()
    assert deleted["deleted"] == 2
    assert node_of(deleted["study"], rolled)["children"] == [branches[1], branches[0]]
    assert {n["id"] for n in deleted["study"]["nodes"]} == {0, rolled, branches[0], branches[1]}
    assert "first position" in refused(owner.call("DELETE", f"/api/analysis/{study}/nodes/0"))
    gone = owner.call("GET", f"/api/analysis/{study}/nodes/{tail}")
    assert gone.status_code == 404
    long = "x" * 1001
    message = refused(
        owner.call("PUT", f"/api/analysis/{study}/nodes/0/comment", {"comment": long})
    )
    assert "at most 1,000" in message
    cleared = owner.call("PUT", f"/api/analysis/{study}/nodes/0/comment", {"comment": "  "})
    assert cleared.json()["comment"] is None


def test_a_study_exports_as_a_record_with_variations_that_reads_back(
    app_client: TestClient,
) -> None:
    owner = Guest(app_client, OWNER)
    study, _, branches = three_branches(owner)
    owner.move(study, branches[0], "t2")
    inner = owner.move(study, branches[0], "t3")["node"]
    owner.call("PUT", f"/api/analysis/{study}/nodes/{inner}/comment", {"comment": "deep"})
    owner.call("PUT", f"/api/analysis/{study}/nodes/0/comment", {"comment": "start"})
    owner.move(study, branches[1], "t1")
    owner.move(study, branches[1], "t3")  # a line within the variation t2
    answer = owner.call("GET", f"/api/analysis/{study}/export")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    record = answer.json()
    assert record["format"] == "boardplay-record" and record["moves"] == ["roll1", "t1", "t2"]
    assert record["seats"] == [-1, 0, 0] and record["comments"] == {"0": "start"}
    assert record["variations"] == [
        {
            "ply": 1,
            "actions": [1, 0],
            "moves": ["t2", "t1"],
            "seats": [0, 0],
            "variations": [{"ply": 2, "actions": [2], "moves": ["t3"], "seats": [0]}],
        },
        {"ply": 1, "actions": [2], "moves": ["t3"], "seats": [0]},
        {"ply": 2, "actions": [2], "moves": ["t3"], "seats": [0], "comments": {"3": "deep"}},
    ]
    read = owner.study(game=None, record=record)
    original = owner.call("GET", f"/api/analysis/{study}").json()

    def shape(data: dict[str, Any]) -> list[Any]:
        by_id = {n["id"]: n for n in data["nodes"]}
        return [
            (n["ply"], n["move"], n["comment"], [by_id[c]["move"] for c in n["children"]])
            for n in data["nodes"]
        ]

    assert read["source"] == {"kind": "record"} and shape(read) == shape(original)
    broken = dict(record, variations=[{"ply": 1, "actions": [0], "moves": ["t9"], "seats": [0]}])
    message = refused(owner.call("POST", "/api/analysis", {"record": broken}))
    assert "variations[0].move 1" in message
    late = dict(record, variations=[{"ply": 3, "actions": [0], "moves": ["t1"], "seats": [1]}])
    assert "plies 0..2" in refused(owner.call("POST", "/api/analysis", {"record": late}))


def test_a_study_starts_where_it_is_asked_to(app_client: TestClient) -> None:
    owner = Guest(app_client, OWNER)
    position = owner.call("GET", "/api/analysis/" + three_branches(owner)[0] + "/nodes/2")
    at = position.json()["position"]
    made = owner.study(position=at)
    assert made["start_position"] == at and made["source"] == {"kind": "position"}
    assert "not a valid tiny position" in refused(
        owner.call("POST", "/api/analysis", {"game": "tiny", "position": {"pile": "lots"}})
    )
    assert "one of them" in refused(owner.call("POST", "/api/analysis", {}))
    assert "unknown game" in refused(owner.call("POST", "/api/analysis", {"game": "chess"}))
    assert owner.call("GET", "/api/analysis/nosuchstudy").status_code == 404


@pytest.mark.parametrize("app_client", [{"analysis_nodes": 6}], indirect=True)
def test_a_burst_of_moves_fills_a_study_to_its_ceiling_and_no_further(
    app_client: TestClient,
) -> None:
    owner = Guest(app_client, OWNER)
    study = owner.study()["id"]
    rolled = owner.move(study, 0, "roll2")["node"]  # two nodes: the root and the roll
    after = [owner.move(study, rolled, m)["node"] for m in ("t1", "t2", "t3")]
    path = [f"/api/analysis/{study}/nodes/{n}/moves" for n in after]
    asks = [(p, m) for p in path for m in ("t1", "t2", "t3")]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda a: owner.call("POST", a[0], {"move": a[1]}), asks))
    codes = sorted(a.status_code for a in answers)
    assert codes == [200] + [409] * 8, [a.text for a in answers]
    assert all(a.json()["error"]["code"] == "study_full" for a in answers if a.status_code == 409)
    assert len(owner.call("GET", f"/api/analysis/{study}").json()["nodes"]) == 6


@pytest.mark.parametrize("app_client", [{"analysis_studies_per_hour": 3}], indirect=True)
def test_a_burst_of_new_studies_gets_the_hourly_ceiling(app_client: TestClient) -> None:
    owner = Guest(app_client, OWNER)
    with ThreadPoolExecutor(8) as pool:
        answers = list(
            pool.map(lambda _: owner.call("POST", "/api/analysis", {"game": "tiny"}), range(10))
        )
    codes = sorted(a.status_code for a in answers)
    assert codes == [201] * 3 + [429] * 7, [a.text for a in answers]
    refusal = next(a for a in answers if a.status_code == 429)
    assert refusal.json()["error"]["code"] == "studies_rate" and refusal.headers["retry-after"]
    # Another browser from the same address is counted too: the address's ceiling.
    assert (
        Guest(app_client, OTHER).call("POST", "/api/analysis", {"game": "tiny"}).status_code == 429
    )


def test_a_browser_without_a_cookie_is_given_one_and_owns_what_it_makes(
    app_client: TestClient,
) -> None:
    answer = app_client.post("/api/analysis", json={"game": "tiny"})
    assert answer.status_code == 201 and answer.json()["yours"]
    device = answer.cookies.get(DEVICE_COOKIE)
    app_client.cookies.clear()
    assert device
    me = Guest(app_client, device)
    assert me.move(answer.json()["id"], 0, "roll0")["new"]


def test_the_variations_example_of_the_formats_page_reads_as_it_says(
    app_client: TestClient,
) -> None:
    page = (Path(__file__).parents[3] / "docs" / "formats.md").read_text(encoding="utf-8")
    section = page[page.index("### Variations") :]
    example = json.loads(section[section.index("```json") + 7 : section.index("```\n")])
    owner = Guest(app_client, OWNER)
    study = owner.study(game=None, record=example)
    by_id = {n["id"]: n for n in study["nodes"]}

    def line(node: dict[str, Any]) -> list[str]:
        moves = []
        while node["children"]:
            node = by_id[node["children"][0]]
            moves.append(node["move"])
        return moves

    assert line(by_id[0]) == ["roll1", "t1", "t2"] and by_id[0]["comment"] == "start"
    rolled = by_id[by_id[0]["children"][0]]
    assert [by_id[c]["move"] for c in rolled["children"]] == ["t1", "t2"]
    exported = owner.call("GET", f"/api/analysis/{study['id']}/export").json()
    for field in ("actions", "moves", "seats", "comments", "variations"):
        assert exported[field] == example[field], field
