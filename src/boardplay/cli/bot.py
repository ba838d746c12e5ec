"""``boardplay bot``: connect an agent to a boardplay server as a bot account (docs/bots.md).

The command is declared inside :func:`register` so that its help texts are translated in the
language the app is built in (see ``boardplay.cli.main``); the work is ``botclient.py``'s, which
needs ``httpx`` (the web extra): it is imported when the command runs, so that an install
without it still has every other command (``tests/cli/test_cli_without_web.py``)."""

from __future__ import annotations

import importlib.util
import logging
import os
import signal
import threading
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import typer

from boardplay.cli.common import fail
from boardplay.core.errors import BoardplayError
from boardplay.core.registry import load
from boardplay.i18n import _

if TYPE_CHECKING:
    import httpx  # the web extra's: imported when the command runs

TOKEN_ENV = "BOARDPLAY_TOKEN"
CLOCKS = ("any", "realtime", "correspondence", "none")


def register(app: typer.Typer) -> None:
    @app.command(
        "bot",
        help=_(
            "Play on a boardplay server as a bot account: accept the challenges that pass the "
            "filter, play every game with the agent, reconnect after a drop (docs/bots.md)."
        ),
    )
    def bot_command(
        server: str = typer.Option(
            "http://localhost:8000", "--server", help=_("The server's address.")
        ),
        token: str | None = typer.Option(
            None,
            "--token",
            help=_("A personal API token with bot:play (default: $BOARDPLAY_TOKEN)."),
        ),
        agent: str = typer.Option(
            "medium",
            "--agent",
            help=_(
                "The agent: a spec or level (mcts(time=1), hard, policy(potlatch-ppo)), or your "
                "own code as module:name or file.py:name: a policy (observation, action_mask) "
                "-> action, a Stable-Baselines3 model, or a function that makes one for each "
                "game (docs/bots.md)."
            ),
        ),
        games: list[str] = typer.Option(
            [], "--game", help=_("Accept challenges to this game only (repeatable).")
        ),
        rated: str = typer.Option("any", "--rated", help=_("Accept rated games: yes, no or any.")),
        clock: str = typer.Option(
            "any", "--clock", help=_("Accept this clock: any, realtime, correspondence or none.")
        ),
        max_games: int | None = typer.Option(
            None, "--max-games", min=1, help=_("Stop after this many games have ended.")
        ),
        log_file: Path | None = typer.Option(
            None, "--log", help=_("Also write the log to this file.")
        ),
        seed: int | None = typer.Option(None, "--seed", help=_("The agent's random seed.")),
        tournaments: list[str] = typer.Option(
            [],
            "--tournament",
            help=_("Enter this tournament (its id; repeatable) and play its pairings."),
        ),
    ) -> None:
        if importlib.util.find_spec("httpx") is None:
            raise fail(_("boardplay bot needs httpx: pip install 'boardplay[web]'"))
        import httpx

        from boardplay.cli.botclient import BotClient, Wanted, agent_factory

        secret = token or os.environ.get(TOKEN_ENV)
        if not secret:
            raise fail(_("give a token with --token or $BOARDPLAY_TOKEN"))
        if rated not in ("yes", "no", "any"):
            raise fail(_("--rated is yes, no or any"))
        if clock not in CLOCKS:
            raise fail(_("--clock is one of: {clocks}").format(clocks=", ".join(CLOCKS)))
        try:
            factory = agent_factory(agent)
            for name in games:  # the agent is tried on each game named: a refusal shows now
                factory(load(name), seed)
        except BoardplayError as exc:
            raise fail(str(exc)) from None
        _logging(log_file)
        wanted = Wanted(
            frozenset(g.strip().lower() for g in games),
            None if rated == "any" else rated == "yes",
            clock,
        )
        client = BotClient(server, secret, factory, wanted, max_games, seed)
        if threading.current_thread() is threading.main_thread():  # also while it waits
            signal.signal(signal.SIGINT, lambda *_args: client.stop.set())
            signal.signal(signal.SIGTERM, lambda *_args: client.stop.set())
        try:
            me = client.whoami()
        except httpx.HTTPStatusError as exc:
            why = exc.response.text
            raise fail(_("the server refused the token: {why}").format(why=why)) from None
        except httpx.HTTPError as exc:
            raise fail(_("cannot reach {server}: {why}").format(server=server, why=exc)) from None
        if me.get("title") != "BOT":
            raise fail(
                _("{name} is not a bot account: upgrade it first on the account page").format(
                    name=me.get("username")
                )
            )
        for tournament in tournaments:
            _enter(client.client, tournament)
        logging.getLogger("boardplay.bot").info(
            "%s plays on %s with %s", me["username"], server, agent
        )
        client.run()


def _enter(client: httpx.Client, tournament: str) -> None:
    """Enter the tournament (lichess's ``/join``: again, it comes back from a pause or a
    withdrawal), or stop with the server's reason. Its pairings reach the bot as the event
    stream's ``gameStart``, as any game does."""
    import httpx

    try:
        answer = client.post(f"/api/tournaments/{quote(tournament, safe='')}/join")
    except httpx.HTTPError as exc:
        raise fail(
            _("cannot enter tournament {id}: {why}").format(id=tournament, why=exc)
        ) from None
    if answer.status_code != 200:
        raise fail(_("cannot enter tournament {id}: {why}").format(id=tournament, why=answer.text))
    logging.getLogger("boardplay.bot").info("entered tournament %s", tournament)


def _logging(path: Path | None) -> None:
    """The bot's log to stderr, and to ``path`` too if given."""
    logger = logging.getLogger("boardplay.bot")
    logger.setLevel(logging.INFO)
    form = logging.Formatter("%(asctime)s %(levelname)s %(message)s")
    handlers: list[logging.Handler] = [logging.StreamHandler()]
    if path is not None:
        handlers.append(logging.FileHandler(path, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(form)
        logger.addHandler(handler)
