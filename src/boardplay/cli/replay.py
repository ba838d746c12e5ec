"""``boardplay replay FILE``: step through a saved game.

The record is verified first (every move replayed through the engine), so a corrupt record is
rejected with a message naming its first bad entry before anything is shown."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.panel import Panel
from rich.text import Text

from boardplay.cli.common import console, fail, friendly
from boardplay.core.game import State
from boardplay.core.records import Record
from boardplay.i18n import N_, _, ngettext

HELP = N_(
    "Enter (or n) next move, b back, j N jump to after move N, s start, e end, "
    "d detail, json position JSON, q quit."
)


def _show(record: Record, states: list[State], index: int, detail: bool = False) -> None:
    state = states[index]
    if index == 0:
        title = _("start")
    else:
        move = record.moves[index - 1]
        who = _("chance") if move.player < 0 else state.game.seat_name(move.player)
        title = _("after move {index}/{total}: {who} {move}").format(
            index=index, total=len(record.moves), who=who, move=move.notation
        )
    console.print(Panel(Text(state.render(detail)), title=title, expand=False))
    if state.is_terminal():
        over = _("Game over:")
        console.print(f"[bold green]{over}[/] {state.result_text()}")


def register(app: typer.Typer) -> None:
    @app.command("replay", help=_("Step through a recorded game (next / back / jump)."))
    @friendly
    def replay(
        file: Path = typer.Argument(..., help=_("A record saved by play, arena or the web app.")),
        move: int | None = typer.Option(
            None, "--move", "-m", help=_("Show the position after move N and exit (0 = start).")
        ),
    ) -> None:
        record = Record.load(file)
        states = list(record.states())
        last = len(states) - 1
        players = ", ".join(f"{p.name} ({p.spec or p.kind})" for p in record.players)
        players = players or _("players unknown")
        count = ngettext("{count} move", "{count} moves", last).format(count=last)
        console.print(f"[bold]{states[0].game}[/] — {players} — {count}")
        if move is not None:
            if not 0 <= move <= last:
                raise fail(_("--move must be between 0 and {last}").format(last=last))
            _show(record, states, move)
            return
        index = 0
        _show(record, states, index)
        console.print(_(HELP), style="dim")
        while True:
            try:
                command = console.input(_("replay>") + " ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return
            detail = False
            if command in ("", "n", "next"):
                index = min(index + 1, last)
            elif command in ("b", "back"):
                index = max(index - 1, 0)
            elif command in ("s", "start"):
                index = 0
            elif command in ("e", "end"):
                index = last
            elif command in ("d", "detail"):
                detail = True
            elif command == "json":
                console.print_json(data=states[index].to_json())
                continue
            elif command in ("q", "quit"):
                return
            elif command.startswith("j") and command.split()[-1].isdigit():
                index = min(int(command.split()[-1]), last)
            else:
                console.print(_(HELP))
                continue
            _show(record, states, index, detail)
