"""The self-play config: one dataclass, a docstring per field, and the same thing as the CLI.

As CleanRL's ``Args`` (with tyro), every field of ``Config`` is an option of
``python -m train.selfplay``: ``--num-envs 64`` sets ``num_envs``, booleans take
``--flag``/``--no-flag``, and the field's docstring is its ``--help`` text. Unknown options
are rejected. With ``--resume CKPT`` the fields not given on the command line come from the
config stored in the checkpoint, so a resumed run continues with the same settings.

Defaults target the laptop run the README promises: ``cairo`` at 3 players finishing in about
15 minutes on 2 CPU cores (training, then evaluation). They are estimates until measured on
cairo; ``timesteps`` is the knob that sets the wall time (learner steps/s x timesteps).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import importlib.util
import inspect
import itertools
import json
import textwrap
import types
import typing
from collections.abc import Sequence
from typing import Any

DEVICES = ("auto", "cpu", "cuda")


@dataclasses.dataclass
class Config:
    """Self-play MaskablePPO on a Tradewinds game."""

    # ---------------------------------------------------------------- the game
    env: str | None = None
    """env id to train on (see envs.list_envs()); with --resume, taken from the checkpoint"""
    players: int | None = None
    """seats per game; by default the game's DEFAULT_PLAYERS"""
    preset: bool = True
    """apply the game's tuned defaults (train/presets.py) to the options not given"""
    game_options: str = "{}"
    """game options as a JSON object, e.g. '{"reveal_money": false}'"""

    # ---------------------------------------------------------------- the run
    exp_name: str = "selfplay"
    """experiment name, part of the run directory name"""
    seed: int = 0
    """seed of the games, the opponent draws and torch"""
    out: str = "runs"
    """directory that holds the run directories"""
    resume: str | None = None
    """checkpoint zip to continue from; the run continues in that checkpoint's run directory"""
    torch_threads: int = 1
    """torch CPU threads: the learner's updates take about half the time on 2 as on 1
    (cairo's, 256x256); the trained weights depend on the count, so a preset that sets it
    is reproduced only at that count"""
    device: str = "auto"
    """torch device of the learner's network: auto (cuda where torch sees a GPU, else cpu),
    cpu or cuda; the games and scripted opponents always run on the CPU"""
    progress: bool = True
    """show a tqdm progress bar with the learner's win rate and each update's steps/s
    (without it, each update prints a line of them)"""
    ray: bool = False
    """play the rollouts on Ray: the num_envs games split over --ray-workers actors, each
    stepping its games and their opponents (the same games as without --ray); a local Ray
    unless --ray-address"""
    ray_workers: int = 0
    """Ray actors the games are split over with --ray (0: one per CPU Ray offers, at most
    num_envs)"""
    ray_address: str | None = None
    """address of a Ray cluster to play the rollouts on (implies --ray)"""

    # ---------------------------------------------------------------- PPO
    timesteps: int = 400_000
    """total learner decisions to train on (a resumed run counts the ones already done)"""
    num_envs: int = 256
    """games played at once (the batch of the self-play VecEnv; larger batches amortise the
    per-call cost of the rules and the scripted opponents)"""
    n_steps: int = 16
    """learner steps per game per update: an update sees num_envs * n_steps decisions"""
    batch_size: int = 512
    """minibatch size of the PPO epochs"""
    n_epochs: int = 4
    """passes over each rollout"""
    learning_rate: float = 3e-4
    """Adam learning rate"""
    anneal_lr: bool = True
    """decay the learning rate linearly to 0 over the run"""
    gamma: float = 0.995
    """discount: the only reward is the rank at the end of the game"""
    gae_lambda: float = 0.95
    """GAE lambda"""
    clip_range: float = 0.2
    """PPO clip range"""
    ent_coef: float = 0.01
    """entropy bonus"""
    vf_coef: float = 0.5
    """value loss weight"""
    max_grad_norm: float = 0.5
    """gradient clipping norm"""
    net_arch: str = "128,128"
    """hidden layer sizes of the policy and value MLPs (comma separated; fixed on resume)"""
    shaping: float = 0.0
    """weight of a potential-based shaping reward on the learner's score margin over the best
    other seat (gamma * phi' - phi, leaves the optimal policy unchanged; 0: rank reward only)"""
    score_scale: float = 10.0
    """score points per unit of the shaping potential"""
    hints: str = ""
    """scripted agents whose value of every action the policy reads after the observation
    (comma separated, e.g. greedy,economist,medal_hunter; see agents/hints.py; fixed on
    resume); none by default"""

    # ---------------------------------------------------------------- warm start
    imitate: str | None = None
    """scripted agent (e.g. medal_hunter) whose play warm-starts the policy by behaviour
    cloning before self-play; none by default, skipped on --resume"""
    imitate_decisions: int = 200_000
    """teacher decisions recorded for the warm start"""
    imitate_epochs: int = 4
    """passes of the warm start's fit over the recorded decisions"""
    value_warmup: int = 0
    """first PPO updates that train the value function alone, the policy frozen, so that a
    critic fitted to the warm start's returns catches up with PPO's before its advantages
    move the policy (0: none)"""

    # ---------------------------------------------------------------- the opponent pool
    opp_self: float = 0.3
    """weight of the learner's live policy among opponents"""
    opp_snapshot: float = 0.3
    """weight of the learner's past snapshots"""
    opp_scripted: float = 0.25
    """weight of the game's scripted baselines (ignored while the game has none)"""
    opp_random: float = 0.15
    """weight of the uniform-random agent"""
    snapshot_every: int = 4
    """updates between two snapshots added to the pool (0: none)"""
    max_snapshots: int = 20
    """newest snapshots kept in the draw"""
    opponent_deterministic: bool = False
    """policy opponents play their argmax instead of sampling"""

    # ---------------------------------------------------------------- checkpoints and eval
    checkpoint_every: int = 8
    """updates between two checkpoints (one is always written at the end)"""
    eval_games: int = 150
    """games per baseline in the final evaluation (the learner's seat rotates; 0: skip it)"""
    eval_deterministic: bool = False
    """the trained agent plays its argmax instead of sampling, in the evaluation and wherever
    its checkpoint is loaded without saying (a briefly trained argmax can cycle)"""
    elo_games: int = 300
    """games of the final Elo round robin of all agents, in total (0: skip it)"""

    def resolved_players(self) -> int:
        """The player count to use: ``players``, or the game's ``DEFAULT_PLAYERS``."""
        from envs.core.registry import game_class

        if self.players is not None:
            return self.players
        return game_class(self.env).DEFAULT_PLAYERS

    def options(self) -> dict[str, Any]:
        """``game_options`` parsed."""
        try:
            options = json.loads(self.game_options)
        except json.JSONDecodeError as err:
            raise ValueError(f"--game-options must be a JSON object: {err}") from err
        if not isinstance(options, dict):
            raise ValueError(f"--game-options must be a JSON object, got {self.game_options!r}")
        return options

    def hidden_sizes(self) -> list[int]:
        """``net_arch`` parsed."""
        try:
            sizes = [int(part) for part in self.net_arch.split(",") if part.strip()]
        except ValueError as err:
            raise ValueError(f"--net-arch must be comma-separated ints: {err}") from err
        if not sizes or min(sizes) < 1:
            raise ValueError(f"--net-arch must be positive ints, got {self.net_arch!r}")
        return sizes

    def torch_device(self) -> str:
        """``device`` resolved: ``auto`` is ``cuda`` where torch sees a GPU, else ``cpu``.

        Raises:
            ValueError: ``device`` is none of auto, cpu, cuda; or it is cuda and torch sees
                no GPU.
        """
        import torch

        if self.device not in DEVICES:
            raise ValueError(f"--device must be one of {', '.join(DEVICES)}, "
                             f"got {self.device!r}")
        if self.device == "auto":
            return "cuda" if torch.cuda.is_available() else "cpu"
        if self.device == "cuda" and not torch.cuda.is_available():
            raise ValueError("--device cuda, but torch sees no CUDA GPU here "
                             "(torch.cuda.is_available() is False); use --device cpu or auto")
        return self.device

    def opponent_weights(self) -> dict[str, float]:
        return {"self": self.opp_self, "snapshot": self.opp_snapshot,
                "scripted": self.opp_scripted, "random": self.opp_random}


def field_docs(cls: type = Config) -> dict[str, str]:
    """Field name -> the docstring written under it in the class body."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
    body = tree.body[0].body
    docs = {}
    for node, after in itertools.pairwise(body):
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                and isinstance(after.value.value, str)):
            docs[node.target.id] = " ".join(after.value.value.split())
    return docs


def _scalar_type(hint: Any) -> type:
    """``int`` for ``int`` and ``int | None`` alike."""
    if isinstance(hint, types.UnionType) or typing.get_origin(hint) is typing.Union:
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return inner
    return hint


def build_parser() -> argparse.ArgumentParser:
    """The CLI: one option per field; defaults are suppressed so given options are known."""
    parser = argparse.ArgumentParser(
        prog="python -m train.selfplay",
        description="Train a MaskablePPO agent on a Tradewinds game by self-play.",
        argument_default=argparse.SUPPRESS,
    )
    docs = field_docs()
    hints = typing.get_type_hints(Config)
    for field in dataclasses.fields(Config):
        flag = "--" + field.name.replace("_", "-")
        kind = _scalar_type(hints[field.name])
        help_text = f"{docs.get(field.name, '')} (default: {field.default!r})"
        if kind is bool:
            parser.add_argument(flag, dest=field.name, action=argparse.BooleanOptionalAction,
                                help=help_text)
        else:
            metavar = field.name.upper() if kind is str else kind.__name__.upper()
            parser.add_argument(flag, dest=field.name, type=kind, metavar=metavar,
                                help=help_text)
    return parser


def parse_args(argv: Sequence[str] | None = None) -> tuple[Config, set[str]]:
    """Parse the command line (``sys.argv[1:]`` by default).

    Returns:
        the config with the given options applied to the defaults, and the names of the
        fields given on the command line (``--resume`` merges the others from the checkpoint).
    """
    given = vars(build_parser().parse_args(argv))
    return dataclasses.replace(Config(), **given), set(given)


def merge_resumed(stored: dict[str, Any], cli: Config, given: set[str]) -> Config:
    """The config of a resumed run: the checkpoint's, overridden by the options given now.

    Raises:
        ValueError: an option that cannot change mid-run (env, players, game options,
            network) differs from the checkpoint's.
    """
    known = {f.name for f in dataclasses.fields(Config)}
    base = Config(**{k: v for k, v in stored.items() if k in known})
    for name in ("env", "players", "game_options", "net_arch", "hints"):
        if name in given and getattr(cli, name) != getattr(base, name):
            raise ValueError(
                f"--{name.replace('_', '-')} {getattr(cli, name)!r} differs from the "
                f"checkpoint's {getattr(base, name)!r}; it cannot change when resuming"
            )
    return dataclasses.replace(base, **{k: getattr(cli, k) for k in given})


def resolve(argv: Sequence[str] | None = None) -> tuple[Config, dict[str, Any] | None]:
    """The run's config from the command line, checked, with the player count filled in.

    Returns:
        the config, and the metadata of the ``--resume`` checkpoint (None for a new run).

    Raises:
        ValueError: a missing or unknown env, a bad value, or a resume that does not fit
            its checkpoint; the message says what is valid.
    """
    from agents.hints import ActionHints
    from agents.policy import checkpoint_info
    from envs.core.registry import game_class, list_envs, make_game
    from train.pool import scripted_agent_names
    from train.presets import PRESETS

    cfg, given = parse_args(argv)
    resumed = None
    if cfg.resume:
        resumed = checkpoint_info(cfg.resume)
        cfg = merge_resumed(resumed.get("config", {}), cfg, given)
    if cfg.env is None:
        raise ValueError(f"--env is required; registered: {', '.join(list_envs())}")
    if resumed is None and cfg.preset:
        cfg = dataclasses.replace(cfg, **{k: v for k, v in PRESETS.get(cfg.env, {}).items()
                                          if k not in given})
    version = game_class(cfg.env).VERSION
    cfg = dataclasses.replace(cfg, players=cfg.resolved_players(),
                              ray=cfg.ray or cfg.ray_address is not None)
    make_game(cfg.env, cfg.players, **cfg.options())  # bad players or options fail here
    cfg.hidden_sizes()
    cfg.torch_device()
    for name in ("num_envs", "n_steps", "batch_size", "n_epochs"):
        if getattr(cfg, name) < 1:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 1, got {getattr(cfg, name)}")
    for name in ("snapshot_every", "checkpoint_every", "eval_games", "elo_games", "timesteps",
                 "imitate_decisions", "imitate_epochs", "ray_workers"):
        if getattr(cfg, name) < 0:
            raise ValueError(f"--{name.replace('_', '-')} must be >= 0, got {getattr(cfg, name)}")
    if min(cfg.opponent_weights().values()) < 0 or sum(cfg.opponent_weights().values()) <= 0:
        raise ValueError(f"opponent weights must be >= 0 with a positive sum, got "
                         f"{cfg.opponent_weights()}")
    if cfg.shaping < 0 or cfg.score_scale <= 0:
        raise ValueError(f"need --shaping >= 0 and --score-scale > 0, got {cfg.shaping}, "
                         f"{cfg.score_scale}")
    if cfg.ray_workers > cfg.num_envs:
        raise ValueError(f"--ray-workers {cfg.ray_workers} exceeds --num-envs {cfg.num_envs}: "
                         "each worker plays at least one game")
    if cfg.ray and importlib.util.find_spec("ray") is None:
        raise ValueError("--ray needs Ray: pip install 'tradewinds[ray]'")
    ActionHints(cfg.hints).check(make_game(cfg.env, cfg.players, **cfg.options()))
    if cfg.imitate is not None and cfg.imitate not in scripted_agent_names(cfg.env):
        raise ValueError(f"--imitate {cfg.imitate!r}: {cfg.env} has the scripted agents "
                         f"{scripted_agent_names(cfg.env)}")
    if resumed is not None and (resumed["env_id"], resumed["num_players"],
                                resumed["version"]) != (cfg.env, cfg.players, version):
        raise ValueError(f"{cfg.resume} is a {resumed['env_id']} v{resumed['version']} "
                         f"{resumed['num_players']}-player checkpoint, not "
                         f"{cfg.env} v{version} {cfg.players}-player")
    return cfg, resumed


# Options that change where a run writes or how fast it goes, not what it learns.
_NOT_LEARNING = ("out", "progress", "resume", "exp_name", "torch_threads", "device")


def reproduce_command(stored: dict[str, Any]) -> str:
    """The shortest ``python -m train.selfplay`` command whose run has the config ``stored``
    (a checkpoint's ``config``): ``--env`` and ``--seed``, then every option that differs
    from what those two give (the game's preset included)."""
    base = ["--env", str(stored["env"]), "--seed", str(stored["seed"])]
    if not stored.get("preset", True):
        base.append("--no-preset")
    plain = dataclasses.asdict(resolve(base)[0])
    flags = []
    for name, value in stored.items():
        if name in plain and name not in _NOT_LEARNING and value != plain[name]:
            flag = "--" + name.replace("_", "-")
            if isinstance(value, bool):
                flags.append(flag if value else "--no-" + flag[2:])
            else:
                flags += [flag, str(value)]
    return " ".join(["python -m train.selfplay", *base, *flags])
