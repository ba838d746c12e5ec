"""Following and blocking players (``relations/``): signed in only (401 otherwise; a change needs
the session's CSRF token), by the other player's name. Every change is idempotent: it answers
the state it leaves, whether it changed it or found it so. An unknown or deleted player is a
404, oneself a 400.

- ``POST`` / ``DELETE /api/relations/follow/{name}``: follow, unfollow;
- ``POST`` / ``DELETE /api/relations/block/{name}``: block, unblock;
- ``GET /api/relations/following``: the players followed, each with where they are now;
- ``GET /api/relations/blocked``: the players blocked;
- ``GET /api/relations/with/{name}``: whether one follows and blocks that player (a profile's
  buttons)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request

from boardplay.web.api.deps import AccountDep
from boardplay.web.relations import Relations

router = APIRouter(prefix="/api/relations", tags=["relations"])
Name = Annotated[str, Path(min_length=1, max_length=64)]


def get_relations(request: Request) -> Relations:
    service: Relations = request.app.state.hub.relations
    return service


RelationsDep = Annotated[Relations, Depends(get_relations)]


@router.post("/follow/{name}")
async def follow(name: Name, account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    """Follow a player (409 past ``Limits.follows_per_account``, or while blocking them)."""
    other = await relations.follow(account, name)
    return {"name": other.name, "following": True}


@router.delete("/follow/{name}")
async def unfollow(name: Name, account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    other = await relations.unfollow(account, name)
    return {"name": other.name, "following": False}


@router.post("/block/{name}")
async def block(name: Name, account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    """Block a player: no table, challenge or chat between you (409 past
    ``Limits.blocks_per_account``); it ends the follows between you."""
    other = await relations.block(account, name)
    return {"name": other.name, "blocking": True}


@router.delete("/block/{name}")
async def unblock(name: Name, account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    other = await relations.unblock(account, name)
    return {"name": other.name, "blocking": False}


@router.get("/following")
async def following(account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    """The players you follow, by name: each ``online`` (a page of the site open),
    ``playing`` (the id of their game under way, to watch) and ``tournament`` (the running one
    they play in)."""
    return {"following": [f.to_json() for f in await relations.following(account)]}


@router.get("/blocked")
async def blocked(account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    """The players you block, by name."""
    found = await relations.blocked(account)
    return {"blocked": [{"name": a.name, "bot": a.bot, "since": since} for a, since in found]}


@router.get("/with/{name}")
async def with_player(name: Name, account: AccountDep, relations: RelationsDep) -> dict[str, Any]:
    """Whether you follow and whether you block the player ``name``."""
    other, state = await relations.with_player(account, name)
    return {"name": other.name, **state}
