"""Self-play MaskablePPO on a Tradewinds game: ``python -m train.selfplay --env cairo``.

Reads top to bottom like CleanRL's ``ppo.py``: config, run directory, seeding, opponent pool
and batched self-play env, agent, training loop (SB3's, with a callback for the self-play
bookkeeping), final checkpoint, evaluation.

A run directory ``{out}/{env}_v{VERSION}__{exp_name}__{seed}__{unix time}/`` holds::

    config.json             the resolved config (also printed at the start)
    checkpoints/latest.zip  written every --checkpoint-every updates and at the end
    checkpoints/final.zip   the trained agent (an SB3 zip with tradewinds.json metadata);
                            a resumed run writes final_<timesteps>.zip (and eval_<timesteps>.*)
    pool/snapshot_*.pt      the learner's past snapshots, opponents in the pool
    tb/                     TensorBoard logs (rollout/*, train/*, selfplay/win_rate*)
    metrics.jsonl           one JSON line per update (train.analysis reads it)
    eval.json, eval.md      the final evaluation: the learning curve's first half against
                            its second (train.analysis.curve_halves), win rates against
                            the baselines, Elo
    learning_curve.png      win rates over training and each evaluation's probes against
                            the baselines (train.analysis.learning_curve_figure); eval.md
                            names it

``{out}/latest`` links to the newest run. ``--resume runs/.../checkpoints/latest.zip``
continues that run in its directory: the
timesteps already done count towards --timesteps, the pool snapshots are reloaded, and the
settings not given again come from the checkpoint.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.callbacks import CallbackList
from stable_baselines3.common.logger import configure
from stable_baselines3.common.utils import set_random_seed

import envs
from agents.hints import ActionHints
from agents.policy import load_policy_agent
from agents.random_agent import RandomAgent
from envs.core.registry import game_class
from train import analysis, imitation
from train.callbacks import SelfPlayCallback, ValueWarmup
from train.checkpoint import atomic_write_text, find_run_dir, git_revision, save_checkpoint
from train.config import Config, reproduce_command, resolve
from train.evaluate import elo_table, markdown_table, win_rates
from train.pool import OpponentPool, make_scripted_agent, scripted_agent_names
from train.vec_env import SelfPlayVecEnv


def main(argv: Sequence[str] | None = None) -> Path:
    """Run self-play training; returns the run directory."""
    # ------------------------------------------------------------------ 1. config
    try:
        cfg, resumed = resolve(argv)
    except ValueError as err:
        raise SystemExit(f"train.selfplay: error: {err}") from err
    game = envs.make_game(cfg.env, cfg.players, **cfg.options())
    version = game_class(cfg.env).VERSION

    # ------------------------------------------------------------------ 2. run directory
    run_dir = find_run_dir(cfg.resume) if cfg.resume else None
    if run_dir is None:
        run_name = f"{cfg.env}_v{version}__{cfg.exp_name}__{cfg.seed}__{int(time.time())}"
        run_dir = Path(cfg.out) / run_name
    run_dir.mkdir(parents=True, exist_ok=True)
    config_text = json.dumps(dataclasses.asdict(cfg), indent=2)
    atomic_write_text(run_dir / "config.json", config_text + "\n")
    changed = {k: v for k, v in dataclasses.asdict(cfg).items()
               if v != getattr(Config(), k) and k not in ("env", "players")}
    print(f"{cfg.env}, {cfg.players} players, {cfg.timesteps:,} timesteps; options not at "
          f"their defaults: {json.dumps(changed) if changed else 'none'}\nrun directory: "
          f"{run_dir} (full config in config.json)", flush=True)
    link_latest(run_dir)

    # ------------------------------------------------------------------ 3. device, seeding
    device = cfg.torch_device()
    torch.set_num_threads(cfg.torch_threads)
    print(f"device: {device} (--device {cfg.device}), torch threads: "
          f"{torch.get_num_threads()}", flush=True)
    set_random_seed(cfg.seed)

    # ------------------------------------------------------------------ 4. opponents and env
    hints = ActionHints(cfg.hints)
    pool = OpponentPool(cfg.opponent_weights(), max_snapshots=cfg.max_snapshots,
                        opponent_deterministic=cfg.opponent_deterministic, seed=cfg.seed,
                        hints=hints)
    pool.add_baselines(cfg.env, cfg.players)
    if resumed is not None:
        pool.load_snapshots(run_dir / "pool")
    env_options = {"seed": cfg.seed, "shaping": cfg.shaping, "gamma": cfg.gamma,
                   "score_scale": cfg.score_scale}
    if cfg.ray:
        from train.ray_env import RaySelfPlayVecEnv

        env = RaySelfPlayVecEnv(game, cfg.num_envs, pool, num_workers=cfg.ray_workers,
                                address=cfg.ray_address, torch_threads=cfg.torch_threads,
                                **env_options)
    else:
        env = SelfPlayVecEnv(game, cfg.num_envs, pool, **env_options)

    # ------------------------------------------------------------------ 5. agent
    lr = cfg.learning_rate
    hidden = cfg.hidden_sizes()
    model = MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=(lambda remaining: remaining * lr) if cfg.anneal_lr else lr,
        n_steps=cfg.n_steps,
        batch_size=cfg.batch_size,
        n_epochs=cfg.n_epochs,
        gamma=cfg.gamma,
        gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range,
        ent_coef=cfg.ent_coef,
        vf_coef=cfg.vf_coef,
        max_grad_norm=cfg.max_grad_norm,
        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}},
        seed=cfg.seed,
        device=device,
        verbose=0,
    )
    model.set_logger(configure(str(run_dir / "tb"), ["tensorboard"]))
    pool.set_learner(model.policy)
    updates = 0
    if resumed is not None:
        model.set_parameters(cfg.resume, device=device)
        model.num_timesteps = int(resumed["timesteps"])
        model._n_updates = int(resumed.get("n_updates", 0))
        updates = int(resumed.get("updates", 0))
        env.restore_episodes(resumed.get("env_episodes", []))
        print(f"resumed from {cfg.resume} at {model.num_timesteps} timesteps, "
              f"{len(pool.describe()['snapshot'])} snapshots in the pool", flush=True)
    elif cfg.imitate:
        teacher = make_scripted_agent(cfg.imitate, cfg.env, cfg.players, seed=cfg.seed + 5)
        demos = imitation.collect(game, teacher, cfg.imitate_decisions,
                                  seed=cfg.seed + 7 * 10**6,
                                  progress=cfg.progress, hints=hints)
        fitted = imitation.fit(model.policy, demos, epochs=cfg.imitate_epochs,
                               batch_size=cfg.batch_size, seed=cfg.seed,
                               progress=cfg.progress)
        del demos
        print(f"warm start: imitated {cfg.imitate} on {cfg.imitate_decisions} decisions, "
              f"loss {fitted['loss']:.3f}, top-1 agreement {fitted['accuracy']:.1%}",
              flush=True)

    # Stored in every checkpoint: the tables of benchmarks.tournament quote it from there,
    # as benchmarks stand below train and import nothing of it.
    command = reproduce_command(dataclasses.asdict(cfg))

    def metadata() -> dict:
        return {
            "env_id": cfg.env, "num_players": cfg.players, "version": version,
            "options": game.options, "timesteps": int(model.num_timesteps),
            "n_updates": int(model._n_updates), "updates": callback.updates,
            "env_episodes": env.episodes.tolist(), "config": dataclasses.asdict(cfg),
            "command": command,
            "deterministic": cfg.eval_deterministic,
            "git_rev": git_revision(), "saved_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }

    # ------------------------------------------------------------------ 6. train
    callback = SelfPlayCallback(
        pool, run_dir, total_timesteps=cfg.timesteps, metadata=metadata, updates=updates,
        snapshot_every=cfg.snapshot_every, checkpoint_every=cfg.checkpoint_every,
        progress=cfg.progress,
    )
    remaining = cfg.timesteps - model.num_timesteps
    t0 = time.time()
    if remaining > 0:
        warmup = ValueWarmup(cfg.value_warmup, done=updates)
        model.learn(total_timesteps=remaining, callback=CallbackList([warmup, callback]),
                    reset_num_timesteps=False, log_interval=1)
    train_s = time.time() - t0
    steps_done = max(model.num_timesteps - int(resumed["timesteps"] if resumed else 0), 0)
    print(f"trained {steps_done} steps in {train_s:.1f}s "
          f"({steps_done / max(train_s, 1e-9):.0f} steps/s); {callback.games_total} games",
          flush=True)
    save_checkpoint(model, run_dir / "checkpoints" / "latest.zip", metadata())
    # A resumed run keeps the first run's final agent and evaluation: its own are named
    # after the timesteps they reach.
    suffix = "" if resumed is None else f"_{model.num_timesteps}"
    final = save_checkpoint(model, run_dir / "checkpoints" / f"final{suffix}.zip", metadata())
    env.close()

    # ------------------------------------------------------------------ 7. evaluate
    agent = load_policy_agent(final, cfg.env, cfg.players, seed=cfg.seed + 3, name="trained",
                              device=device)
    opponents = {"random": RandomAgent(seed=cfg.seed + 9)}
    for name in scripted_agent_names(cfg.env):
        opponents[name] = make_scripted_agent(name, cfg.env, cfg.players, seed=cfg.seed + 9)
    t0 = time.time()
    rows = []
    if cfg.eval_games > 0:
        rows = win_rates(game, agent, opponents, cfg.eval_games, seed=10**6 + cfg.seed,
                         progress=cfg.progress)
    elo = None
    if cfg.elo_games > 0:
        elo = elo_table(game, ["trained", *opponents], [agent, *opponents.values()],
                        cfg.elo_games, seed=2 * 10**6 + cfg.seed, progress=cfg.progress)
    met = "scripted" if scripted_agent_names(cfg.env) and cfg.opp_scripted > 0 else "random"
    halves = analysis.curve_halves(run_dir, met)
    evaluation = {"env_id": cfg.env, "num_players": cfg.players, "version": version,
                  "timesteps": int(model.num_timesteps), "checkpoint": str(final),
                  "win_rates": rows, "elo": elo, "curve_halves": halves,
                  "train_seconds": round(train_s, 1),
                  "eval_seconds": round(time.time() - t0, 1)}
    report = (f"## {cfg.env} v{version}, {cfg.players} players, "
              f"{model.num_timesteps} timesteps\n\n"
              + analysis.curve_halves_line(halves) + "\n\n"
              "Win rate = share of games the trained agent finishes first, its seat rotated.\n\n"
              + markdown_table(rows) + "\n")
    if elo is not None:
        report += ("\nElo (seat-balanced duplicate round robin, random = 1000, 95% interval)"
                   "\n\n" + markdown_table(elo) + "\n")
    atomic_write_text(run_dir / f"eval{suffix}.json", json.dumps(evaluation, indent=2) + "\n")
    # Drawn after the evaluation is on disk: it plots every evaluation of the run as a probe.
    curve_png = analysis.save_learning_curve(run_dir)
    report += (f"\nLearning curve (win rates over training, Elo differences to the baselines "
               f"at each evaluation): "
               f"{curve_png.name}\n\n![learning curve]({curve_png.name})\n")
    atomic_write_text(run_dir / f"eval{suffix}.md", report)
    print(report, flush=True)
    print(f"learning curve: {curve_png}\ntrained agent: {final}\n  play it:  "
          f"python -m agents.play --env {cfg.env} "
          f"--players {cfg.players} --opponents {final}\n  rate it:  python -m "
          f"benchmarks.tournament --env {cfg.env} --players {cfg.players} --agents "
          f"random,trained={final}", flush=True)
    return run_dir


def link_latest(run_dir: Path) -> None:
    """Point ``<out>/latest`` at ``run_dir`` (where the file system allows a link)."""
    latest = run_dir.parent / "latest"
    try:
        if latest.is_symlink() or latest.exists():
            latest.unlink()
        latest.symlink_to(run_dir.name, target_is_directory=True)
    except OSError:  # no links here (some Windows setups): the printed path still says it
        pass


if __name__ == "__main__":
    main(sys.argv[1:])
