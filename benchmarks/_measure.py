"""Timing loops shared by the benchmark commands."""

from __future__ import annotations

import dataclasses
import resource
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


@dataclasses.dataclass
class Counts:
    """What a runner made over all its calls (warm-up included): env-steps, finished games
    and minor page faults; ``games_per_s`` and ``faults_per_step`` scale a timed rate."""

    steps: int = 0
    games: int = 0
    faults: int = 0

    def games_per_s(self, steps_per_s: float) -> float:
        return steps_per_s * self.games / max(self.steps, 1)

    def faults_per_step(self, batch: int) -> float:
        """Page faults per step of the whole batch."""
        return self.faults * batch / max(self.steps, 1)


def random_legal(obs, info: dict, generator: np.random.Generator) -> int:
    """A uniform legal action of an AEC env's ``last()``: its mask in the observation (a
    dict) or in ``info``."""
    mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
    legal = np.flatnonzero(mask)
    return int(legal[int(generator.random() * len(legal))])


def aec_own_time(env, seconds: float, seed: int = 0) -> float:
    """µs per decision of an AEC env's own work, ``last`` and ``step``: the action sampler
    and ``reset`` left out (the issues' targets compare the envs' own times). Random episodes
    of masked uniform actions for at least ``seconds``."""
    generator = np.random.default_rng(seed)
    own, decisions, episode = 0.0, 0, seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or not decisions:
        env.reset(seed=episode)
        episode += 1
        for _agent in env.agent_iter():
            before = time.perf_counter()
            obs, _, termination, truncation, info = env.last()
            own += time.perf_counter() - before
            action = None
            if not (termination or truncation):
                action = random_legal(obs, info, generator)
                decisions += 1
            before = time.perf_counter()
            env.step(action)
            own += time.perf_counter() - before
    return own * 1e6 / decisions


def aec_episode_runner(env, seed: int = 0, counts: Counts | None = None) -> Callable[[], int]:
    """One random episode of a PettingZoo AEC env per call (masked uniform actions)."""
    generator = np.random.default_rng(seed)
    episode = [seed]
    counts = counts if counts is not None else Counts()

    def run() -> int:
        env.reset(seed=episode[0])
        episode[0] += 1
        steps = 0
        for _agent in env.agent_iter():
            obs, _, termination, truncation, info = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(random_legal(obs, info, generator))
            steps += 1
        counts.steps += steps
        counts.games += 1
        return steps

    return run


def vec_runner(vec, seed: int = 0, chunk: int = 16, counts: Counts | None = None
               ) -> Callable[[], int]:
    """``chunk`` batched steps of an auto-resetting ``VecGameEnv`` per call.

    Each step includes the acting seat's observation and legal mask of every row.
    """
    generator = np.random.default_rng(seed)
    _, info = vec.reset(seed=seed)
    holder = [info]
    counts = counts if counts is not None else Counts()

    def run() -> int:
        faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        for _ in range(chunk):
            _, _, terminated, truncated, holder[0] = vec.step(
                sample_actions(holder[0]["action_mask"], generator))
            counts.games += int(np.count_nonzero(terminated | truncated))
        counts.faults += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
        counts.steps += chunk * vec.num_envs
        return chunk * vec.num_envs

    return run
