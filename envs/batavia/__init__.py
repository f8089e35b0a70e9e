"""Batavia: ship-card auctions, company majorities and pirates, for 3-5 players."""

from envs.batavia.game import VERSION, BataviaGame
from envs.batavia.state import action_name

__all__ = ["VERSION", "BataviaGame", "action_name"]
