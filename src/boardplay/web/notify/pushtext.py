"""What a push says, in the reader's language: the JSON a device's service worker receives
(``static/sw.js``) for "your turn", "game over" and "challenge received", with the words to
turn the notices off. Pure; the pusher queues what these write (``pusher.py``)."""

from __future__ import annotations

import json
from collections.abc import Callable

from boardplay.web.notify import words
from boardplay.web.notify.pushstore import CHALLENGE, END, TURN
from boardplay.web.played import Game

TITLE_CHARS = 100
BODY_CHARS = 300
Titles = Callable[[str], str]
"""A game's title by its name (the catalogue's, ``words.titles``)."""


def payload(
    lang: str, kind: str, title: str, body: str, url: str, tag: str, game: str | None
) -> str:
    """The JSON the service worker receives, in ``lang``."""
    return json.dumps(
        {
            "v": 1,
            "kind": kind,
            "title": words.clean(title, TITLE_CHARS),
            "body": words.clean(body, BODY_CHARS),
            "url": url,
            "tag": tag,
            "game": game,
            "lang": lang,
            "off": words.say(lang, "push.turnOff"),
            "offDone": words.say(lang, "push.offDone"),
        },
        ensure_ascii=False,
    )


def _title(lang: str, titles: Titles, game: str) -> str:
    return words.game_title(lang, game, titles(game))


def _against(lang: str, row: Game, account: int) -> str:
    return words.names(lang, [(s.name, s.account) for s in row.seats], account)


def turn(lang: str, titles: Titles, row: Game, account: int) -> str:
    game, names = _title(lang, titles, row.game), _against(lang, row, account)
    body = words.say(lang, "turns.notifyBody", game=game, names=names)
    title = words.say(lang, "turns.notifyTitle")
    return payload(lang, TURN, title, body, f"/#/game/{row.id}", f"boardplay-turn-{row.id}", row.id)


def end(lang: str, titles: Titles, row: Game, account: int) -> str:
    game, names = _title(lang, titles, row.game), _against(lang, row, account)
    mine = {s.seat for s in row.seats if s.account == account}
    title = words.say(lang, "push.endTitle", game=game)
    body = words.say(
        lang, "push.endBody", names=names, outcome=words.outcome(lang, row.result, mine)
    )
    return payload(lang, END, title, body, f"/#/game/{row.id}", f"boardplay-end-{row.id}", row.id)


def challenge(
    lang: str, titles: Titles, sender: str, game: str, rated: bool, challenge_id: str, ttl: int
) -> str:
    """A challenge received, open for ``ttl`` seconds."""
    title = words.say(lang, "push.challengeTitle", name=words.clean(sender, words.NAME_CHARS))
    body = words.say(
        lang,
        "push.challengeBody",
        game=_title(lang, titles, game),
        kind=words.say(lang, "push.rated" if rated else "push.casual"),
        minutes=max(1, ttl // 60),
    )
    return payload(lang, CHALLENGE, title, body, "/#/", f"boardplay-challenge-{challenge_id}", None)
