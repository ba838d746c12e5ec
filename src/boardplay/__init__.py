"""boardplay: exact engines for Potlatch Klone, Proteus, Passtally and Montana.

>>> import boardplay
>>> game = boardplay.load("potlatch(actions=3,layout=L4)")
>>> state = game.new_initial_state()
>>> state.legal_moves()[:3]
['P-E', 'P-NE', 'P-NW']
"""

from boardplay import core
from boardplay.core import *  # noqa: F403 (the contract: every name of core.__all__)
from boardplay.core.records import Record

__version__ = "0.1.0"

__all__ = ["Record"]
__all__ += core.__all__
