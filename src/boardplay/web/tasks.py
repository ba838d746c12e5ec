"""A process's background tasks, stopped one way wherever a part of the server closes: every
task is cancelled first, then each is waited for whatever it ends with (a cancelled task raises
``CancelledError``, a failed one its error, logged where it ran), so that closing never leaves
a task running behind it, nor fails for a task that went wrong."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable
from typing import Any


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any] | None]) -> None:
    """Cancel ``tasks`` (None: no task there) and wait until every one has ended."""
    stopping = [task for task in tasks if task is not None]  # a copy: sets shrink as tasks end
    for task in stopping:
        task.cancel()
    for task in stopping:
        with contextlib.suppress(BaseException):
            await task
