"""Push notifications and the installable app (issue 52): a device's push subscription per
account, "your turn", "challenge received" and "game over" pushed through the browsers' push
services (Web Push with VAPID) by a background sender, the words of pushes and mails in the
account's language, and the web app manifest and service worker served from the site's root.

Its public face: ``Pusher`` (the hooks the game code and the lobby call, and the sender),
``PushConfig`` (the operator's settings, ``config.py``), ``routes`` (its router, included by
``app.py``) and ``words`` (the notices' words, which the mails use too)."""

from boardplay.web.push.config import PushConfig
from boardplay.web.push.service import Pusher
from boardplay.web.push.words import deadline_text, game_title, language_of, names, outcome, say

__all__ = [
    "PushConfig",
    "Pusher",
    "deadline_text",
    "game_title",
    "language_of",
    "names",
    "outcome",
    "say",
]
