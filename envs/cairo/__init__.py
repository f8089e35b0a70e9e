"""Kairo (Cairo): the flagship trading board game of Tradewinds."""

from envs.cairo.game import VERSION, CairoGame
from envs.cairo.state import action_name

__all__ = ["VERSION", "CairoGame", "action_name"]
