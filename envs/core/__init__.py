"""Game-agnostic machinery shared by every game: state, RNG, layouts, errors, adapters."""

from envs.core.errors import IllegalActionError
from envs.core.game import Game, rank_rewards
from envs.core.layout import ActionLayout, ObservationLayout, Piece
from envs.core.state import BatchState

__all__ = [
    "ActionLayout",
    "BatchState",
    "Game",
    "IllegalActionError",
    "ObservationLayout",
    "Piece",
    "rank_rewards",
]
