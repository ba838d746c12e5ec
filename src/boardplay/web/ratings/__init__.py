"""Ratings: the Glicko-2 maths (pure), what a rated game is and what its end means for each seat,
settlement exactly once, the daily cap between two players, and the profile and leaderboard
routes."""
