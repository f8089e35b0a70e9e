"""Timing loops shared by the benchmark commands."""

from __future__ import annotations

import dataclasses
import resource
import time
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np

from envs.core.sampling import sample_actions


def timed(run: Callable[[], int], seconds: float, min_steps: int = 0) -> float:
    """Call ``run`` (which returns the env-steps it made) until ``seconds`` pass and at least
    ``min_steps`` env-steps are made; steps/s."""
    run()  # warm-up: imports, caches, first allocations
    clock = RateClock(run, min_steps)
    alternate([clock], seconds, slice_seconds=seconds)
    return clock.rate


class Clock(Protocol):
    """A measurement taken a slice at a time, so that several can share a span (``alternate``)."""

    def run(self, seconds: float) -> None:
        """Measure for about ``seconds`` more (at least one unit of work)."""

    def satisfied(self, seconds: float) -> bool:
        """Whether the measurement has had ``seconds`` and whatever minimum it sets."""


def alternate(clocks: Sequence[Clock], seconds: float, slice_seconds: float = 0.25) -> None:
    """Run ``clocks`` in turn, a slice of about ``slice_seconds`` each, until every one has had
    ``seconds``: a machine whose speed drifts within the span slows them alike, so their
    ratios hold, which measurements taken one after the other do not ensure."""
    while not all(clock.satisfied(seconds) for clock in clocks):
        for clock in clocks:
            clock.run(slice_seconds)


class UnitClock:
    """A ``Clock`` whose slice is whole units of work (``_unit``: a step, an episode), at
    least one, until the slice's time has passed; ``elapsed`` sums its slices. A clock that
    keeps a tally of its own (``_tally``) also keeps the cost of each slice, ``slice_costs``."""

    def __init__(self) -> None:
        self.elapsed = 0.0
        self.slice_costs: list[float] = []

    def run(self, seconds: float) -> None:
        before = self._tally()
        start = time.perf_counter()
        self._unit()
        while time.perf_counter() - start < seconds:
            self._unit()
        self.elapsed += time.perf_counter() - start
        if before is not None:
            (cost, units), (cost_before, units_before) = self._tally(), before
            self.slice_costs.append((cost - cost_before) * 1e6 / (units - units_before))

    def _unit(self) -> None:
        raise NotImplementedError

    def _tally(self) -> tuple[float, int] | None:
        """The seconds of the clock's own time so far and the units of work they cover (µs
        per unit of each slice go to ``slice_costs``); None for a clock that keeps none."""
        return None


def median_ratio(numerators: Sequence[float], denominators: Sequence[float]) -> float:
    """The median of the ratios of costs timed in the same round of ``alternate``, slice by
    slice: a burst of slowness that hits one slice of a round and not its partner (a
    neighbour on a shared host, a thread's core taken away for a moment) moves the mean of a
    figure but not this, and a drift across rounds slows both slices of one ratio alike."""
    if len(numerators) != len(denominators) or len(numerators) == 0:
        raise ValueError(f"median_ratio needs slices paired one to one, got "
                         f"{len(numerators)} and {len(denominators)}")
    return float(np.median(np.asarray(numerators) / np.asarray(denominators)))


class RateClock(UnitClock):
    """Steps/s of ``run`` (which returns the env-steps it made), a slice at a time; satisfied
    once it has also made ``min_steps``."""

    def __init__(self, run: Callable[[], int], min_steps: int = 0):
        super().__init__()
        self._run, self.min_steps, self.steps = run, min_steps, 0

    def _unit(self) -> None:
        self.steps += self._run()

    def satisfied(self, seconds: float) -> bool:
        return self.elapsed >= seconds and self.steps >= self.min_steps

    @property
    def rate(self) -> float:
        return self.steps / self.elapsed


def timed_beside(run: Callable[[], int], reference: Callable[[], int], seconds: float,
                 min_steps: int = 0, slice_seconds: float = 0.25) -> tuple[float, float]:
    """Steps/s of ``run`` and of ``reference``, timed in alternating slices (``alternate``)
    until ``run`` has had ``seconds`` and ``min_steps`` env-steps: a reference measured before
    and after a long figure does not catch a drift within it."""
    run()
    reference()  # warm-ups
    clocks = RateClock(run, min_steps), RateClock(reference)
    alternate(clocks, seconds, slice_seconds)
    return clocks[0].rate, clocks[1].rate


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


class AecOwnClock(UnitClock):
    """µs per decision of an AEC env's own work, ``last`` and ``step``: the action sampler
    and ``reset`` left out (the issues' targets compare the envs' own times). Random episodes
    of masked uniform actions, whole episodes a slice at a time."""

    def __init__(self, env, seed: int = 0):
        super().__init__()
        self.env, self.episode = env, seed
        self.generator = np.random.default_rng(seed)
        self.own, self.decisions = 0.0, 0

    def _unit(self) -> None:  # one episode
        env = self.env
        env.reset(seed=self.episode)
        self.episode += 1
        for _agent in env.agent_iter():
            before = time.perf_counter()
            obs, _, termination, truncation, info = env.last()
            self.own += time.perf_counter() - before
            action = None
            if not (termination or truncation):
                action = random_legal(obs, info, self.generator)
                self.decisions += 1
            before = time.perf_counter()
            env.step(action)
            self.own += time.perf_counter() - before

    def satisfied(self, seconds: float) -> bool:
        return self.elapsed >= seconds and self.decisions > 0

    def _tally(self) -> tuple[float, int]:
        return self.own, self.decisions

    @property
    def us_per_decision(self) -> float:
        return self.own * 1e6 / self.decisions


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
