"""Agents that act on a batch of games: random, scripted baselines, trained policies.

    import agents
    agents.list_agents("cairo")          # ["random", <the scripted baselines>, "ismcts"]
    agent = agents.make_agent("random", "cairo", num_players=3, seed=0)
    agent = agents.make_agent("ismcts", "cairo", num_players=3, simulations=200)
    agent = agents.make_agent("ismcts:simulations=200:rollout_depth=10", "cairo", 3)
    agent = agents.make_agent("runs/cairo/best.zip", "cairo", num_players=3)
    actions = agent.act(game, state, player)          # (B,) int64

Where agents come from:

* ``"random"``: every game has it (``agents.random_agent.RandomAgent``).
* Scripted baselines: a game's module ``agents/<env_id>.py`` exposes
  ``BASELINES: dict[str, factory]``, ``factory(num_players, seed) -> Agent``. It is imported on
  first use, so ``import agents`` stays cheap and a game without baselines needs no module.
  ``register_baselines`` adds more at run time (tests register toy baselines this way).
* ``"ismcts"``: information-set MCTS over ``resample_hidden`` determinisations, for every game
  (``agents.ismcts``); options as keywords of ``make_agent`` or as ``ismcts:name=value:...``,
  over the game's own defaults (``ISMCTS`` in ``agents/<env_id>.py``).
  It is a search agent, not a scripted baseline: the training pool and a tournament's default
  agent list leave it out (``list_baselines``).
* ``"openspiel_ismcts"``: OpenSpiel's own IS-MCTS bot on the game loaded through
  ``envs.openspiel`` (``agents.openspiel_ismcts``; needs open-spiel, the ``bench`` extra),
  options as ``ismcts``'s. A guest: made by name (``--guests openspiel_ismcts`` in a
  tournament), never listed by ``list_agents``, so loops over the built-in agents neither
  need OpenSpiel nor wait for its one-decision-at-a-time search.
* A checkpoint path: a trained policy, loaded by ``agents.policy.load_policy_agent``
  (written with the self-play trainer, imported only when a path is given).

Names are the labels of tournament tables, so they may not contain commas (the CLI's list
separator) and ``"random"`` is reserved.
"""

from __future__ import annotations

import importlib
import inspect
import os
from collections.abc import Callable, Mapping
from typing import Any

from agents.base import Agent
from agents.random_agent import RandomAgent
from envs.core.registry import game_class

AgentFactory = Callable[[int, int], Agent]
"""``factory(num_players, seed) -> Agent``."""

RANDOM = "random"
SEARCH = ("ismcts",)  # search agents of every game (agents.ismcts)
GUESTS = ("openspiel_ismcts",)  # made by name, never listed (agents.openspiel_ismcts)
CHECKPOINT_SUFFIXES = (".zip", ".pt", ".pth", ".ckpt")

# Baselines added at run time, per env id, in registration order.
_REGISTERED: dict[str, dict[str, AgentFactory]] = {}


def register_baselines(env_id: str, baselines: Mapping[str, AgentFactory]) -> None:
    """Add scripted baselines of ``env_id`` (``name -> factory(num_players, seed)``).

    Raises:
        ValueError: unknown env id, a reserved or malformed name, or a name already known.
    """
    known = _baselines(env_id)
    for name, factory in baselines.items():
        _check_name(name)
        if name in known or name == RANDOM or name in SEARCH or name in GUESTS:
            raise ValueError(f"agent {name!r} already exists for {env_id!r}")
        if not callable(factory):
            raise ValueError(f"baseline {name!r}: factory must be callable, got {factory!r}")
    _REGISTERED.setdefault(env_id, {}).update(baselines)


def unregister_baselines(env_id: str, names: list[str] | None = None) -> None:
    """Remove baselines added by ``register_baselines`` (all of ``env_id``'s when no names)."""
    table = _REGISTERED.get(env_id, {})
    for name in list(table) if names is None else names:
        table.pop(name, None)


def list_agents(env_id: str) -> list[str]:
    """Names of the built-in agents of ``env_id``: ``"random"`` first, then its scripted
    baselines, then the search agents.

    Raises:
        ValueError: unknown env id (the registry's message, naming the valid ids).
    """
    return [RANDOM, *_baselines(env_id), *SEARCH]


def list_baselines(env_id: str) -> list[str]:
    """The scripted baselines of ``env_id`` alone (the training pool's scripted opponents,
    the action hints, a tournament's default field besides random)."""
    return list(_baselines(env_id))


def make_agent(name_or_path: str, env_id: str, num_players: int, seed: int = 0,
               **options: Any) -> Agent:
    """One agent for ``env_id`` with ``num_players`` seats.

    Args:
        name_or_path: a name from ``list_agents(env_id)``, a guest (``GUESTS``), or the
            path of a trained-policy checkpoint (anything with a path separator or a
            checkpoint suffix, or an existing file).
        env_id: the game.
        num_players: seats of the games it will play (a policy is trained for one count).
        seed: seeds the agent's own randomness (random choices, tie-breaks, sampling).
        options: a search agent's options (``simulations=200``); also written into the name
            (``"ismcts:simulations=200"``, ``"openspiel_ismcts:simulations=20"``).

    Raises:
        ValueError: unknown env id, unsupported player count, unknown name, or a checkpoint
            that is missing or was trained for another game or player count.
        ImportError: a checkpoint was given but the policy agent module is not available,
            or the guest ``openspiel_ismcts`` without OpenSpiel installed.
    """
    cls = game_class(env_id)
    if num_players not in cls.PLAYER_COUNTS:
        raise ValueError(
            f"{env_id}: unsupported num_players={num_players}; "
            f"valid: {', '.join(map(str, cls.PLAYER_COUNTS))}"
        )
    if not isinstance(name_or_path, str):
        raise ValueError(f"agent name must be a string, got {name_or_path!r}")
    base, _, written = name_or_path.partition(":")
    if base in SEARCH and not looks_like_checkpoint(base):
        from agents.ismcts import ISMCTSAgent, parse_options

        agent = ISMCTSAgent(num_players, seed=seed, env_id=env_id,
                            **{**_search_defaults(env_id), **parse_options(written), **options})
        agent.name = name_or_path
        return agent
    if base in GUESTS and not looks_like_checkpoint(base):
        from agents.ismcts import parse_options
        from agents.openspiel_ismcts import OPTIONS, OpenSpielISMCTSAgent

        agent = OpenSpielISMCTSAgent(num_players, seed=seed, env_id=env_id,
                                     **{**parse_options(written, OPTIONS, base), **options})
        agent.name = name_or_path
        return agent
    if options:
        raise ValueError(f"agent {name_or_path!r} takes no options, got {sorted(options)}")
    if name_or_path == RANDOM:
        return RandomAgent(seed)
    baselines = _baselines(env_id)
    if name_or_path in baselines:
        return baselines[name_or_path](num_players, seed)
    if looks_like_checkpoint(name_or_path):
        return _load_checkpoint(name_or_path, env_id, num_players, seed)
    raise ValueError(
        f"unknown agent {name_or_path!r} for {env_id!r}; valid: "
        f"{', '.join(list_agents(env_id))}, the guest {', '.join(GUESTS)}, or the path of a "
        "trained-policy checkpoint"
    )


def looks_like_checkpoint(name: str) -> bool:
    """True when ``name`` reads as a file path rather than an agent name."""
    return (
        os.sep in name
        or "/" in name
        or name.endswith(CHECKPOINT_SUFFIXES)
        or os.path.isfile(name)
    )


def _baselines(env_id: str) -> dict[str, AgentFactory]:
    """The scripted baselines of ``env_id``: its module's, then the registered ones."""
    game_class(env_id)  # unknown env ids fail here with the registry's message
    table: dict[str, AgentFactory] = {}
    module_name = f"{__name__}.{env_id}"
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:  # the module exists but one of its imports failed
            raise
    else:
        table.update(getattr(module, "BASELINES", {}))  # a game module is one that has them
    table.update(_REGISTERED.get(env_id, {}))
    return table


def _search_defaults(env_id: str) -> dict[str, Any]:
    """A game's own defaults of the search agent (``ISMCTS`` of ``agents/<env_id>.py``, e.g.
    the scripted baseline that guides it)."""
    try:
        module = importlib.import_module(f"{__name__}.{env_id}")
    except ModuleNotFoundError:
        return {}
    return dict(getattr(module, "ISMCTS", {}))


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name or "," in name or looks_like_checkpoint(name):
        raise ValueError(
            f"bad agent name {name!r}: a non-empty string without commas that does not "
            "read as a file path"
        )


def _load_checkpoint(path: str, env_id: str, num_players: int, seed: int) -> Agent:
    if not os.path.isfile(path):
        raise ValueError(
            f"no checkpoint file at {path!r}; built-in agents of {env_id!r}: "
            f"{', '.join(list_agents(env_id))}"
        )
    try:
        policy = importlib.import_module(f"{__name__}.policy")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.policy":
            raise
        raise ImportError(
            f"{path!r} is a checkpoint, but loading trained policies needs the module "
            "agents.policy (the self-play trainer's policy agent), which is not available "
            "in this installation"
        ) from error
    loader = policy.load_policy_agent
    if "seed" in inspect.signature(loader).parameters:
        agent = loader(path, env_id, num_players, seed=seed)
    else:
        agent = loader(path, env_id, num_players)
    # The loader checks the checkpoint's game and player count; repeat it when the agent
    # tells them, so a mismatch never reaches a game.
    for field, wanted in (("env_id", env_id), ("num_players", num_players)):
        have = getattr(agent, field, wanted)
        if have != wanted:
            raise ValueError(f"checkpoint {path!r} is for {field}={have!r}, not {wanted!r}")
    return agent


__all__ = [
    "Agent",
    "AgentFactory",
    "list_agents",
    "list_baselines",
    "looks_like_checkpoint",
    "make_agent",
    "register_baselines",
    "unregister_baselines",
]
