"""httpx's one-call functions (``get``, ``post``, ...) for the tests and tools, with one TLS
context for all of them.

Each of httpx's own builds a client, and each client reads the whole certificate bundle into a
new TLS context: about 20 ms of CPU a call, even to a plain-HTTP server on loopback. The test
suite's thousands of such calls (polls of a server until it answers, one request per move) made
that a quarter of the test processes' CPU. These take the same arguments and give the same
answers; each call still opens its own connection, so a call after a server's restart never
meets a connection the old server closed."""

from __future__ import annotations

import functools
import ssl

import certifi
import httpx

TLS = ssl.create_default_context(cafile=certifi.where())
"""Verifies as httpx's default does (certifi's bundle); made once per process."""

get = functools.partial(httpx.get, verify=TLS)
post = functools.partial(httpx.post, verify=TLS)
delete = functools.partial(httpx.delete, verify=TLS)
