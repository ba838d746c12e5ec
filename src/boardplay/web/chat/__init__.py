"""The table chat: the players' and the spectators' channels, their ceilings, reports, and the
relay of messages to every socket allowed to read them."""
