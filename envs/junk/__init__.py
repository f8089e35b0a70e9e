"""Dschunke (Junk): cargo strips on five junks, merchants and helpers, secret goods bids."""

from envs.junk.game import VERSION, JunkGame
from envs.junk.state import action_name

__all__ = ["VERSION", "JunkGame", "action_name"]
