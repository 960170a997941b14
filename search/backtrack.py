"""Backtracking: depth-first over every line, one explicit stack (seed 003)."""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result


def backtrack(game, state, *, budget: Optional[int] = None, rng=None, max_depth: Optional[int] = None,
              observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """Visit every line from state depth first (children in move order, chance outcomes too).

    Observers see each state when it is first entered, the start state included,
    so they see the tree in pre-order. A move back to a state on the line is not
    followed (the line would go round for ever): with the game's `future_key`, one that
    differs only in the running totals that only the returns read (a count of moves
    spent in a puzzle) is the same state. `rng` is accepted for a uniform signature;
    the order is deterministic.
    """
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    for o in fm.observers:
        o(state)
    key = getattr(game, "future_key", game.key)
    stack = [(state, iter(fm.options(state)), key(state))]
    on_line = {stack[0][2]}
    line: list = []
    if fm.ended(state):
        fm.finish(line, state)
    while stack and not fm.spent:
        s, children, _ = stack[-1]
        nxt = next(children, None) if max_depth is None or len(line) < max_depth else None
        if nxt is None:
            on_line.discard(stack.pop()[2])
            if line:
                line.pop()
            continue
        m = nxt
        t = fm.apply(s, m)
        k = key(t)
        if k in on_line:
            continue
        line.append((m, t))
        if fm.ended(t):
            fm.iterations += 1
            fm.finish(line, t)
            line.pop()
            continue
        stack.append((t, iter(fm.options(t)), k))
        on_line.add(k)
    return fm.result(None if fm.best_line else _first(fm, state))


def _first(fm: Budgeted, state):
    """The first move from state: the decision when no line has ended within the budget."""
    options = () if fm.game.is_terminal(state) else fm.options(state)
    return options[0] if options else None

