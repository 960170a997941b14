"""Monte Carlo tree search with UCT, for any number of players, chance nodes sampled."""
from __future__ import annotations

import math
from typing import Iterable, Optional

from .budget import Budgeted, Observer, Progress, Result, draw, rollout


class _Node:
    __slots__ = ("state", "player", "options", "labels", "weights", "children", "untried", "n", "w", "exact",
                 "amaf", "best", "edges")

    def __init__(self, fm: Budgeted, state, rng, heuristic: Optional[str], horizon: bool = False):
        self.state = state
        self.n = 0
        self.w = [0.0] * fm.game.num_players
        self.exact: Optional[tuple] = None  # the value under best play, once every line below is known
        self.best: Optional[tuple] = None  # backup "max": the best child's value (the mean at chance)
        self.player = fm.game.current_player(state)
        self.options: Optional[list] = None  # fetched on the first pass through the node (see open)
        self.weights = None
        if fm.game.is_terminal(state) or horizon and fm.is_chance(state):  # an end, or the plan's horizon
            self.options = []
            self.exact = fm.values(state, heuristic)
            self._arrange(fm, rng)
        self.amaf: dict = {}  # label -> [n, w per player]: the label played later by this node's mover

    def open(self, fm: Budgeted, rng, heuristic: Optional[str]):
        """Fetch the moves (or chance outcomes) of a node passed through for the first time: a
        leaf that is only evaluated never pays for them. A dead end without moves ends the line."""
        if fm.is_chance(self.state):
            outcomes = fm.outcomes(self.state)
            self.options, self.weights = [m for m, _ in outcomes], [p for _, p in outcomes]
        else:
            self.options = list(fm.moves(self.state))
            if not self.options:
                self.exact = fm.values(self.state, heuristic)
        self._arrange(fm, rng)

    def _arrange(self, fm: Budgeted, rng):
        self.labels = [fm.game.describe(m) for m in self.options]
        self.children: list = [None] * len(self.options)
        # the iterations that went on from this node to each child: a child that other lines reach
        # too (equal states share a node) has visits of its own that were no choice made here
        self.edges = [0] * len(self.options)
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


TABLE_LIMIT = 100_000
"""The nodes a table passed on from decision to decision may hold before it keeps only the part
below the new decision's state."""


def mcts(game, state, *, budget: int, rng, c: float = math.sqrt(2), rollout_depth: Optional[int] = None,
         heuristic: Optional[str] = None, rave: float = 200.0, backup: str = "mean", horizon: str = "end",
         reuse=None, observers: Iterable[Observer] = (), progress: Optional[Progress] = None) -> Result:
    """UCT from state until the budget is spent; the move is the root's child its iterations went
    to most.

    Each iteration selects by UCB1 on values normalised to the range seen so far
    (each player maximises its own), expands one child, then evaluates it: a random
    rollout of `rollout_depth` moves (None: to the end) and the heuristic where it
    stops; `rollout_depth=0` evaluates the new node itself, without a rollout.

    Ends are exact: a node whose children are all exact becomes exact too (the best
    child for its mover, the weighted mean at chance), and selection stops at exact
    nodes, so the budget goes where the outcome is still open; a solved root ends
    the search early. The tree keeps its states, so walking down it is free; an
    iteration that only revisits stored states counts one call. Equal states (by
    game.key) share one node, so the tree is a graph and what is learnt about a
    state serves every line that reaches it. `reuse` is the `memory` of an earlier
    result (its node table): a decision a few moves later goes on growing it. Once
    the table holds more than TABLE_LIMIT nodes, a decision keeps only the part
    that lines from its state have reached and drops the rest (what the earlier
    searches learnt of moves not played), so memory does not grow without end.

    Two enhancements, both generic: with `rave` > 0 (RAVE, Gelly and Silver), a
    child's mean is blended with the mean of every simulation in which its mover
    played the same move label later on (all moves as first), which matters while
    the child has few visits; and with several players a child known to end the
    game with the highest value seen so far for its mover is always chosen (a
    decisive move), so the values above it show what happens under that threat.

    `backup="max"` values a node by its best child's value for its mover (the
    weighted mean of the drawn outcomes at chance), UCB1 and the final choice use
    that value, and RAVE only orders the untried moves: for a planner between
    chance steps the best line found matters, not the mean of the lines tried.
    `horizon="chance"` ends the tree at chance steps: a state where chance moves
    is valued by the heuristic and exact, so the search plans up to the next
    draw. An iteration that draws a new outcome goes on below it (the outcome
    leaves what the players did as it was), so each draw is followed by a move.
    A node's moves are listed when an iteration first passes through it, so a
    leaf that is only valued costs the one call that made it.
    """
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    table: dict = reuse if isinstance(reuse, dict) else {}  # game.key -> node: equal states share a node
    root = table.get(game.key(state))
    if len(table) > TABLE_LIMIT:
        table = _below(game, root)
    if root is None:
        root = table[game.key(state)] = _Node(fm, state, rng, heuristic)
    if root.options is None:
        root.open(fm, rng, heuristic)
    if not root.options:
        if fm.ended(state):
            fm.finish((), state)
        return fm.result(memory=table)
    lo, hi = math.inf, -math.inf
    several = game.num_players > 1
    while not fm.spent and root.exact is None:
        fm.iterations += 1
        calls = fm.calls
        node, path, line = root, [root], []
        on_path = {id(root)}
        while node.exact is None:
            if node.options is None:
                if fm.spent:
                    break
                node.open(fm, rng, heuristic)
            if not node.options:
                break
            if node.weights is not None:
                i = draw(node.weights, rng)
            elif several and (i := _decisive(fm, node, hi)) is not None:
                pass
            elif node.untried:
                i = _untried(node, rave)
            else:
                i = _uct(node, c, lo, hi, rave, backup == "max")
            child = node.children[i]
            fresh = child is None
            if fresh:
                nxt = fm.apply(node.state, node.options[i])
                child = table.get(game.key(nxt))
                fresh = child is None
                if fresh:
                    child = table[game.key(nxt)] = _Node(fm, nxt, rng, heuristic, horizon == "chance")
                node.children[i] = child
            if id(child) in on_path:  # a cycle: evaluate from here
                break
            line.append((node.options[i], child.state))
            path.append(child)
            on_path.add(id(child))
            node.edges[i] += 1
            node = child
            if len(path) % WALK_A_CALL == 0:  # a long walk through stored states costs calls too
                fm.charge()
            if fresh and path[-2].weights is None:  # past a new outcome, go on to a move after it
                break
        if node.exact is not None:
            v = node.exact
            if game.is_terminal(node.state) or not node.options and not fm.is_chance(node.state):
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
        if backup == "max":
            for x in reversed(path[:-1]):
                _back_up_best(x)
        if rave:
            _amaf_update(fm.game, path, line, v)
    return fm.result(root.options[_choice(root, backup == "max")], memory=table)


WALK_A_CALL = 100
"""Steps down the tree through stored states that cost one forward-model call: walking them calls
nothing, but a walk of hundreds of steps (a puzzle whose few hundred states the tree holds, each
iteration going round them until it meets one on its path) took its seconds with no call counted,
so a budget of 16,000 calls ran 42 s where 4,000 ran 1 (now 4 s). A walk shorter than this, as in a
game whose lines are a few dozen moves long, pays nothing more."""


def _below(game, root: Optional[_Node]) -> dict:
    """The nodes that lines from root have reached, by key: what a decision keeps of the table of
    the one before."""
    kept: dict = {}
    todo = [root] if root is not None else []
    while todo:
        x = todo.pop()
        k = game.key(x.state)
        if k not in kept:
            kept[k] = x
            if x.options:
                todo.extend(ch for ch in x.children if ch is not None)
    return kept


def _choice(root: _Node, by_best: bool) -> int:
    """A best child when the root is solved or (by_best) by the best line found, else the one
    the root's iterations went to most (ties: the higher mean). A child other lines reach too
    has visits that were not chosen from the root: counted, a move that leads where better
    lines also go would win by their visits."""
    kids = [(i, ch) for i, ch in enumerate(root.children) if ch is not None]
    p = root.player
    if root.exact is not None or by_best:
        return max(kids, key=lambda x: (_value(x[1], True)[p], x[1].n))[0]
    return max(kids, key=lambda x: (root.edges[x[0]], x[1].w[p] / x[1].n if x[1].n else -math.inf))[0]


def _value(node: _Node, best: bool) -> tuple:
    """A node's value: exact if known, else (backup "max") its best child's, else its mean."""
    if node.exact is not None:
        return node.exact
    if best and node.best is not None:
        return node.best
    return tuple(w / node.n for w in node.w)


def _back_up_best(node: _Node):
    """Backup "max": the best value among the node's children for its mover (the first such
    child in order), the weighted mean of the drawn outcomes at chance. Children not yet
    visited and not exact have no value yet."""
    if node.weights is not None:
        kids = [(i, ch) for i, ch in enumerate(node.children) if ch is not None and (ch.n or ch.exact is not None)]
        if kids:
            total = sum(node.weights[i] for i, _ in kids)
            values = [(node.weights[i] / total, _value(ch, True)) for i, ch in kids]
            node.best = tuple(sum(p * v[q] for p, v in values) for q in range(len(node.w)))
        return
    p, best, top = node.player, None, -math.inf
    for ch in node.children:  # written out: this runs for each node of each iteration's path
        if ch is None:
            continue
        v = ch.exact
        if v is None:
            if not ch.n:
                continue
            v = ch.best if ch.best is not None else tuple(w / ch.n for w in ch.w)
        if best is None or v[p] > top:
            best, top = v, v[p]
    if best is not None:
        node.best = best


def _uct(node: _Node, c: float, lo: float, hi: float, rave: float, by_best: bool = False) -> int:
    """The child index with the highest UCB1 score for the player to move; with rave > 0 the
    mean is blended with the label's all-moves-as-first mean, weight sqrt(rave / (3n + rave)).
    With `by_best` a child's value is its best line's (backup "max") instead of its mean."""
    span = hi - lo if hi > lo else 1.0
    log_n = math.log(node.n)
    p = node.player
    best, best_u = 0, -math.inf
    for i, ch in enumerate(node.children):
        v = ch.exact if ch.exact is not None else ch.best if by_best else None
        mean = ((ch.w[p] / ch.n if v is None else v[p]) - lo) / span
        if ch.exact is None and rave and not by_best and node.labels[i] in node.amaf:
            an, aw = node.amaf[node.labels[i]]
            beta = math.sqrt(rave / (3 * ch.n + rave))
            mean = (1 - beta) * mean + beta * (aw[p] / an - lo) / span
        u = mean + c * math.sqrt(log_n / ch.n)
        if u > best_u:
            best, best_u = i, u
    return best


def _decisive(fm: Budgeted, node: _Node, hi: float) -> Optional[int]:
    """A child known to end the game with the highest value seen so far for its mover."""
    for i, ch in enumerate(node.children):
        if ch is not None and ch.options == [] and not fm.is_chance(ch.state) and ch.exact[node.player] >= hi:
            return i
    return None


def _untried(node: _Node, rave: float) -> int:
    """The next child to expand: at random, or with rave the untried label with the best AMAF mean."""
    if rave and node.amaf:
        p = node.player

        def amaf_mean(i):
            a = node.amaf.get(node.labels[i])
            return a[1][p] / a[0] if a else -math.inf

        j = max(range(len(node.untried)), key=lambda j: amaf_mean(node.untried[j]))
        node.untried[j], node.untried[-1] = node.untried[-1], node.untried[j]
    return node.untried.pop()


def _amaf_update(game, path: list, line: list, v):
    """All moves as first: credit v to each node for every label its mover played later on (once a
    label), gathered from the end of the line back, so a long line costs its length times the labels
    a mover played, not its length squared."""
    movers = [game.current_player(path[0].state)] + [game.current_player(s) for _, s in line[:-1]]
    later: dict = {}  # a mover -> the labels it played from the node on (a dict: each once, in order)
    for i in range(len(line) - 1, -1, -1):  # the line goes on past the tree's path with the rollout's moves
        later.setdefault(movers[i], {})[game.describe(line[i][0])] = None
        if i >= len(path) - 1:
            continue
        x = path[i]
        for label in later.get(x.player, ()):
            a = x.amaf.get(label)
            if a is None:
                a = x.amaf[label] = [0, [0.0] * len(v)]
            a[0] += 1
            for q, vq in enumerate(v):
                a[1][q] += vq
