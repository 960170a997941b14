"""Monte Carlo tree search with UCT, for any number of players, chance nodes sampled."""
from __future__ import annotations

import math
from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result, draw, rollout


class _Node:
    __slots__ = ("state", "player", "options", "weights", "children", "untried", "n", "w", "exact")

    def __init__(self, fm: Budgeted, state, rng):
        self.state = state
        self.n = 0
        self.w = [0.0] * fm.game.num_players
        self.exact: Optional[tuple] = None  # the value under best play, once every line below is known
        self.player = fm.game.current_player(state)
        if fm.ended(state):
            self.options, self.weights = [], None
            self.exact = tuple(fm.game.returns(state))
        elif fm.is_chance(state):
            outcomes = fm.game.chance_outcomes(state)
            self.options, self.weights = [m for m, _ in outcomes], [p for _, p in outcomes]
        else:
            self.options, self.weights = list(fm.moves(state)), None
        self.children: list = [None] * len(self.options)
        self.untried = list(range(len(self.options)))
        rng.shuffle(self.untried)

    def solve(self) -> bool:
        """Mark the node exact when every child is: the mover's best child, or the chance mean."""
        if self.untried or any(ch is None or ch.exact is None for ch in self.children):
            return False
        values = [ch.exact for ch in self.children]
        if self.weights is not None:
            self.exact = tuple(sum(p * v[i] for p, v in zip(self.weights, values)) for i in range(len(self.w)))
        else:
            self.exact = max(values, key=lambda v: v[self.player])
        return True


def mcts(game, state, *, budget: int, rng, c: float = math.sqrt(2), rollout_depth: Optional[int] = None,
         heuristic: Optional[str] = None, reuse=None, observers: Iterable[Observer] = (),
         progress: Optional[Progress] = None) -> Result:
    """UCT from state until the budget is spent; the move is the root's most visited child.

    Each iteration selects by UCB1 on values normalised to the range seen so far
    (each player maximises its own), expands one child, then evaluates it: a random
    rollout of `rollout_depth` moves (None: to the end) and the heuristic where it
    stops; `rollout_depth=0` evaluates the new node itself, without a rollout.

    Ends are exact: a node whose children are all exact becomes exact too (the best
    child for its mover, the weighted mean at chance), and selection stops at exact
    nodes, so the budget goes where the outcome is still open; a solved root ends
    the search early. The tree keeps its states, so walking down it is free; an
    iteration that only revisits stored states counts one call. `reuse` is the
    `memory` of an earlier result: its tree is searched for this state and, when
    found a few moves down, grown further instead of starting afresh.
    """
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    root = _find(reuse, game.key(state), game) or _Node(fm, state, rng)
    if not root.options:
        if fm.ended(state):
            fm.finish((), state)
        return fm.result(memory=root)
    lo, hi = math.inf, -math.inf
    while not fm.spent and root.exact is None:
        fm.iterations += 1
        calls = fm.calls
        node, path, line = root, [root], []
        while node.options and node.exact is None:
            if node.weights is not None:
                i = draw(node.weights, rng)
            elif node.untried:
                i = node.untried.pop()
            else:
                i = _uct(node, c, lo, hi)
            child = node.children[i]
            fresh = child is None
            if fresh:
                child = node.children[i] = _Node(fm, fm.apply(node.state, node.options[i]), rng)
            line.append((node.options[i], child.state))
            path.append(child)
            node = child
            if fresh:
                break
        if node.exact is not None:
            v = node.exact
            if not node.options:
                fm.finish(line, node.state)
        else:
            end = node.state if rollout_depth == 0 else rollout(fm, node.state, rng, line, rollout_depth)
            v = fm.values(end, heuristic)
        if fm.calls == calls:
            fm.charge()  # an iteration that only revisits stored states still costs one call
        lo, hi = min(lo, *v), max(hi, *v)
        for x in path:
            x.n += 1
            for p, vp in enumerate(v):
                x.w[p] += vp
        for x in reversed(path[:-1]):
            if not x.solve():
                break
    return fm.result(root.options[_choice(root)], memory=root)


def _choice(root: _Node) -> int:
    """A best child when the root is solved, else the most visited (ties: the higher mean)."""
    kids = [(i, ch) for i, ch in enumerate(root.children) if ch is not None]
    p = root.player
    if root.exact is not None:
        return max(kids, key=lambda x: (x[1].exact[p], x[1].n))[0]
    return max(kids, key=lambda x: (x[1].n, x[1].w[p] / x[1].n if x[1].n else -math.inf))[0]


def _uct(node: _Node, c: float, lo: float, hi: float) -> int:
    """The child index with the highest UCB1 score for the player to move."""
    span = hi - lo if hi > lo else 1.0
    log_n = math.log(node.n)
    best, best_u = 0, -math.inf
    for i, ch in enumerate(node.children):
        mean = ch.exact[node.player] if ch.exact is not None else ch.w[node.player] / ch.n
        u = (mean - lo) / span + c * math.sqrt(log_n / ch.n)
        if u > best_u:
            best, best_u = i, u
    return best


def _find(tree: Optional[_Node], key, game, depth: int = 4) -> Optional[_Node]:
    """The node of tree whose state has this key, at most `depth` moves down."""
    layer = [tree] if isinstance(tree, _Node) else []
    for _ in range(depth + 1):
        for x in layer:
            if game.key(x.state) == key:
                return x
        layer = [ch for x in layer for ch in x.children if ch is not None]
        if len(layer) > 10_000:  # not worth a long search: start afresh
            break
    return None
