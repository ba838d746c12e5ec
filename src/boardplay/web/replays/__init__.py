"""Records and replays: a game's record, replays built in a worker process within the heavy-read
budget, and record uploads."""
