"""Tradewinds: batched NumPy trading board games behind PettingZoo.

    import envs
    envs.list_envs()                              # ['cairo', ...]
    game = envs.make_game("cairo", num_players=3) # the batched rules object
    env = envs.make_env("cairo", num_players=3)   # a PettingZoo AEC env (batch of one)
    vec = envs.make_vec("cairo", num_envs=64, num_players=3, seed=0)
"""

from __future__ import annotations

from typing import Any

from envs.core.errors import IllegalActionError
from envs.core.registry import game_class, list_envs, make_game, register

register("cairo", "envs.cairo:CairoGame")
register("batavia", "envs.batavia:BataviaGame")
register("discoveries", "envs.discoveries:DiscoveriesGame")
register("junk", "envs.junk:JunkGame")


def make_env(env_id: str, num_players: int | None = None, render_mode: str | None = None,
             render_seat: int | None = None, **options: Any):
    """A PettingZoo AEC environment of ``env_id`` (the batched game at batch size 1).

    ``render_mode``: None, "ansi" (``render()`` returns the text board), "human" (printed
    after every step) or "rgb_array" (a picture); ``render_seat``: whose view they show
    (None: everything).
    """
    from envs.core.aec import TradewindsAECEnv

    return TradewindsAECEnv(make_game(env_id, num_players, **options), render_mode=render_mode,
                            render_seat=render_seat)


def make_vec(env_id: str, num_envs: int, num_players: int | None = None, seed: int = 0,
             threads: int | None = None, **options: Any):
    """``num_envs`` games stepped at once, finished games reset automatically.

    ``threads``: how many threads a compiled game's batch kernels use (default
    ``$TRADEWINDS_THREADS``, else 1); not a rule option, the games are the same.
    """
    from envs.core.compiled import CompiledGame
    from envs.core.vec import VecGameEnv

    game = make_game(env_id, num_players, **options)
    if threads is not None and isinstance(game, CompiledGame):
        game.with_threads(threads)
    return VecGameEnv(game, num_envs=num_envs, seed=seed)


__all__ = [
    "IllegalActionError",
    "game_class",
    "list_envs",
    "make_env",
    "make_game",
    "make_vec",
    "register",
]
