"""Deterministic replay of one game's events into table states."""

from .errors import ReplayError
from .melds import Meld
from .state import Replayer, Table, TableState, state_at, states

__all__ = ["Meld", "ReplayError", "Replayer", "Table", "TableState", "state_at", "states"]
