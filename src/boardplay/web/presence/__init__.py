"""Who is at a game's table: the seats with a page open on any process, the spectators, and
the players' visits by HTTP (what an abandonment claim counts)."""
