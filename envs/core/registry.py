"""The registry of games: env id -> the rules class, imported on first use."""

from __future__ import annotations

import importlib
from typing import Any

from envs.core.game import Game

# Entry points as "module:Class" strings, so `import envs` stays cheap.
_REGISTRY: dict[str, str | type[Game]] = {}


def register(env_id: str, entry_point: str | type[Game]) -> None:
    """Add a game under ``env_id`` (a ``"module:Class"`` string or the class itself)."""
    if env_id in _REGISTRY:
        raise ValueError(f"env id {env_id!r} is already registered")
    _REGISTRY[env_id] = entry_point


def unregister(env_id: str) -> None:
    _REGISTRY.pop(env_id, None)


def list_envs() -> list[str]:
    """The registered env ids, sorted."""
    return sorted(_REGISTRY)


def game_class(env_id: str) -> type[Game]:
    """The rules class of ``env_id``; a ValueError names the valid ids."""
    if not isinstance(env_id, str) or env_id not in _REGISTRY:
        raise ValueError(f"unknown env id {env_id!r}; valid: {', '.join(list_envs())}")
    entry = _REGISTRY[env_id]
    if isinstance(entry, str):
        module, _, name = entry.partition(":")
        entry = getattr(importlib.import_module(module), name)
        _REGISTRY[env_id] = entry
    return entry


def make_game(env_id: str, num_players: int | None = None, **options: Any) -> Game:
    """The batched rules object of ``env_id`` for ``num_players`` seats and options."""
    return game_class(env_id)(num_players, **options)
