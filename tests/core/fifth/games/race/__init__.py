"""Race to ten, the toy fifth game: two players take turns adding 1 to ``step`` to a shared
count, and whoever reaches ``target`` wins. It is a folder like the four games' and is found the
same way (``tests/core/fifthgame.py`` puts ``tests/core/fifth/games`` on
``boardplay.games.__path__``); this declaration is all the registry reads."""

GAME = "boardplay.games.race.game:RaceGame"
ALIASES = ("race-to-ten",)
