"""Random walk: uniformly random lines from a state, one after another, until the budget is spent."""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result, rollout


def random_walk(game, state, *, budget: int, rng, max_depth: Optional[int] = None,
                observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """Walk at random to an end (chance outcomes by weight), record the line, start again.
    Where no walk ended (a puzzle that random moves rarely solve), the move is the first of the
    first walk: one at random."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    if fm.ended(state):
        fm.finish((), state)
        return fm.result()
    first = None
    while not fm.spent:
        line: list = []
        rollout(fm, state, rng, line, max_depth)
        first = line[0][0] if first is None and line else first
        fm.iterations += 1
    return fm.result(None if fm.best_line else first)
