"""Age of Discoveries' rules as per-row functions compiled with numba (see
``envs/discoveries/game.py``)."""
