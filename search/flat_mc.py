"""Flat Monte Carlo: random rollouts after each first move, the best average wins (Tribes paper)."""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result, argmax, rollout


def flat_mc(game, state, *, budget: int, rng, rollout_depth: Optional[int] = 20,
            heuristic: Optional[str] = None, observers: Iterable[Observer] = (),
            progress: Optional[Progress] = None) -> Result:
    """Cycle through the first moves; after each, a random rollout of `rollout_depth`
    moves (None: to the end), valued by the heuristic where it stops. Returns the
    first move with the highest mean value for the player to move."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    if fm.ended(state):
        fm.finish((), state)
        return fm.result()
    moves = list(fm.moves(state))
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    i = 0
    while not fm.spent or not any(counts):
        fm.iterations += 1
        m = moves[i]
        t = fm.apply(state, m)
        end = rollout(fm, t, rng, [(m, t)], rollout_depth)
        totals[i] += fm.values(end, heuristic)[fm.player]
        counts[i] += 1
        i = (i + 1) % len(moves)
    tried = [j for j in range(len(moves)) if counts[j]]
    return fm.result(moves[argmax(tried, lambda j: totals[j] / counts[j], rng)])
