"""Finding an opponent: seeks, quick games, challenges and the live lobby socket."""
