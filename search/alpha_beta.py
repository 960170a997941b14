"""Alpha-beta search of a two-player game whose returns add up to the same total at every end: the
value under best play, a best line and the value after each first move, without counting paths or
visiting every state, as the exhaustive solve (search/solve.py) does."""
from __future__ import annotations

import math
import sys
from typing import Callable, Optional

import attrs

from .budget import draw
from .protocol import CHANCE, Game
from .solve import LINE_LIMIT, MAX_STATES, TIE, Cycle, Endless, TooManyStates, has_move


@attrs.frozen
class Valued:
    """What an alpha-beta search found."""

    value: tuple  # returns per player under best play (expectation at chance steps)
    best_line: list  # [(move, state)] from the initial state
    first_moves: tuple  # (move, its values, probability or None) of each way on from the initial state, if asked
    states: int  # the distinct states searched (the entries of its table; with max_depth, of each depth's table)
    visits: int  # the times a state was searched, again with other bounds too (at each depth too)
    complete: bool = True  # False when max_depth stopped a line before its end


class NotConstantSum(Exception):
    """Two ends whose returns add up to different totals: one player's gain is not the other's loss,
    which alpha-beta's bounds take for granted."""

    def __init__(self, first: tuple, other: tuple, state):
        super().__init__(f"the returns {first} and {other} add up to different totals")
        self.first, self.other, self.state = first, other, state


class _Rescaled(Exception):
    """The first end met adds up to another total than the states where the lines stopped before
    it: their leads are valued again on the ends' scale."""


INF = math.inf


def alpha_beta(game: Game, *, max_states: int = MAX_STATES, rng=None, valued: Optional[Callable[[int], None]] = None,
               visit: Optional[Callable] = None, first_moves: bool = True, max_depth: Optional[int] = None,
               leaf: Optional[Callable] = None, deepened: Optional[Callable[[int, Optional[int]], None]] = None
               ) -> Valued:
    """The value of a two-player game whose returns add up to the same total at every end
    (NotConstantSum otherwise), searched with alpha-beta bounds and a table of the bounds found for
    each state; chance steps average their outcomes. A dead end (no legal move) is an end, valued by its returns.

    With `first_moves`, each move of the initial state is searched to its exact value (about twice
    the work of the initial state's value alone); below them the bounds prune. The best line takes,
    at each state, the first listed move as good for its mover (within TIE); where it meets a
    chance step it draws an outcome by weight with `rng`, or stops without one.

    With `max_depth`, the lines stop after that many steps (a chance outcome is one), where a state
    is valued by `leaf(s)` (each player's value) or without it by its returns, as solve's are: by
    player 0's lead over player 1, on the scale of the ends' returns (player 0's value where the
    two add up as an end's returns do; with ends of 1 and -1, a value of 3 to 1 is 1 and 1 to 1 is
    0); a state is then searched once for each depth it is met at. The search goes to depth 1,
    then 2, and so on to max_depth (iterative deepening), each trying first at each state the move
    that was best the depth before: the bounds then prune
    more of the deepest search than the shallower ones cost. Without `first_moves`, a depth at
    which every line searched reached its end is the last (the bounds that pruned the others are
    of ends, so deeper searches find the same value). `deepened(depth, i)` is told, after each
    depth before the last, the index of the initial state's best move there (what raises ends it).

    A state met again on the line that leads to it raises Cycle, a line of LINE_LIMIT moves or one
    deeper than the stack of calls Endless, and more than `max_states` states in the table
    TooManyStates. `valued(n)` is told how many states the table holds now and then; `visit(s,
    line)` each state as it first enters the table, `line()` giving the moves from the initial
    state to it."""
    if game.num_players != 2:
        raise ValueError(f"alpha-beta searches a game of two players, not {game.num_players}")
    table: dict = {}  # key -> [lower bound, upper bound, index of the best move or None] of player 0's return
    hints: dict = {}  # with max_depth: a state's key -> the index of its best move at the depth before
    on_line: dict = {}  # the key of each state on the line to the one searched -> how many moves in it is
    moves: list = []  # that line's moves
    total: list = []  # [the first end's total, its returns]
    cut: list = []  # the keys of states where max_depth stopped the lines
    killers: dict = {}  # a depth -> the label of the move that last cut the search of a state short there
    visits = 0
    states = 0  # the entries of the tables of the shallower depths
    deepest = max_depth  # max_depth is the depth of the search under way

    def end(s, stop: bool = False) -> float:
        """Player 0's return at an end, or with `stop` where the lines stop (its values by leaf): there
        player 0's value less player 1's, as a lead, on the scale of the ends' returns (player 0's
        value where the two add up as an end's returns do)."""
        r = tuple(leaf(s) if stop and leaf is not None else game.returns(s))
        t = r[0] + r[1]
        if not total:
            total[:] = [t, r, stop]
        same = abs(t - total[0]) <= TIE * max(1.0, abs(total[0]))
        if not stop and total[2]:  # the first end: the total of the ends, for the leads of the states valued before
            total[:] = [t, r, stop]
            if not same:
                raise _Rescaled
        elif not stop and not same:
            raise NotConstantSum(total[1], r, s)
        return r[0] if same else (r[0] - r[1] + total[0]) / 2

    def search(s, alpha: float, beta: float, depth: int = 0) -> float:
        """Player 0's return from s, `depth` steps in, under best play where it lies between alpha
        and beta; else a bound beyond the one it passes (fail-soft)."""
        nonlocal visits
        k = game.key(s) if max_depth is None else (game.key(s), depth)
        if k in on_line:
            raise Cycle(f"a state comes back after {len(moves) - on_line[k]} moves")
        visits += 1
        entry = table.get(k)
        if entry is None:
            if max_depth is None and len(moves) >= LINE_LIMIT:
                raise Endless(list(moves))
            if len(table) >= max_states:
                last = list(table)[-max_states // 2:]
                raise TooManyStates(max_states, last if max_depth is None else [key for key, _ in last])
            entry = table[k] = [-INF, INF, None]
            if visit is not None:
                visit(s, lambda: list(moves))
            if valued is not None and len(table) % 4096 == 0:
                valued(len(table))
        else:
            lo, hi = entry[0], entry[1]
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        player = None if game.is_terminal(s) else game.current_player(s)
        if max_depth is not None and depth >= max_depth:  # where the lines stop: the ways on are not listed
            if on := player is not None and (player == CHANCE or has_move(game, s)):
                cut.append(k)  # a line stopped before its end
            entry[0] = entry[1] = x = end(s, on)
            return x
        ways = () if player is None else game.chance_outcomes(s) if player == CHANCE else game.legal_moves(s)
        if not ways:
            entry[0] = entry[1] = x = end(s)
            return x
        on_line[k] = len(moves)
        try:
            if player == CHANCE:
                x = 0.0
                for m, p in ways:
                    moves.append(m)
                    x += p * search(game.apply(s, m), -INF, INF, depth + 1)
                    moves.pop()
                entry[0] = entry[1] = x
                return x
            first = entry[2] if entry[2] is not None or max_depth is None else hints.get(k[0])
            kids = [game.apply(s, m) for m in ways]
            known = [table.get(game.key(t) if max_depth is None else (game.key(t), depth + 1)) for t in kids]
            for i, e in enumerate(known):  # a child whose bound alone cuts off: enhanced transposition cutoff
                if e is not None and (e[0] >= beta if player == 0 else e[1] <= alpha):
                    x = e[0] if player == 0 else e[1]
                    if player == 0:
                        entry[0] = max(entry[0], x)
                    else:
                        entry[1] = min(entry[1], x)
                    entry[2] = i
                    return x
            order = _ordered(game, ways, first, killers.get(depth))
            best, best_i = (-INF if player == 0 else INF), None
            for i in order:
                moves.append(ways[i])
                x = search(kids[i], alpha, beta, depth + 1)
                moves.pop()
                if (x > best) if player == 0 else (x < best):
                    best, best_i = x, i
                    if player == 0:
                        alpha = max(alpha, x)
                    else:
                        beta = min(beta, x)
                    if alpha >= beta:
                        killers[depth] = game.describe(ways[i])
                        break
        finally:
            del on_line[k]
        if best <= a0:
            entry[1] = min(entry[1], best)
        elif best >= b0:
            entry[0] = max(entry[0], best)
        else:
            entry[0] = entry[1] = best
        entry[2] = best_i
        if max_depth is not None and deepest != max_depth:
            hints[k[0]] = best_i
        return best

    def deepen():
        """Search to depth 1, 2, ... (the shallower depths for the order of the moves), then to the
        deepest: its value, the first moves' values (if asked), whether it is complete, a best line."""
        nonlocal max_depth, deepest, states
        root = game.initial_state()
        for max_depth in range(1, deepest or 0):
            search(root, -INF, INF)
            states += len(table)
            best_i = table[game.key(root), 0][2]
            table.clear()
            if not cut and not first_moves:  # every line searched ended: deeper, the value is the same
                deepest = max_depth
                break
            cut.clear()
            if deepened is not None:
                deepened(max_depth, best_i)
        max_depth = deepest
        first = _first_moves(game, root, search, moves) if first_moves and max_depth != 0 else []
        x = search(root, -INF, INF) if not first else \
            sum(p * v for _, v, p in first) if first[0][2] is not None else \
            (max if game.current_player(root) == 0 else min)(v for _, v, _ in first)
        complete = not cut  # the value's search (the best line's may go down other ways, with other bounds)
        return x, first, complete, _best_line(game, root, search, rng, max_depth)

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))  # a call a move, down lines of up to LINE_LIMIT moves
    deepest_asked = deepest
    try:
        try:
            try:
                x, first, complete, line = deepen()
            except _Rescaled:  # once: the states valued before the first end, again on its scale
                states += len(table)
                for kept in (table, hints, cut, killers, moves):
                    kept.clear()
                deepest = deepest_asked
                x, first, complete, line = deepen()
        except RecursionError:  # a call nested for each move of the line: too deep to follow
            raise Endless(list(moves), deep=True) from None
    finally:
        sys.setrecursionlimit(limit)
    t = total[0]
    return Valued((x, t - x), line, tuple((m, (v, t - v), p) for m, v, p in first), states + len(table), visits,
                  complete)


def _ordered(game: Game, ways, first: Optional[int], killer: Optional[str]) -> list:
    """The order to search the indices of ways in: `first` (the best move found before), then the
    move labelled `killer` (the one that last cut a search short at this depth: a move that refutes
    one line often refutes its neighbours), then the others as listed."""
    order = [i for i in range(len(ways)) if i != first]
    if killer is not None:
        for j, i in enumerate(order):
            if game.describe(ways[i]) == killer:
                order.insert(0, order.pop(j))
                break
    return order if first is None else [first, *order]


def _first_moves(game: Game, root, search: Callable, moves: list) -> list:
    """(move, player 0's exact return after it, probability or None) of each way on from root."""
    if game.is_terminal(root):
        return []
    player = game.current_player(root)
    ways = game.chance_outcomes(root) if player == CHANCE else [(m, None) for m in game.legal_moves(root)]
    out = []
    for m, p in ways:
        moves.append(m)
        out.append((m, search(game.apply(root, m), -INF, INF, 1), p))
        moves.pop()
    return out


def _best_line(game: Game, root, search: Callable, rng, max_depth: Optional[int] = None) -> list:
    """From root, the first listed move as good for its mover at each state (a chance outcome drawn
    by weight with rng; without rng the line stops there), to an end, LINE_LIMIT moves or
    `max_depth` steps."""
    line: list = []
    s = root
    while len(line) < (LINE_LIMIT if max_depth is None else max_depth) and not game.is_terminal(s):
        player = game.current_player(s)
        if player == CHANCE:
            if rng is None:
                break
            outcomes = game.chance_outcomes(s)
            m = outcomes[draw([w for _, w in outcomes], rng)][0]
            s = game.apply(s, m)
            line.append((m, s))
            continue
        ways = game.legal_moves(s)
        if not ways:
            break
        depth = len(line)
        v = search(s, -INF, INF, depth)
        close = TIE * max(1.0, abs(v))
        for m in ways:
            t = game.apply(s, m)
            if abs(search(t, v - close, v + close, depth + 1) - v) <= close:
                break
        s = t
        line.append((m, s))
    return line
