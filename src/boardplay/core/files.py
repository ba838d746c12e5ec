"""Reading a file a person named, safely: only a regular file, and never more than a limit.

The CLI and the Python API accept paths (a Montana data file, a game record). Reading one must
not hang on a FIFO or a terminal, nor fill memory from ``/dev/zero`` or a huge file: the file is
opened without blocking, checked to be a regular file, and read up to ``limit`` bytes."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class FileRefused(OSError):
    """A named file that cannot be read: missing, not a regular file, too large or not UTF-8.
    The message is a sentence for people (callers wrap it in their own error class)."""


def read_text_limited(path: str | Path, limit: int, what: str = "file") -> str:
    """The UTF-8 text of the regular file ``path``, at most ``limit`` bytes long."""
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise FileRefused(f"cannot read {path}: {exc.strerror}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileRefused(f"{what} {path} is not a regular file")
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"{what} {path} is larger than {limit} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise FileRefused(f"{what} {path} is not UTF-8 text") from None
