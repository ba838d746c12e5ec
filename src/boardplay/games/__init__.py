"""The games, one package each. A package's ``__init__`` only declares its game
(``GAME = "boardplay.games.<name>.game:XGame"``, optional ``ALIASES``), which is how
``core.registry`` finds it without importing its rules."""
