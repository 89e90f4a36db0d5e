"""Deterministic replay of one game's events into table states."""

from .errors import ReplayError
from .melds import Meld
from .state import Replayer, TableState, state_at, states

__all__ = ["Meld", "ReplayError", "Replayer", "TableState", "state_at", "states"]
