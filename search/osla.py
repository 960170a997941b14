"""One-step look-ahead: the move whose successor evaluates best (Tribes paper)."""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result, argmax


def osla(game, state, *, rng, budget: Optional[int] = None, heuristic: Optional[str] = None,
         observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """Apply every legal move once and pick the best successor for the player to move,
    ties broken at random. Needs one call plus one per move, whatever the budget."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    if fm.ended(state):
        fm.finish((), state)
        return fm.result()
    fm.iterations = 1
    scored = []
    for m in fm.moves(state):
        t = fm.apply(state, m)
        if game.is_terminal(t):
            fm.finish(((m, t),), t)
        scored.append((m, fm.values(t, heuristic)[fm.player]))
    return fm.result(argmax(scored, lambda x: x[1], rng)[0])
