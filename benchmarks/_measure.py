"""Timing loops shared by the benchmark commands."""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from envs.core.sampling import sample_actions


def timed(run: Callable[[], int], seconds: float, min_steps: int = 0) -> float:
    """Call ``run`` (which returns the env-steps it made) until ``seconds`` pass and at least
    ``min_steps`` env-steps are made; steps/s."""
    run()  # warm-up: imports, caches, first allocations
    steps, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds or steps < min_steps:
        steps += run()
    return steps / elapsed


def timed_beside(run: Callable[[], int], reference: Callable[[], int], seconds: float,
                 min_steps: int = 0, slice_seconds: float = 0.25) -> tuple[float, float]:
    """Steps/s of ``run`` and of ``reference``, timed in alternating slices of about
    ``slice_seconds`` each over the same span of time, until ``run`` has had ``seconds`` and
    ``min_steps`` env-steps: a machine whose speed drifts within the span slows both alike,
    which a reference measured before and after a long figure does not catch."""
    run()
    reference()  # warm-ups
    totals = {run: [0, 0.0], reference: [0, 0.0]}  # steps, seconds

    def time_slice(runner: Callable[[], int]) -> None:
        steps, start = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - start) < slice_seconds or not steps:
            steps += runner()
        totals[runner][0] += steps
        totals[runner][1] += elapsed

    while totals[run][1] < seconds or totals[run][0] < min_steps:
        time_slice(run)
        time_slice(reference)
    (steps, elapsed), (reference_steps, reference_elapsed) = totals[run], totals[reference]
    return steps / elapsed, reference_steps / reference_elapsed


def aec_episode_runner(env, seed: int = 0) -> Callable[[], int]:
    """One random episode of a PettingZoo AEC env per call (masked uniform actions)."""
    generator = np.random.default_rng(seed)
    episode = [seed]

    def run() -> int:
        env.reset(seed=episode[0])
        episode[0] += 1
        steps = 0
        for _agent in env.agent_iter():
            obs, _, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            mask = obs["action_mask"] if isinstance(obs, dict) else info.get("action_mask")
            legal = np.flatnonzero(mask)
            env.step(int(legal[int(generator.random() * len(legal))]))
            steps += 1
        return steps

    return run


def vec_runner(vec, seed: int = 0, chunk: int = 16) -> Callable[[], int]:
    """``chunk`` batched steps of an auto-resetting ``VecGameEnv`` per call.

    Each step includes the acting seat's observation and legal mask of every row.
    """
    generator = np.random.default_rng(seed)
    _, info = vec.reset(seed=seed)
    holder = [info]

    def run() -> int:
        for _ in range(chunk):
            _, _, _, _, holder[0] = vec.step(sample_actions(holder[0]["action_mask"], generator))
        return chunk * vec.num_envs

    return run
