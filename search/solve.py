"""Exhaustive solve over the game's DAG, with a transposition table keyed by game.key (or, where
the game has them, by future_key, the totals so far set aside: see search/protocol.py)."""
from __future__ import annotations

import operator
import sys
from collections import Counter
from typing import Callable, Optional, Sequence

import attrs

from .budget import draw
from .protocol import CHANCE, Game


@attrs.frozen
class Solution:
    """What an exhaustive solve found."""

    paths_per_depth: list
    distinct_states: int
    terminal_paths: int
    outcomes: dict  # returns vector -> number of terminal paths
    value: tuple  # returns per player under optimal play (expectation at chance nodes)
    best_line: list  # [(move, state)] from the initial state
    complete: bool  # False when the depth limit cut the game short
    dead_ends: int = 0  # states that are not terminal where no move is legal, valued as ends
    first_moves: tuple = ()  # (move, its values, probability or None) of each way on from the initial state
    # with `lines`: (how many lines best play may take, up to `lines` of them as moves, how many of them end
    # at the value: with several players, all but where a move as good for its mover is worse for another)
    best_lines: tuple = ()
    measured: tuple = ()  # with `measures`: each one's expected value at the end under the best play found
    # of a whole game: the moves from the start to the end along best play after each of first_moves (a chance
    # step counting the mean of its outcomes'), in the same order
    first_lengths: tuple = ()


class Cycle(Exception):
    """The game can come back to a state it was in, so without a depth limit it has no end to
    solve to as a DAG (value iteration values it instead)."""


class Endless(Exception):
    """A line of play goes on for LINE_LIMIT moves without ending or coming back to a state (a
    count that grows forever), so without a depth limit it has no end to solve to; or (`deep`)
    it goes deeper than the stack of calls solve nests, one a move: `line`, its moves."""

    def __init__(self, line: list, deep: bool = False):
        super().__init__(f"a line goes on past {len(line)} moves")
        self.line = line
        self.deep = deep  # the line ran out of the stack of nested calls before any limit


class TooManyStates(Exception):
    """More states than the solver may hold in memory: `limit`. `keys`: the keys (game.key) of
    the states found last, to see what keeps making new ones."""

    def __init__(self, limit: int, keys: Sequence = ()):
        super().__init__(f"more than {limit:,} states")
        self.limit = limit
        self.keys = keys


MAX_STATES = 2_000_000
"""The most states solve and value iteration hold unless told otherwise."""

TIE = 1e-9
"""Values within this (relative to their size) are as good: 0.1 * 6 and six sums of 0.1 differ
in their last bits, and the first listed of moves as good is the one taken."""

LINE_LIMIT = 1_000
"""The longest line `solve` follows without a depth limit before it calls the game endless."""


def solve(game: Game, *, max_depth: Optional[int] = None, max_states: int = MAX_STATES,
          progress: Optional[Callable[[int, int, int], None]] = None,
          valued: Optional[Callable[[int], None]] = None, rng=None,
          decided: Optional[Callable] = None, visit: Optional[Callable] = None,
          leaf: Optional[Callable] = None, lines: Optional[int] = None,
          measures: Sequence[Callable] = ()) -> Solution:
    """Count paths layer by layer, and back up values over the DAG. The best line stops at a
    chance step, or with `rng` goes on through it, each outcome drawn by its weight: one way
    the game may go under best play. With max_depth, a state the lines stop at before the game
    is over is valued by `leaf(s)` (each player's value), or without it by its returns.

    A path ends at a terminal state or at a state with no legal moves; such a
    dead end counts as a terminal path with the state's returns. Without
    max_depth the values come first, so a game that can come back to a state
    raises Cycle, and one with a line of LINE_LIMIT moves raises Endless,
    before the layers (which would never end) are counted, over the ways on
    the values recorded (the moves of each state are listed once);
    `valued(n)` tells how many states have their value so far, and `decided(s, move, values,
    depth)` each state where a player moves, once, with the best move there (depth None without
    max_depth). `visit(s, line)` is told each state the values go through before its moves are
    listed, `line()` giving the moves from the initial state to it; what it raises ends the solve.
    More than `max_states` states (each valued state, and each state of the layers, is held in
    memory) raise TooManyStates.

    With `lines` (a game without chance, solved whole), `best_lines` gives how many lines from
    the initial state take only moves as good for their mover as its best (every solution of a
    puzzle), and the first `lines` of them in the order of the moves (0: the count alone).

    With `measures` (functions of a state, a game solved whole), `measured` gives the expected
    value of each at the end of the game when every player takes the moves the solve chose (as
    its best line does), chance weighing the outcomes: how often the dealer busts under best play.
    """
    root = game.initial_state()
    if max_depth is None:
        value, line, memo, dead = _values(game, root, None, max_states, valued, rng, decided, visit)
        key, banked = key_and_totals(game)
        paths, states, ends, outcomes = _paths_through(memo, key(root), progress)
        # with totals set aside, the ends of merged states hold what was still to come, not a return
        return Solution(paths, states, ends, outcomes if banked is None else {}, value, line, True, len(dead),
                        _first_moves(game, root, memo, None),
                        _best_lines(game, root, memo, lines) if lines is not None else (),
                        _expected(game, root, memo, measures) if measures else (),
                        _first_lengths(game, root, memo))
    layer = {game.key(root): (root, 1)}
    seen = {game.key(root)}
    paths = [1]
    terminal_paths = 0
    outcomes: Counter = Counter()
    depth = 0
    complete = True
    while layer:
        nxt: dict = {}
        for s, count in layer.values():
            if game.is_terminal(s):
                terminal_paths += count
                outcomes[game.returns(s)] += count
                continue
            if not _has_ways(game, s, listed=depth < max_depth):
                terminal_paths += count
                outcomes[game.returns(s)] += count
                continue
            if depth >= max_depth:
                complete = False
                continue
            for _, t, _ in _children(game, s):
                k = game.key(t)
                if k in nxt:
                    nxt[k] = (nxt[k][0], nxt[k][1] + count)
                else:
                    nxt[k] = (t, count)
        if not nxt:
            break
        depth += 1
        paths.append(sum(c for _, c in nxt.values()))
        seen.update(nxt)
        if len(seen) > max_states:
            raise TooManyStates(max_states, list(nxt))
        layer = nxt
        if progress is not None:
            progress(depth, paths[-1], len(seen))
    value, line, memo, dead = _values(game, root, max_depth, max_states, valued, rng, decided, visit, leaf)
    return Solution(paths, len(seen), terminal_paths, dict(outcomes), value, line, complete, len(dead),
                    _first_moves(game, root, memo, max_depth, leaf))


def _best_lines(game: Game, root, memo: dict, most: int) -> tuple:
    """(the number of lines of best play from root, the first `most` of them as moves, the number of
    them that end at root's value): lines whose every move is as good for its mover as the best
    there, by the values of a whole solve's memo."""
    key, banked = key_and_totals(game)

    def value(s) -> tuple:
        v = memo[key(s)][0]
        return v if banked is None else plus(v, banked(s))

    def best(s) -> list:
        """The moves of s as good for its mover as its best, with the states they lead to."""
        if game.is_terminal(s):
            return []
        p, top = game.current_player(s), value(s)[game.current_player(s)]
        close = TIE * max(1.0, abs(top))
        return [(m, t) for m, t, _ in _children(game, s) if value(t)[p] >= top - close]

    counts: dict = {}
    top = value(root)

    def count(s) -> tuple:
        """(the lines of best play from s, those of them that end at root's value)."""
        k = key(s)
        if k not in counts:
            ways = best(s)
            if ways:
                below = [count(t) for _, t in ways]
                counts[k] = (sum(n for n, _ in below), sum(n for _, n in below))
            else:
                counts[k] = (1, int(all(abs(x - y) <= TIE * max(1.0, abs(y)) for x, y in zip(value(s), top))))
        return counts[k]
    found: list = []

    def walk(s, line: list):
        if len(found) >= most:
            return
        ways = best(s)
        if not ways:
            found.append(list(line))
        for m, t in ways:
            walk(t, line + [m])
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))  # a call a move, down lines of up to LINE_LIMIT moves
    try:
        walk(root, [])
        total, at_value = count(root)
        return total, tuple(found), at_value
    finally:
        sys.setrecursionlimit(limit)


def _first_moves(game: Game, root, memo: dict, max_depth: Optional[int], leaf: Optional[Callable] = None) -> tuple:
    """(move, values, probability or None) of each way on from the initial state, in the order
    they are listed, with the values the solve gave the state each leads to; none where the
    lines stop at the initial state (depth 0) or the game does not go on from it."""
    if game.is_terminal(root) or not _has_ways(game, root):
        return ()
    key, banked = key_and_totals(game, leaf)
    entries = [(m, t, memo.get(key(t) if max_depth is None else (key(t), 1)), p) for m, t, p in _children(game, root)]
    return tuple((m, e[0] if banked is None else plus(e[0], banked(t)), p) for m, t, e, p in entries
                 if isinstance(e, tuple))


def _first_lengths(game: Game, root, memo: dict) -> tuple:
    """The moves from root to the end along best play after each way on from it (as _first_moves
    lists them), by a whole solve's memo: one for the move and those the memo holds after it."""
    if game.is_terminal(root) or not _has_ways(game, root):
        return ()
    key, _ = key_and_totals(game)
    entries = [memo.get(key(t)) for _, t, _ in _children(game, root)]
    return tuple(1 + e[2] for e in entries if isinstance(e, tuple))


def _expected(game: Game, root, memo: dict, measures: Sequence[Callable]) -> tuple:
    """The expected value of each measure at the end of the game from root, each player taking the
    move the solve chose (memo holds its index among the legal moves), chance weighing its
    outcomes; a dead end is an end. Each state is measured once (by game.key: the totals a
    future key sets aside may be what is measured)."""
    key, _ = key_and_totals(game)
    done: dict = {}
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))

    def at(s) -> tuple:
        k = game.key(s)
        v = done.get(k)
        if v is not None:
            return v
        player = None if game.is_terminal(s) else game.current_player(s)
        if player == CHANCE:
            outcomes = game.chance_outcomes(s)
            each = [at(game.apply(s, m)) for m, _ in outcomes]
            v = tuple(sum(p * x[i] for (_, p), x in zip(outcomes, each)) for i in range(len(measures)))
        else:
            best_i = None if player is None else memo[key(s)][1]
            v = tuple(f(s) for f in measures) if best_i is None else at(game.apply(s, game.legal_moves(s)[best_i]))
        done[k] = v
        return v
    try:
        return at(root)
    finally:
        sys.setrecursionlimit(limit)


def _has_ways(game: Game, s, listed: bool = True) -> bool:
    """Whether a state that is not terminal goes on: chance moves there, or a move is legal (found
    without listing the moves unless they are `listed` already)."""
    return game.current_player(s) == CHANCE or (bool(game.legal_moves(s)) if listed else has_move(game, s))


def has_move(game: Game, s) -> bool:
    """Whether a player to move at s has a legal move: found without listing them all where the game
    can stop at the first (`legal_moves_within`), as at the states where the lines stop at a depth."""
    within = getattr(game, "legal_moves_within", None)
    if within is None:
        return bool(game.legal_moves(s))
    got = within(s, 0)
    return got is None or bool(got)


def _children(game: Game, s) -> list:
    """(move, next state, probability or None) for every way on from s."""
    if game.current_player(s) == CHANCE:
        return [(m, game.apply(s, m), p) for m, p in game.chance_outcomes(s)]
    return [(m, game.apply(s, m), None) for m in game.legal_moves(s)]


def _values(game: Game, root, max_depth: Optional[int], max_states: int,
            valued: Optional[Callable[[int], None]] = None, rng=None, decided: Optional[Callable] = None,
            visit: Optional[Callable] = None, leaf: Optional[Callable] = None):
    """Back up returns over the DAG: each player maximises its own, chance averages. Without
    max_depth, a state met again on the line that leads to it raises Cycle. Of the moves as good
    for the mover, those after which the mover's value is at least every other player's come
    first, and of them the one that ends soonest (the quickest win); without such a move, the
    one that ends latest (the longest defence); of those as long, the first listed. A line's
    length counts a chance step by the mean length of its outcomes. With three players or more
    the other players' values, and so the value of the game, depend on this choice."""
    # (key, depth), or without max_depth the key alone -> (values, the best move's index or None,
    # moves to the end, the memo keys of the ways on without max_depth (for counting paths; () at
    # an end), the memo key itself)
    # A state on the line to the one being valued is in memo too, as the number of moves into the
    # line it is (an int), until it is valued: one lookup a visit tells both.
    # A game with `future_key` and `banked` (optional in the protocol) holds running totals that
    # nothing but its returns reads: the memo is keyed by the future key and holds the values less
    # the totals so far, which are added back to the values given out.
    memo: dict = {}
    key, banked = key_and_totals(game, leaf)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    moves: list = []  # the line to the state being valued
    dead: set = set()  # the keys of the dead ends met
    cut: set = set()  # with max_depth, the memo keys whose best line stops at the depth, not at an end

    def value(s, depth):
        """(s's values, the moves from s to the end along the best line, its memo key as the memo
        holds it)."""
        k = key(s) if max_depth is None else (key(s), depth)
        hit = memo.get(k)
        if hit is not None:
            if hit.__class__ is int:
                raise Cycle(f"a state comes back after {len(moves) - hit} moves")
            v, _, length, _, k = hit
            return (v if banked is None else plus(v, banked(s))), length, k
        if max_depth is None and len(moves) >= LINE_LIMIT:
            raise Endless(list(moves))
        if len(memo) >= max_states:  # those valued and those on the line to s
            last = list(memo)[-max_states // 2:]
            raise TooManyStates(max_states, last if max_depth is None else [key for key, _ in last])
        if visit is not None:
            visit(s, lambda: list(moves))
        # the player to move and the ways on, each asked of the game once
        player = None if game.is_terminal(s) else game.current_player(s)
        if max_depth is not None and depth >= max_depth:  # where the lines stop: the ways on are not listed
            ways = player is not None and (player == CHANCE or has_move(game, s))
        else:
            ways = () if player is None else game.chance_outcomes(s) if player == CHANCE else game.legal_moves(s)
        if player is not None and not ways:
            dead.add(k if max_depth is None else k[0])
        if not ways or ways is True:  # an end, or where the lines stop
            if ways:
                cut.add(k)
            v = tuple(game.returns(s)) if not ways or leaf is None else tuple(leaf(s))
            memo[k] = (v if banked is None else less(v, banked(s)), None, 0, (), k)
            return v, 0, k
        children = [(m, game.apply(s, m), p) for m, p in ways] if player == CHANCE else \
            [(m, game.apply(s, m), None) for m in ways]
        memo[k] = len(moves)
        vals = []
        for m, t, _ in children:
            moves.append(m)
            vals.append(value(t, depth + 1))
            moves.pop()
        if valued is not None and len(memo) % 4096 == 0:
            valued(len(memo))
        kids = tuple(c for _, _, c in vals) if max_depth is None else None
        if children[0][2] is not None:
            v = tuple(sum(p * x[i] for (_, _, p), (x, _, _) in zip(children, vals)) for i in range(game.num_players))
            length = 1 + sum(p * n for (_, _, p), (_, n, _) in zip(children, vals))
            memo[k] = (v if banked is None else less(v, banked(s)), None, length, kids, k)
            if cut and any(c in cut for _, _, c in vals):
                cut.add(k)
            return v, length, k
        top = max(v[player] for v, _, _ in vals)
        close = TIE * max(1.0, abs(top))  # values as good: equal but for the rounding of sums of chances
        tied = [i for i, (v, _, _) in enumerate(vals) if v[player] >= top - close]
        winning = [i for i in tied if all(vals[i][0][player] >= x - close for x in vals[i][0])]
        # winning: the soonest end (a line that reaches one before one cut at the depth); else the
        # latest; whichever of the tied moves is listed first
        best_i = min(winning, key=lambda i: (vals[i][2] in cut, vals[i][1])) if winning else \
            min(tied, key=lambda i: -vals[i][1])
        best, length, c = vals[best_i]
        if c in cut:
            cut.add(k)
        memo[k] = (best if banked is None else less(best, banked(s)), best_i, length + 1, kids, k)
        if decided is not None:
            decided(s, children[best_i][0], best, None if max_depth is None else depth)
        return best, length + 1, k

    try:
        try:
            v, _, _ = value(root, 0)
        except RecursionError:  # a call nested for each move of the line: too deep to follow
            raise Endless(list(moves), deep=True) from None
        line = []
        s, depth = root, 0
        while len(line) < LINE_LIMIT:
            k = key(s) if max_depth is None else (key(s), depth)
            best_i = memo.get(k, (None, None))[1]
            if best_i is not None:
                m = game.legal_moves(s)[best_i]
            elif rng is not None and k in memo and (max_depth is None or depth < max_depth) and \
                    not game.is_terminal(s) and game.current_player(s) == CHANCE:
                outcomes = game.chance_outcomes(s)
                m = outcomes[draw([w for _, w in outcomes], rng)][0]
            else:
                break
            s = game.apply(s, m)
            depth += 1
            line.append((m, s))
    finally:
        sys.setrecursionlimit(limit)
        value = None  # value is in its own closure: a cycle that would keep memo until a full collection
    return v, line, memo, dead


def key_and_totals(game: Game, leaf: Optional[Callable] = None) -> tuple:
    """(the memo key of a state, its totals so far or None): `future_key` and `banked` where the
    game has them, else its key alone; its key alone too where the lines stop at `leaf`'s values
    (a heuristic, which may read the totals otherwise than the score adds them)."""
    future = getattr(game, "future_key", None)
    return (game.key, None) if future is None or leaf is not None else (future, game.banked)


def plus(a: tuple, b: tuple) -> tuple:
    return tuple(map(operator.add, a, b))


def less(a: tuple, b: tuple) -> tuple:
    return tuple(map(operator.sub, a, b))


def _paths_through(memo: dict, root, progress) -> tuple:
    """(paths per depth, distinct states, terminal paths, outcomes), counted layer by layer over
    the ways on that the values of a whole game recorded in its memo."""
    layer = {root: 1}
    seen = {root}
    paths = [1]
    terminal_paths = 0
    outcomes: Counter = Counter()
    while True:
        nxt: dict = {}
        for k, count in layer.items():
            v, _, _, kids, _ = memo[k]
            if not kids:
                terminal_paths += count
                outcomes[v] += count
            for c in kids:
                nxt[c] = nxt.get(c, 0) + count
        if not nxt:
            return paths, len(seen), terminal_paths, dict(outcomes)
        paths.append(sum(nxt.values()))
        seen.update(nxt)
        layer = nxt
        if progress is not None:
            progress(len(paths) - 1, paths[-1], len(seen))
