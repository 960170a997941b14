"""One-step look-ahead: the move whose successor evaluates best (Tribes paper)."""
from __future__ import annotations

from typing import Iterable, Optional

import attrs

from .budget import Budgeted, Observer, Progress, Result, argmax


def osla(game, state, *, rng, budget: Optional[int] = None, heuristic: Optional[str] = None,
         observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """Apply every legal move once and pick the best successor for the player to move,
    ties broken at random. A successor where chance moves is worth the mean of what its
    outcomes are worth, by their weights (a roll of the dice is judged by the rolls it may
    bring, not by the state before it), an outcome where chance moves again likewise; one that
    comes back to a chance state on its way (a toss made again until one side shows) is worth what
    the heuristic gives that state. Needs one call plus one per move and one per chance
    outcome, whatever the budget."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    if fm.ended(state):
        fm.finish((), state)
        return fm.result()
    fm.iterations = 1

    def worth(line: tuple, t, on_way: frozenset = frozenset()) -> float:
        if game.is_terminal(t):
            fm.finish(line, t)
        elif fm.is_chance(t) and (k := game.key(t)) not in on_way:
            return sum(p * worth(line + ((o, u),), u, on_way | {k})
                       for o, p in fm.outcomes(t) for u in (fm.apply(t, o),))
        return fm.values(t, heuristic)[fm.player]
    scored = [(m, worth(((m, t),), t)) for m in fm.moves(state) for t in (fm.apply(state, m),)]
    r = fm.result(argmax(scored, lambda x: x[1], rng)[0])
    return attrs.evolve(r, tied=len(scored) > 1 and len({v for _, v in scored}) == 1)
