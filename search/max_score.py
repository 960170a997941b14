"""Max-score tree search (seed 001): children sampled by the best score seen below them."""
from __future__ import annotations

from typing import Iterable, Optional

from .budget import ROLLOUT_MOST, Budgeted, Observer, Progress, Result, draw


class _Node:
    __slots__ = ("state", "options", "ended", "best", "children", "done")

    def __init__(self, state, terminal: bool, best: float):
        self.state = state
        self.options = None  # legal moves or chance outcomes, fetched on the first visit
        self.ended = terminal  # or, once the options are known, a dead end
        self.best = best  # the heuristic of the state until a line below it ends
        self.children: Optional[list] = None  # [(move, node, chance weight)] once expanded
        self.done = False  # every line below has been seen


def max_score(game, state, *, budget: int, rng, heuristic: Optional[str] = None,
              observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """Descend from state to an end, expanding every child of each node reached and
    sampling one with weight proportional to its best score (shifted to be positive);
    then raise the best score of every node on the line to the score at its end.

    Two additions to seed 001: equal states (by game.key) share one node, and a node
    whose lines have all been seen is no longer sampled, so the search stops, with
    the optimum, once every line from state has been seen. A descent does not go back
    to a state on its line (with the game's `future_key`, one that differs only in the
    running totals that only the returns read is the same state), and one of
    ROLLOUT_MOST moves stops there, valued by the heuristic (counted in `cut`): its last
    node is then done as an end would be, so the lines below it are not searched.
    """
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    p = fm.player
    nodes: dict = {}
    future = getattr(game, "future_key", game.key)

    def node_of(s) -> _Node:
        k = game.key(s)
        n = nodes.get(k)
        if n is None:
            n = nodes[k] = _Node(s, game.is_terminal(s), fm.values(s, heuristic)[p])
        return n

    root = node_of(state)
    while not fm.spent and not root.done:
        fm.iterations += 1
        node, path, line = root, [root], []
        on_path = {future(root.state)}
        while not node.ended:
            if len(line) >= ROLLOUT_MOST:  # a line that goes round without end, in new states each time
                fm.cut += 1
                break
            if fm.spent:  # a line that goes round can be long: the budget ends it where it has got to
                return fm.result(None if fm.best_line else _best_valued(root))
            if node.options is None:
                node.options = fm.options(node.state)
                node.ended = not node.options
                if node.ended:
                    break
            if node.children is None:
                weights = dict(fm.outcomes(node.state)) if fm.is_chance(node.state) else {}
                node.children = [(m, node_of(fm.apply(node.state, m)), weights.get(m))
                                 for m in node.options]
            open_ = [c for c in node.children if not c[1].done and future(c[1].state) not in on_path]
            if not open_:
                break
            m, node, _ = open_[draw(_weights(open_), rng)]
            path.append(node)
            on_path.add(future(node.state))
            line.append((m, node.state))
        score = fm.finish(line, node.state) if node.ended else fm.values(node.state, heuristic)[p]
        # a node where a descent stopped at ROLLOUT_MOST moves is done too (`cut` says so): else,
        # once the nodes within reach are expanded, descents would cost no calls and never end
        node.done = True
        for x in reversed(path):
            x.best = max(x.best, score)
            if x.children is not None and all(c[1].done for c in x.children):
                x.done = True
    return fm.result(None if fm.best_line else _best_valued(root))


def _best_valued(root: _Node):
    """The move to the root's child of the best value: the decision where no line has ended (the
    first move, before the root's children were made)."""
    if root.children:
        return max(root.children, key=lambda c: c[1].best)[0]
    return root.options[0] if root.options else None


def _weights(children: list) -> list:
    """Chance weights at a chance node; else best scores, shifted up to be positive."""
    if children[0][2] is not None:
        return [w for _, _, w in children]
    low = min(ch.best for _, ch, _ in children)
    shift = 1 - low if low <= 0 else 0
    return [ch.best + shift for _, ch, _ in children]
