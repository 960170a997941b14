"""Random walk: uniformly random lines from a state, one after another, until the budget is spent."""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result, rollout


def random_walk(game, state, *, budget: int, rng, max_depth: Optional[int] = None,
                observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """Walk at random to an end (chance outcomes by weight), record the line, start again."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    if fm.ended(state):
        fm.finish((), state)
        return fm.result()
    while not fm.spent:
        rollout(fm, state, rng, [], max_depth)
        fm.iterations += 1
    return fm.result()
