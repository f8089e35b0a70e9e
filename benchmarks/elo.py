"""Ratings from tournament results: Bradley–Terry Elo by maximum likelihood, and OpenSkill.

Elo (the model of OpenSpiel's ``evaluation/elo.cc``): agent i beats agent j with probability
``1 / (1 + 10 ** ((R_j - R_i) / 400))``. A multi-player game contributes one result per pair
of seats from its final ranking: the higher-ranked seat wins, equal ranks are a draw, and a
draw counts half a win to each side. The ratings maximise the likelihood of the pairwise
win counts, so they depend on the counts only, never on the order of the games.

* The fit is Newton's method on the concave log-likelihood (a handful of iterations for
  the few agents of a tournament), with the anchor's rating held fixed: ``random`` at 1000
  when present, otherwise the first agent.
* An agent that never lost (or never won) has no finite maximum-likelihood rating. As in
  OpenSpiel, ``smoothing`` virtual wins (default 0.1) are added in both directions of every
  pair, which keeps every rating finite and barely moves the others. Between two agents
  with w wins and l losses the difference is then exactly
  ``400 * log10((w + smoothing) / (l + smoothing))``.
* 95% confidence intervals by bootstrap: resample the independent units of play (single
  games, or the blocks of duplicate deals a tournament plays) with replacement, refit, and
  take the 2.5% and 97.5% percentiles of each rating.

OpenSkill (Weng–Lin Bayesian rating with the Plackett–Luce model) rates agents from each
game's full ranking rather than from pairs; it is sequential, so it depends on the order the
games are fed in (the tournament feeds them in a fixed order). It needs the ``openskill``
package (extra ``bench``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

ELO_SCALE = 400.0 / np.log(10.0)  # Elo points per natural-log unit of strength
DEFAULT_SMOOTHING = 0.1  # virtual wins added each way per pair (OpenSpiel's default)


# ----------------------------------------------------------------------- pairwise results
def pairwise_wins(
    rewards: np.ndarray,
    seat_agents: np.ndarray,
    num_agents: int,
    groups: np.ndarray | None = None,
    num_groups: int | None = None,
) -> np.ndarray:
    """Pairwise win counts from the final rankings of a set of games.

    Args:
        rewards: (G, P) ranking of each game, higher is better (the rank rewards, scores, or
            anything ordered like the final ranking); equal values are a draw.
        seat_agents: (G, P) int, the agent index in each seat.
        num_agents: k, the number of agents.
        groups: (G,) int group of each game (e.g. its duplicate-deal block); None puts all
            games in one group.
        num_groups: number of groups (default ``groups.max() + 1``).

    Returns:
        (n, k, k) float64 with ``[g, i, j]`` = wins of agent i over agent j in the games of
        group g, a draw counting 0.5 to each; the diagonal is 0 (an agent in two seats of
        one game is not compared with itself).
    """
    rewards = np.asarray(rewards, dtype=np.float64)
    seat_agents = np.asarray(seat_agents, dtype=np.int64)
    num_games, num_players = rewards.shape
    if groups is None:
        groups = np.zeros(num_games, dtype=np.int64)
    groups = np.asarray(groups, dtype=np.int64)
    if num_groups is None:
        num_groups = int(groups.max()) + 1 if num_games else 1
    wins = np.zeros((num_groups, num_agents, num_agents))
    for p in range(num_players):
        for q in range(num_players):
            if p == q:
                continue
            outcome = np.sign(rewards[:, p] - rewards[:, q])  # +1 win, 0 draw, -1 loss
            a, b = seat_agents[:, p], seat_agents[:, q]
            credit = np.where(a != b, (outcome + 1) / 2, 0.0)  # 1, 0.5 or 0 for a over b
            np.add.at(wins, (groups, a, b), credit)
    return wins


# ----------------------------------------------------------------------- Bradley–Terry Elo
def fit_elo(
    wins: np.ndarray,
    anchor: int = 0,
    anchor_rating: float = 1000.0,
    smoothing: float = DEFAULT_SMOOTHING,
    initial: np.ndarray | None = None,
    tol: float = 1e-10,
    max_iterations: int = 100,
) -> np.ndarray:
    """Maximum-likelihood Bradley–Terry ratings on the Elo scale.

    Args:
        wins: (k, k) wins of i over j (draws as halves).
        anchor: index of the agent whose rating is fixed.
        anchor_rating: its rating.
        smoothing: virtual wins added to every off-diagonal entry (0 for the plain ML fit,
            which then needs every agent to have both won and lost along connected pairs).
        initial: (k,) Elo ratings to start from (a warm start for bootstrap refits).
        tol: convergence threshold on the largest Newton step, in natural-log units.
        max_iterations: Newton iterations at most.

    Returns:
        (k,) float64 Elo ratings.

    Raises:
        ValueError: bad shapes or negative counts, or (without smoothing) a set of results
            whose maximum-likelihood ratings are infinite.
    """
    wins = np.array(wins, dtype=np.float64)
    k = wins.shape[0]
    if wins.ndim != 2 or wins.shape != (k, k) or k < 1:
        raise ValueError(f"wins must be a square (k, k) matrix, got shape {wins.shape}")
    if (wins < 0).any() or not np.isfinite(wins).all():
        raise ValueError("wins must be finite and non-negative")
    if not 0 <= anchor < k:
        raise ValueError(f"anchor {anchor} out of range for {k} agents")
    if smoothing < 0:
        raise ValueError(f"smoothing must be >= 0, got {smoothing}")
    np.fill_diagonal(wins, 0.0)
    wins += smoothing * (1.0 - np.eye(k))
    if smoothing == 0:
        _check_finite_ml(wins)
    games = wins + wins.T
    free = np.arange(k) != anchor
    theta = np.zeros(k) if initial is None else (np.asarray(initial) - anchor_rating) / ELO_SCALE
    theta = theta - theta[anchor]
    log_lik = _log_likelihood(wins, theta)
    for _ in range(max_iterations):
        p_win = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # [i, j] = P(i beats j)
        gradient = wins.sum(axis=1) - (games * p_win).sum(axis=1)
        curvature = games * p_win * p_win.T
        neg_hessian = np.diag(curvature.sum(axis=1)) - curvature
        step = np.zeros(k)
        step[free] = np.linalg.solve(neg_hessian[np.ix_(free, free)], gradient[free])
        # Newton steps on a concave function; halve when one overshoots.
        scale = 1.0
        while True:
            candidate = theta + scale * step
            candidate_lik = _log_likelihood(wins, candidate)
            if candidate_lik >= log_lik - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta, log_lik = candidate, candidate_lik
        if np.abs(scale * step).max() < tol:
            break
    return anchor_rating + ELO_SCALE * theta


def _log_likelihood(wins: np.ndarray, theta: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(wins * np.logaddexp(0.0, -diff)).sum())


def _check_finite_ml(wins: np.ndarray) -> None:
    """Raise unless every agent can reach every other through "beat" edges (Zermelo's
    condition for finite maximum-likelihood ratings)."""
    k = wins.shape[0]
    reach = (wins > 0) | np.eye(k, dtype=bool)
    for _ in range(max(k - 1, 1).bit_length() + 1):
        reach = reach | ((reach.astype(np.int64) @ reach.astype(np.int64)) > 0)
    if not reach.all():
        i, j = map(int, np.argwhere(~reach)[0])
        raise ValueError(
            f"ratings are infinite without smoothing: agent {i} has no chain of wins over "
            f"agent {j}; use smoothing > 0"
        )


def win_probability(ratings: np.ndarray) -> np.ndarray:
    """(k, k) probability that i beats j under the Elo model."""
    ratings = np.asarray(ratings, dtype=np.float64)
    return 1.0 / (1.0 + 10.0 ** ((ratings[None, :] - ratings[:, None]) / 400.0))


@dataclasses.dataclass
class EloFit:
    """Elo ratings with bootstrap confidence intervals."""

    names: list[str]
    ratings: np.ndarray  # (k,) float64, the maximum-likelihood Elo
    low: np.ndarray  # (k,) float64, lower end of the confidence interval
    high: np.ndarray  # (k,) float64, upper end
    anchor: str  # the agent held at anchor_rating
    anchor_rating: float
    level: float  # confidence level of [low, high], e.g. 0.95
    num_samples: int  # bootstrap refits
    smoothing: float
    samples: np.ndarray | None = None  # (num_samples, k) the bootstrap refits

    def difference(self, first: str, second: str) -> tuple[float, float, float]:
        """Elo of ``first`` minus ``second``: the fit's and its bootstrap interval (the
        percentiles of the refits' differences, so the two ratings' co-variation counts)."""
        i, j = self.names.index(first), self.names.index(second)
        point = float(self.ratings[i] - self.ratings[j])
        if self.samples is None:
            return point, point, point
        tail = (1.0 - self.level) / 2 * 100
        low, high = np.percentile(self.samples[:, i] - self.samples[:, j], [tail, 100 - tail])
        return point, float(low), float(high)

    def as_dict(self) -> dict[str, tuple[float, float, float]]:
        """name -> (rating, low, high)."""
        return {
            n: (float(r), float(lo), float(hi))
            for n, r, lo, hi in zip(self.names, self.ratings, self.low, self.high, strict=True)
        }


def elo_ratings(
    block_wins: np.ndarray,
    names: Sequence[str],
    anchor: str | None = None,
    anchor_rating: float = 1000.0,
    smoothing: float = DEFAULT_SMOOTHING,
    num_samples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
) -> EloFit:
    """Elo of each agent from pairwise wins, with a bootstrap confidence interval.

    Args:
        block_wins: (n, k, k) wins per independent unit of play (``pairwise_wins`` with
            groups), or (k, k) when there is one unit (no bootstrap then: the interval is the
            point). The bootstrap resamples the n units with replacement.
        names: the k agent names.
        anchor: the agent held at ``anchor_rating``; default ``"random"`` if present, else
            the first agent.
        anchor_rating: its rating.
        smoothing: virtual wins per ordered pair (see ``fit_elo``).
        num_samples: bootstrap refits.
        level: confidence level of the interval.
        seed: seeds the resampling.
    """
    block_wins = np.asarray(block_wins, dtype=np.float64)
    if block_wins.ndim == 2:
        block_wins = block_wins[None]
    names = list(names)
    if block_wins.shape[1:] != (len(names), len(names)):
        raise ValueError(f"{len(names)} names for wins of shape {block_wins.shape}")
    if anchor is None:
        anchor = "random" if "random" in names else names[0]
    if anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the agents {names}")
    anchor_index = names.index(anchor)
    ratings = fit_elo(block_wins.sum(axis=0), anchor_index, anchor_rating, smoothing)
    num_blocks = block_wins.shape[0]
    if num_blocks > 1 and num_samples > 0:
        generator = np.random.default_rng(seed)
        flat = block_wins.reshape(num_blocks, -1)
        samples = np.empty((num_samples, len(names)))
        for s in range(num_samples):
            counts = np.bincount(generator.integers(0, num_blocks, num_blocks),
                                 minlength=num_blocks)
            resampled = (counts @ flat).reshape(len(names), len(names))
            samples[s] = fit_elo(resampled, anchor_index, anchor_rating, smoothing,
                                 initial=ratings)
        tail = (1.0 - level) / 2 * 100
        low, high = np.percentile(samples, [tail, 100 - tail], axis=0)
    else:
        low, high, samples = ratings.copy(), ratings.copy(), None
    return EloFit(names, ratings, low, high, anchor, anchor_rating, level,
                  num_samples if num_blocks > 1 else 0, smoothing, samples)


# ----------------------------------------------------------------------- OpenSkill
@dataclasses.dataclass
class OpenSkillRatings:
    """Plackett–Luce OpenSkill ratings after all games."""

    names: list[str]
    mu: np.ndarray  # (k,) float64, mean skill (starts at 25)
    sigma: np.ndarray  # (k,) float64, uncertainty (starts at 25/3)

    @property
    def ordinal(self) -> np.ndarray:
        """(k,) conservative skill ``mu - 3 * sigma``, the usual leaderboard value."""
        return self.mu - 3.0 * self.sigma


def openskill_available() -> bool:
    """True when the ``openskill`` package can be imported."""
    try:
        import openskill.models  # noqa: F401
    except ImportError:
        return False
    return True


def openskill_ratings(
    rewards: np.ndarray, seat_agents: np.ndarray, names: Sequence[str]
) -> OpenSkillRatings:
    """OpenSkill (Plackett–Luce) ratings from each game's full ranking, games in row order.

    Args:
        rewards: (G, P) ranking of each game, higher is better; equal values share a rank.
        seat_agents: (G, P) int, the agent index in each seat.
        names: the k agent names.

    An agent in several seats of one game (fewer agents than seats) plays each seat as its
    own team; its new rating is the mean of those teams' updates.

    Raises:
        ImportError: the ``openskill`` package is not installed.
    """
    try:
        from openskill.models import PlackettLuce
    except ImportError as error:
        raise ImportError(
            "OpenSkill ratings need the openskill package: pip install 'tradewinds[bench]'"
        ) from error
    model = PlackettLuce()
    names = list(names)
    mu = np.full(len(names), model.mu, dtype=np.float64)
    sigma = np.full(len(names), model.sigma, dtype=np.float64)
    rewards = np.asarray(rewards, dtype=np.float64)
    seat_agents = np.asarray(seat_agents, dtype=np.int64)
    # Rank 1 is first; seats with equal rewards share a rank.
    ranks = 1 + (rewards[:, None, :] > rewards[:, :, None]).sum(axis=2)
    for game_ranks, seats in zip(ranks.tolist(), seat_agents.tolist(), strict=True):
        teams = [[model.rating(mu=mu[a], sigma=sigma[a])] for a in seats]
        updated = model.rate(teams, ranks=game_ranks)
        new_mu: dict[int, list[float]] = {}
        new_sigma: dict[int, list[float]] = {}
        for a, team in zip(seats, updated, strict=True):
            new_mu.setdefault(a, []).append(team[0].mu)
            new_sigma.setdefault(a, []).append(team[0].sigma)
        for a in new_mu:
            mu[a] = np.mean(new_mu[a])
            sigma[a] = np.mean(new_sigma[a])
    return OpenSkillRatings(names, mu, sigma)
