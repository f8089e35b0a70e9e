"""Age of Discoveries (``discoveries``): ships, expeditions and trade contracts."""

from envs.discoveries.game import VERSION, DiscoveriesGame
from envs.discoveries.state import action_name

__all__ = ["VERSION", "DiscoveriesGame", "action_name"]
