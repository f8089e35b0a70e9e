"""Dschunke's rules, compiled per row (see ``envs/junk/game.py``)."""
