"""Who is told what, when, away from the table: "your turn", "game over" and "challenge received"
told to players with no page of the game open, by e-mail (correspondence games, to a confirmed
address) and by Web Push (to each device that asked, the installable app's service worker
showing it), each in the account's language.

The two channels share what they say (``words.py``, the notices' words in the site's message
catalogue) and how a notice leaves (``outbox.py``: a row first, claimed by one process with a
lease, sent, retried with growing pauses, pruned; and the sender loop around it) and what they
hear (``channel.py``: the game's turns and ends and the accounts closed). Each keeps its
own table and what only it knows: mail its addresses, confirmation and unsubscribe links
(``mailstore.py``, ``mailer.py``, the SMTP client ``web/smtp.py``); push its devices'
subscriptions and the server's VAPID key (``pushstore.py``, ``pusher.py``, ``webpush.py``), and
the operator's push settings (``pushconfig.py``).

Its public face: ``Mailer`` and ``Pusher`` (what they do when they hear ``YourTurn``,
``GameFinished`` and ``AccountClosed`` through ``channel.py``, and push ``ChallengeSent``; the
account's routes' calls, and each channel's sender), ``MailConfig`` and ``PushConfig`` (the
operator's settings), and what the routes (``api/notify.py``) check a request with. Its
stores are its own: no other domain reads or writes its tables."""

from boardplay.web.notify.mailer import MailConfig, Mailer
from boardplay.web.notify.mailstore import ADDRESS_MAX
from boardplay.web.notify.pushconfig import PushConfig
from boardplay.web.notify.pusher import Pusher
from boardplay.web.notify.pushstore import ENDPOINT_MAX, KEY_MAX, Subscription
from boardplay.web.notify.webpush import allowed, check_subscription, endpoint_problem

__all__ = [
    "ADDRESS_MAX",
    "ENDPOINT_MAX",
    "KEY_MAX",
    "MailConfig",
    "Mailer",
    "PushConfig",
    "Pusher",
    "Subscription",
    "allowed",
    "check_subscription",
    "endpoint_problem",
]
