"""E-mail notifications: the players' addresses and their confirmation, "your turn" and "game over"
mails in an outbox sent by one process at a time."""
