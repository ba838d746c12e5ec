"""Server settings: where the database lives, which games are offered, how AI moves run and the
ceilings on every cost a visitor can ask for.

The defaults suit one person running ``boardplay serve`` on a laptop: an embedded SQLite file
under the XDG data directory, the games of the registry, AI moves in a small process pool. Each
setting can come from the environment so the same code serves tests, the CLI and a deployment.
docs/web.md ("Security") lists every ceiling with its variable and default."""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from email.utils import parseaddr
from pathlib import Path
from typing import Any

from boardplay.web.logs import check_log_format

DATABASE_ENV = "BOARDPLAY_DATABASE_URL"
"""Environment variable with a SQLAlchemy URL, e.g. ``postgresql+psycopg://user@host/db``."""
CATALOGUE_ENV = "BOARDPLAY_WEB_CATALOGUE"
"""Environment variable naming the game catalogue as ``module:attribute`` (tests: a tiny game)."""
AI_WORKERS_ENV = "BOARDPLAY_WEB_AI_WORKERS"
DATA_DIR_ENV = "BOARDPLAY_WEB_DATA_DIR"
"""Directory of extra game data files offered by name (e.g. Montana ``data=variant``)."""
REDIS_ENV = "BOARDPLAY_REDIS_URL"
"""Environment variable with a Redis URL (``redis://host:6379/0``): live updates between server
processes. Unset: one process, updates delivered in memory."""
ORIGIN_ENV = "BOARDPLAY_WEB_ORIGIN"
SMTP_ENV = "BOARDPLAY_WEB_SMTP_URL"
"""The operator's SMTP server for e-mail notifications (``smtp.py``); unset, no e-mail at all."""
MAIL_FROM_ENV = "BOARDPLAY_WEB_MAIL_FROM"
"""The sender address of those mails (``boardplay@play.example.org``); needed with SMTP."""
METRICS_TOKEN_ENV = "BOARDPLAY_WEB_METRICS_TOKEN"
"""The bearer token ``GET /metrics`` asks for (``observe.py``); unset, the path is not served."""
LOG_FORMAT_ENV = "BOARDPLAY_WEB_LOG_FORMAT"
"""``text`` (uvicorn's lines) or ``json`` (one object a line, with request ids: ``logs.py``)."""
SHARED_METRICS_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""prometheus_client's multiprocess folder: set before it is first imported, every process
keeps its values there and a scrape of any answers the sum (``metrics.py``; ``boardplay serve``
sets it up)."""
METRICS_TOKEN_MIN = 16
"""Shortest metrics token taken: the series tell a visitor how busy the site is, so a guessable
token is refused at start."""
DEFAULT_CATALOGUE = "boardplay.web.catalogue:REGISTRY"
DEFAULT_AI_WORKERS = 4
"""AI turns computed at once, each in its own process: enough that one game's long think does
not hold up the AI of a few other games (docs/web.md, "Security")."""


def default_database_path() -> Path:
    """``$XDG_DATA_HOME/boardplay/boardplay.sqlite3`` (``~/.local/share/...`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "boardplay" / "boardplay.sqlite3"


def default_database_url() -> str:
    """``BOARDPLAY_DATABASE_URL`` if set, else the embedded SQLite file."""
    url = os.environ.get(DATABASE_ENV)
    if url:
        return url
    return f"sqlite:///{default_database_path()}"


@dataclass(frozen=True)
class Limits:
    """Operator ceilings on what one visitor may cost the server. Each field can be set in the
    environment as ``BOARDPLAY_WEB_`` + its name in capitals (``BOARDPLAY_WEB_AI_MAX_TIME``)."""

    ai_max_time: float = 5.0
    """Seconds an AI may think per move; a spec asking for more is refused, and every search is
    also stopped at this time whatever its iteration budget."""
    ai_max_iterations: int = 20_000
    """MCTS iterations an AI spec that sets no think time may ask for per move. A spec with a
    think time within ``ai_max_time`` is stopped by it, so its iteration cap may be higher (the
    expert levels: 100,000-200,000 iterations in 0.1 s)."""
    hint_iterations: int = 1_000
    """Search iterations behind one hint (also stopped at ``ai_max_time``)."""
    review_iterations: int = 300
    """Search iterations per position of a review when the visitor does not choose."""
    review_max_iterations: int = 2_000
    """Most iterations per position a visitor may ask a review for."""
    review_max_work: int = 300_000
    """Most positions × iterations one review may cost; a longer request is refused naming
    both numbers (a 200-decision game at the default 300 iterations is 60,000)."""
    review_jobs: int = 2
    """Reviews one server process computes at once; a request beyond that is asked to wait."""
    games_per_visitor: int = 30
    """Games one address may make per hour (created, or started with "play again"), counted in
    the database so that every process agrees."""
    ai_games_per_visitor: int = 2
    """Games played by AIs alone that one address may have running at once (each keeps an AI
    worker busy until it ends); the same for one network (an IPv4 /24, an IPv6 /48) and for
    one account."""
    replay_max_plies: int = 5_000
    """Longest record a replay is built for (a game's own or an uploaded one); a longer one is
    refused with 413 before it is replayed."""
    replay_cache_bytes: int = 64_000_000
    """Memory for the replays of games already built, kept for the next visitor (ETag/304)."""
    heavy_share: float = 0.25
    """Seconds of heavy work (building a replay or a record, starting a review) one address may
    cost the server per second, on average..."""
    heavy_burst: float = 3.0
    """...and at once, after a quiet spell; past that, 429 until its share has paid it back."""
    max_body_bytes: int = 500_000
    """Largest HTTP request body: room for a record at the replay ceiling (5,000 plies are
    85-190 kB, whatever the game), and little more, since every body is parsed and checked
    before any route runs."""
    max_ws_message_bytes: int = 65_536
    """Largest WebSocket message from a client; a larger one closes the socket with 1009."""
    max_json_depth: int = 32
    """Deepest nesting of arrays and objects in a request or message."""
    max_int_digits: int = 20
    """Most digits of an integer in a request or message (a 63-bit number has 19)."""
    rate_per_second: float = 20.0
    """Requests (and WebSocket messages) per second one address may make, on average..."""
    rate_burst: int = 200
    """...and at once, after a quiet spell (a token bucket of this size)."""
    ws_send_queue: int = 64
    """Updates waiting to be sent to one socket; a socket further behind is closed with 1013
    (the page reconnects and starts from the latest state)."""
    seeks_per_account: int = 3
    """Open seeks ("looking for an opponent") one account may have at once (``lobby/seeks.py``);
    one more is refused with 429 until one is cancelled, taken or gone."""
    challenges_per_account: int = 5
    """Open challenges one account may have sent and not yet seen answered; one more is
    refused with 429 until one is answered, cancelled or expired."""
    seeks_listed: int = 200
    """Seeks the lobby lists (oldest first), over HTTP and in each socket's ``seeks`` message:
    the size of the message every lobby socket is sent when the list changes."""
    seek_grace: float = 5.0
    """Seconds an owner's seeks outlive their last lobby socket (a page reload keeps them;
    leaving the page takes them away once this has passed)."""
    seek_ttl: float = 30.0
    """Seconds a seek lives without a heartbeat from a process holding its owner's lobby
    socket: how long the seeks of a process that died (or of an owner who never opened the
    lobby) stay listed. Heartbeats come every third of it."""
    abandon_after: float = 30.0
    """Seconds a player's page must have been gone from a real-time two-player game before
    the opponent may claim the win (or a draw); ``table/timeouts.py``."""
    challenges_per_hour: int = 20
    """Challenges one account may send per hour (counted before each is stored)..."""
    challenges_received: int = 10
    """...and open challenges one account may be sent at once, from everyone together; one
    more is refused (429) until one is answered or expires, so no crowd of accounts can bury a
    player's challenges."""
    seeks_per_hour: int = 30
    """Seeks (and quick-game asks) one account may post per hour."""
    seats_per_account: int = 3
    """Seats one account may hold at once at other players' open tables (seeks for three or four
    players, ``lobby/tables.py``); one more is refused (429) until one is left or its game
    starts."""
    seats_per_hour: int = 30
    """Seats one account may take at open tables per hour (counted before each is stored): every
    seat taken or left is a new list for every lobby page."""
    follows_per_account: int = 400
    """Players one account may follow at once (lichess's ceiling; 409 ``too_many_follows``
    past it, counted under a lock on the account: ``relations/``)..."""
    blocks_per_account: int = 500
    """...and players one account may block at once (409 ``too_many_blocks`` past it)."""
    relations_per_hour: int = 100
    """Follows, unfollows, blocks and unblocks one account may ask for per hour (429
    ``relations_rate`` past it; counted before each, repeats too)."""
    challenge_lifetime: float = 600.0
    """Seconds a challenge stays open unanswered; then it expires and stops counting
    against ``challenges_per_account``."""
    mails_per_account_hour: int = 12
    """Notification e-mails ("your turn", "game over") one account is sent per hour at most;
    more are dropped (and counted in the log), so a fast correspondence game cannot flood an
    inbox (``notify/mailer.py``)."""
    confirmations_per_hour: int = 3
    """Confirmation e-mails one account may ask for per hour, and one address may be sent per
    hour whichever accounts ask (429 beyond): the only mail that goes to an address nobody has
    confirmed, so nobody can make the server mail a stranger more than this."""
    chat_length: int = 300
    """Longest table-chat message, in characters after its spaces are tidied (``chat/service.py``):
    a line or two beside the board, never a wall of text."""
    chat_per_minute: int = 10
    """Chat messages one sender may write in one channel of a game per minute (and never two
    within a second); counted in the database, so every process agrees."""
    chat_per_game: int = 1_000
    """Players' chat messages a game keeps; past it the players' chat is closed (429) so one
    table cannot fill the database. The spectators' channel is counted apart: nothing
    written there can close the players' chat."""
    chat_spectators_kept: int = 500
    """Spectators' chat messages a game keeps: the oldest is dropped for each new one past
    it, so a crowd of watchers can neither fill the database nor close their own channel."""
    chat_per_author: int = 60
    """Spectators' chat messages one account may write in one game (429 past it)."""
    chat_account_age: float = 600.0
    """Seconds an account must exist before it may write in a spectators' chat, unless it has
    finished a game: a fresh account costs a flooder nothing, a finished game does."""
    reports_per_day: int = 10
    """Players one account may report a day ("report this player", ``moderation/``); counted
    with the other throttles before the report is stored."""
    fairplay_queue: int = 1_000
    """Rated games one server process holds waiting for their fair-play evidence
    (``fairplay/``); a game finished while it is full is not judged."""
    judge_iterations: int | None = None
    """Iterations the fair-play judge searches a decision (also stopped at ``ai_max_time``).
    None: each game's own budget (``boardplay.ai.fairplay.judge_iterations``), at which its
    pools' flag rules were measured; a lower one costs less, but a weaker judge agrees more
    with strong honest players, and the rules' false-alarm rates no longer hold."""
    signin_per_account: int = 5
    """Password sign-ins tried for one account within ``signin_window`` (counted before the
    password is checked; a right one gives its attempt back). A browser that signed in to the
    account before has an allowance of this size of its own."""
    signin_per_address: int = 20
    """Password sign-ins tried from one address within ``signin_window``."""
    signin_window: float = 900.0
    """Seconds of the sign-in throttle's window."""
    signups_per_network: int = 5
    """Accounts made per hour from one address (IPv4) or one /64 network (IPv6)."""
    rated_fresh_account: float = 3600.0
    """Seconds an account must exist before it may play a rated game against an account it
    shares an address or a device with (a second account of the same person)."""
    ai_only_games: int = 8
    """Games played by AIs alone running at once on the whole server, whoever made them;
    with ``ai_games_per_visitor`` per address, per network and per account."""
    api_requests_per_minute: int = 120
    """Bot API requests other than moves one personal API token may make per minute (a stream
    opened, a challenge sent or answered, chat; ``bots/limits.py``), counted in the database
    before the request runs (429 ``api_rate`` past it): a bot's games cost a few each (a game
    stream, its answer), however many moves they have, and a runaway client cannot make the
    server work harder than that."""
    api_refused_moves_per_minute: int = 60
    """Moves of one personal API token the games may refuse per minute (illegal, not its turn,
    the game over; 429 ``move_rate`` past it). A move the game takes is not counted: the game
    bounds those (one per turn), so no pace of legal play meets a rate ceiling; every move is
    counted before it runs and given back once taken, so a burst of refused ones gets no more
    than this."""
    api_streams_per_token: int = 32
    """Bot API streams (the event stream, game streams) one token may hold open at once on one
    server process (429 past it): each holds a room's watch and a queue, so a client that
    opens streams and never closes them cannot pile them up."""
    api_tokens_per_account: int = 10
    """Personal API tokens one account may hold at once (409 past it: revoke one first)."""
    analysis_nodes: int = 6_000
    """Positions one study of the analysis board may hold (``analysis/``), its source's moves
    included: a record at the replay ceiling fits with room for variations; one more move is
    refused (409 ``study_full``), counted under the study's row lock."""
    analysis_studies_per_hour: int = 30
    """Studies (new or forked) one visitor may make per hour: counted for the owner (account or
    browser) and for the address, before each is stored (429 ``studies_rate``)."""
    analysis_comment_length: int = 1_000
    """Longest comment on a study's position, in characters after tidying (``text.tidy``)."""
    analysis_lines_per_hour: int = 120
    """Engine-line searches one address may ask for per hour (429 ``lines_rate``); each holds
    one AI worker for at most ``ai_max_time`` at a level of the ladder, waits its turn in the
    worker pool's fair queue, and one address has one at a time. Lines already stored on a
    position are read for free."""
    puzzle_attempts_per_minute: int = 30
    """Puzzle attempts (and streaks) one visitor may start per minute: counted for the account
    (or browser) and for the address, before each is stored (429 ``puzzles_rate``). A person
    needs some seconds per puzzle; a script that would read the site's set out, one started
    attempt at a time, gets no further than this."""
    tournaments_per_account: int = 3
    """Upcoming and running tournaments one account may have created (429
    ``too_many_tournaments`` past it; ``tournaments/``), counted under a lock."""
    tournament_players: int = 1000
    """Players one tournament takes, in every format (409 ``tournament_full`` past it). A field
    past a few dozen is paired a piece of neighbours at a time, so its cost grows with the
    field, not its cube: a Swiss round or an arena wave of 1,000 about 0.15 s of one core
    (``boardplay bench --pairing``), computed outside the tournament's row lock. What a larger
    field costs besides is its first wave's 500 games made at once, and every page's
    standings of it."""
    tournament_rounds: int = 20
    """Most rounds of a Swiss or pods tournament."""
    tournament_minutes: int = 1440
    """Longest arena, in minutes."""
    tournament_lead_days: float = 30.0
    """How far ahead a tournament may be announced, in days."""

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """Defaults overridden by ``BOARDPLAY_WEB_<NAME>`` variables; a bad value is a
        ``ValueError`` naming the variable."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for spec in fields(cls):
            name = f"BOARDPLAY_WEB_{spec.name.upper()}"
            raw = env.get(name)
            if raw is None or not raw.strip():
                continue
            kind: Callable[[str], Any] = float if spec.type == "float" else int
            values[spec.name] = _positive(name, raw, kind)
        return cls(**values)


@dataclass(frozen=True)
class Settings:
    """Everything ``create_app`` needs. ``ai_workers = 0`` runs AI moves in a thread instead of a
    process pool (used where processes cannot be spawned); the event loop is free either way."""

    database_url: str = field(default_factory=default_database_url)
    catalogue: str = field(default_factory=lambda: os.environ.get(CATALOGUE_ENV, DEFAULT_CATALOGUE))
    ai_workers: int = field(
        default_factory=lambda: int(os.environ.get(AI_WORKERS_ENV, str(DEFAULT_AI_WORKERS)))
    )
    limits: Limits = field(default_factory=Limits.from_env)
    data_dir: str | None = field(default_factory=lambda: os.environ.get(DATA_DIR_ENV) or None)
    redis_url: str | None = field(default_factory=lambda: os.environ.get(REDIS_ENV) or None)
    room_cache: int = field(default_factory=lambda: _number("BOARDPLAY_WEB_ROOM_CACHE", 2000, int))
    """Games a process keeps in memory (least recently used ones without sockets are dropped)."""
    ai_lease: float = field(default_factory=lambda: _number("BOARDPLAY_WEB_AI_LEASE", 10.0, float))
    """Seconds an AI job stays with a process that stopped renewing it (it died) before another
    process takes it over."""
    sweep_interval: float = field(
        default_factory=lambda: _number("BOARDPLAY_WEB_SWEEP_INTERVAL", 1.0, float)
    )
    """Seconds between a process's looks for AI jobs nobody holds."""
    origin: str | None = field(default_factory=lambda: os.environ.get(ORIGIN_ENV) or None)
    """Where players reach the site (``https://play.example.org``): what passkeys are bound to.
    Unset, each request's own origin (a local server: ``http://localhost:8000``)."""
    sync_interval: float = field(
        default_factory=lambda: _number("BOARDPLAY_WEB_SYNC_INTERVAL", 2.0, float)
    )
    """Seconds between a process's checks of its watched games against the database (catching
    up on broker messages it missed)."""
    smtp_url: str | None = field(default_factory=lambda: os.environ.get(SMTP_ENV) or None)
    """The SMTP server e-mail notifications go through (``smtp.py``); None: e-mail is off."""
    mail_from: str | None = field(default_factory=lambda: os.environ.get(MAIL_FROM_ENV) or None)
    """The sender of those mails; required with ``smtp_url``."""
    metrics_token: str | None = field(
        default_factory=lambda: os.environ.get(METRICS_TOKEN_ENV, "").strip() or None
    )
    """What ``GET /metrics`` asks for as ``Authorization: Bearer``; None: not served (404)."""
    log_format: str = field(
        default_factory=lambda: os.environ.get(LOG_FORMAT_ENV, "").strip() or "text"
    )
    """``text`` or ``json`` (``logs.py``): the access lines with request ids are JSON's."""

    def __post_init__(self) -> None:
        """Refuse half an e-mail setup at start, naming what is missing. The origin is required
        with SMTP rather than guessed: every mail links to the site, and a guess such as
        ``http://localhost:8000`` would send players links that lead nowhere. A metrics token
        too short to be secret and an unknown log format are refused too."""
        check_log_format(self.log_format, LOG_FORMAT_ENV)
        token = self.metrics_token
        if token is not None and (len(token) < METRICS_TOKEN_MIN or not token.isprintable()):
            raise ValueError(
                f"{METRICS_TOKEN_ENV} must be at least {METRICS_TOKEN_MIN} printable characters "
                "(e.g. the output of `openssl rand -hex 32`)"
            )
        if self.smtp_url is None:
            return
        from boardplay.web.smtp import parse_smtp_url  # stdlib only; keeps config light

        parse_smtp_url(self.smtp_url, SMTP_ENV)
        sender = (self.mail_from or "").strip()
        if not sender:
            raise ValueError(f"{SMTP_ENV} is set: set {MAIL_FROM_ENV} too (the sender address)")
        address = parseaddr(sender)[1]
        if address.count("@") != 1 or any(ord(c) < 32 for c in sender) or " " in address:
            raise ValueError(
                f"{MAIL_FROM_ENV} must be one e-mail address (boardplay@play.example.org or "
                f"'boardplay <boardplay@play.example.org>'), got {sender!r}"
            )
        if not self.origin:
            raise ValueError(
                f"{SMTP_ENV} is set: set {ORIGIN_ENV} too (where players reach the site, e.g. "
                "https://play.example.org), since every mail links to it"
            )


def _number(name: str, default: float, kind: Callable[[str], Any]) -> Any:
    """A positive number from the environment variable ``name``, else ``default``."""
    raw = os.environ.get(name, "").strip()
    return _positive(name, raw, kind) if raw else default


def _positive(name: str, raw: str, kind: Callable[[str], Any]) -> Any:
    """``raw``, the value of the environment variable ``name``, as a positive number of
    ``kind``; else a ``ValueError`` naming the variable."""
    try:
        value = kind(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive number, got {raw!r}")
    return value
