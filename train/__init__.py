"""Self-play PPO training on the registered games: ``python -m train.selfplay --env cairo``.

Modules: ``config`` (the config dataclass that is also the CLI), ``vec_env`` (the batched
self-play SB3 VecEnv: learner seat, opponents stepped inside), ``pool`` (the opponent pool: the
learner, its snapshots, scripted baselines, random), ``ray_env`` (that VecEnv's games split
over Ray actors, ``--ray``), ``callbacks`` (win-rate logs, snapshots, checkpoints),
``checkpoint`` (atomic writes), ``evaluate`` (batched win rates and Elo), ``analysis`` (reading
runs back for the notebooks), ``selfplay`` (the script).
"""
