"""Relations between players (lila's ``relation`` module): who follows whom, with where the
followed players are now, and who blocks whom, which the admission rule and the chat ask."""

from __future__ import annotations

from boardplay.web.relations.service import Followed, Relations, Whereabouts

__all__ = ["Followed", "Relations", "Whereabouts"]
