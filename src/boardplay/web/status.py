"""A game's status, as every domain reads it off a game: the table stores it (``games.status``)
and changes it; the ratings, the chat, the replays and the lobby only ask whether a game is
still being played. Declared here, in the shared infrastructure, as lila declares a game's
status in ``lila.core``: a domain that reads a game's status needs the words, not the table's
package (which may itself depend on it: the table sends its end to the ratings)."""

from __future__ import annotations

ACTIVE = "active"
"""A game still being played..."""
FINISHED = "finished"
"""...and one that has ended."""
