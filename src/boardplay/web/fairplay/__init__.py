"""Fair-play evidence of rated games: each account's agreement with the expert and its loss of
win chance per rating pool, what moderators read of it, and the system's reports when the flag
fires (``service.py``). The route is ``GET /api/moderation/fairplay/{name}``."""

from __future__ import annotations

from boardplay.web.fairplay.service import STANDOUT, FairPlay, SystemReports

__all__ = ["STANDOUT", "FairPlay", "SystemReports"]
