"""Kairo's rules as per-row functions compiled with numba (see ``envs/cairo/game.py``)."""
