"""A game in play: rooms (the server's copy of a game and the one way its state changes), moves and
their words, views, clocks and flags, offers (resign, draw, rematch), seating, endings, making a
game within the ceilings, the game's storage and AI seats, and the game socket."""
