"""Values of a game that can come back to a state: value iteration over all its reachable states."""
from __future__ import annotations

import heapq
import math
from typing import Callable, Optional

import attrs

from .protocol import CHANCE, Game
from .budget import draw
from .solve import LINE_LIMIT, MAX_STATES, TIE, TooManyStates, key_and_totals, less, plus


@attrs.frozen
class FixedPoint:
    """What value iteration found."""

    distinct_states: int
    value: tuple  # returns per player under the best play found (expectation at chance)
    best_line: list  # [(move, state)] from the initial state, up to a chance step, an end or a repeat
    comes_back: bool  # the best line ends at a state it was in before
    sweeps: int
    change: float  # the largest change of a value in the last sweep
    converged: bool
    dead_ends: int = 0  # states that are not terminal where no move is legal, valued as ends
    first_moves: tuple = ()  # (move, its values, probability or None) of each way on from the initial state
    stuck: int = 0  # states from which no end can be reached
    trapped: int = 0  # of them, those where every step takes from the totals: valued -inf, kept out of
    part_sweeps: int = 0  # the most sweeps one part of the states took (see _sweeps)
    measured: tuple = ()  # with `measures`: each one's expected value at the end under the best play found
    best_lines: Optional[tuple] = None  # with `lines`: (their number, the first ones as moves) or None (see _lines)


_END, _MOVE, _CHANCE = 0, 1, 2
INF = math.inf


class Trapped(Exception):
    """Best play cannot keep out of states from which no end can be reached and where every step
    takes from the totals (a chance step leads there, say): the value has no bound below."""

    def __init__(self, trapped: int, states: int):
        super().__init__(f"{trapped:,} of {states:,} states lead to no end, and best play cannot keep out of them")
        self.trapped, self.states = trapped, states


class NoEnd(Exception):
    """No end can be reached from the initial state, and the game sets totals aside: its score is
    never reached, so there is no value to find (`states`: those found)."""

    def __init__(self, states: int):
        super().__init__(f"no end can be reached from the initial state ({states:,} states)")
        self.states = states


def iterate_values(game: Game, *, tolerance: float = 1e-12, max_sweeps: int = 100_000,
                   max_states: int = MAX_STATES,
                   found: Optional[Callable[[int], None]] = None,
                   swept: Optional[Callable[[int, float], None]] = None, rng=None,
                   decided: Optional[Callable] = None, visit: Optional[Callable] = None,
                   measures: tuple = (), lines: Optional[int] = None) -> FixedPoint:
    """Every state reachable from the initial one, then sweeps until no value changes by more
    than `tolerance`: each player maximises its own return, chance averages.

    Values start at 0, so a line that never ends is worth 0 to every player. An end, or a
    state with no legal moves, is worth its returns. A game that sets totals aside from whose
    initial state no end can be reached raises NoEnd before any sweep (its values would only grow
    or shrink); `stuck` counts the states from which no end can be reached. Where every step
    among those takes from the totals, they are valued -inf (`trapped`), so best play keeps out
    of them; Trapped where it cannot (the initial state's value is -inf).

    A game with `future_key` and `banked` (see search/protocol.py) is iterated over its future
    keys: each step is worth what it adds to the totals, and an end its returns less its totals,
    so a total that grows with every step, such as the turns taken, is valued as it comes (the
    expected number of turns of a game that can come back to a state). The values given to
    `decided` are then of what is still to come. `found(n)` is told the states found so
    far, `swept(k, change)` each sweep; more than `max_states` states raise TooManyStates.
    The best line goes on through chance steps with `rng`, as `solve`'s does. Once the values
    settle, `decided(s, move, values, None)` is told each state where a player moves, with the
    move its player takes there. `visit(s, line)` is told each state as it is found, `line()`
    giving the moves of a shortest line from the initial state to it; what it raises ends it.
    For one player where chance never moves and no step adds to the totals, the values are found
    backward from the ends first (`_backward`), so one sweep checks them. With `measures`
    (functions of a state), `measured` gives the expected value of each at the end when every
    player takes the move the values chose, found by sweeps with those moves fixed (a line that
    never ends adds 0); with totals set aside, a measure must not read them. With `lines` (a game
    of one player without chance), `best_lines` counts the lines of best play and lists the first
    `lines` of them (see _lines).
    """
    root = game.initial_state()
    key, banked = key_and_totals(game)
    index = {key(root): 0}
    states, kinds, links = [root], [], []
    dead = 0
    found_by = [None]  # (the finder's index, the move) of each state: a shortest line back to the root
    first_rewards: list = []  # with totals, what each way on from the initial state adds to them
    i = 0
    while i < len(states):  # breadth first: a state's index is larger than its finder's
        s = states[i]
        if visit is not None:
            visit(s, lambda at=i: _line_to(found_by, at))
        i += 1
        chance = game.current_player(s) == CHANCE
        terminal = game.is_terminal(s)
        if terminal:
            ways = ()
        else:
            ways = game.chance_outcomes(s) if chance else [(m, None) for m in game.legal_moves(s)]
        if i == 1:
            first_ways = list(ways)  # the initial state's, in the order of links[0]
        if not ways:  # an end, or a dead end without moves
            dead += not terminal
            returns = tuple(game.returns(s))
            kinds.append((_END, returns if banked is None else less(returns, banked(s))))
            links.append(())
            continue
        row, mean = [], None  # with totals, a chance step's expected reward
        for m, p in ways:
            t = game.apply(s, m)
            r = None if banked is None else less(banked(t), banked(s))  # what the step adds to the totals
            if i == 1:
                first_rewards.append(r)
            if chance and r is not None:
                mean = tuple(p * x + y for x, y in zip(r, mean or (0.0,) * len(r)))
            k = key(t)
            j = index.get(k)
            if j is None:
                if len(states) >= max_states:
                    raise TooManyStates(max_states, [game.key(t) for t in states[-max_states // 2:]])
                j = index[k] = len(states)
                states.append(t)
                if visit is not None:
                    found_by.append((i - 1, m))
                if found is not None and j % 4096 == 0:
                    found(j)
            row.append((j, p) if chance else (j, r))
        kinds.append((_CHANCE, mean) if chance else (_MOVE, game.current_player(s)))
        links.append(tuple(row))
    stuck = _stuck(kinds, links)
    if banked is not None and 0 in stuck:
        raise NoEnd(len(states))
    trapped = _trapped(kinds, links, stuck) if banked is not None else set()
    for i in trapped:  # worth -inf: an end of a kind, which best play keeps out of where it can
        kinds[i], links[i] = (_END, (-INF,) * game.num_players), ()
    n = game.num_players
    zero = (0.0,) * n
    values = [v if kind == _END else zero for kind, v in kinds]
    # found backward, the values need one sweep over all the states to check them; else the sweeps go a
    # part at a time
    parts = [[i for i in range(len(kinds) - 1, -1, -1) if kinds[i][0] != _END]] \
        if n == 1 and _backward(kinds, links, values) else _parts(kinds, links)
    policy = [0] * len(states)  # the child each mover takes; it changes only for a better one
    sweeps, change, most = _sweeps(kinds, links, values, policy, tolerance, max_sweeps, swept, n, improve=True,
                                   parts=parts)
    for _ in range(ROUNDS):
        if change > tolerance:
            break
        chosen = list(policy)
        _quickest(kinds, links, values, policy, tolerance, max_sweeps)
        if n == 1 or policy == chosen:
            break
        # another move as good for its mover may be worth otherwise to the other players: the values
        # of the moves now taken, then better moves where those values open any
        more, change, most = _sweeps(kinds, links, values, policy, tolerance, max_sweeps, swept, n, improve=False,
                                     done=sweeps, parts=parts)
        sweeps += more
        if change <= tolerance and not _better(kinds, links, values, policy, tolerance):
            break
        more, change, most = _sweeps(kinds, links, values, policy, tolerance, max_sweeps, swept, n, improve=True,
                                     done=sweeps, parts=parts)
        sweeps += more
    if decided is not None and change <= tolerance:
        for i, (kind, _) in enumerate(kinds):
            if kind == _MOVE:
                decided(states[i], game.legal_moves(states[i])[policy[i]], values[i], None)
    measured = _measured(states, kinds, links, policy, measures, tolerance, max_sweeps) if measures else ()
    line, comes_back = _line(game, states, kinds, links, policy, rng)
    best_lines = _lines(game, states, kinds, links, values, lines) if lines is not None else None
    first = tuple((m, values[j], p) for (m, p), (j, _) in zip(first_ways, links[0]))
    value = values[0]
    if banked is not None:  # the totals added back: the initial state's, and what each first way adds
        value = plus(value, banked(root))
        first = tuple((m, plus(plus(v, r), banked(root)), p) for (m, v, p), r in zip(first, first_rewards))
    if value[0] == -INF:
        raise Trapped(len(trapped), len(states))
    return FixedPoint(len(states), value, line, comes_back, sweeps, change, change <= tolerance, dead, first,
                      len(stuck), len(trapped), most, measured, best_lines)


def _lines(game: Game, states: list, kinds: list, links: list, values: list, most: int) -> Optional[tuple]:
    """(the number of lines of best play from the initial state, the first `most` of them as moves)
    of a game of one player: lines whose every move is worth its state's value (what it adds to
    the totals and the value it leads to), to an end. None where those moves can go round (a
    move that adds nothing and keeps the value, as any move of a puzzle valued only by reaching
    its goal: the lines have no end, nor a number) or meet a chance step."""
    def best(i) -> list:
        """(the index of the move among the state's, the state it leads to) of each best move of i."""
        top = values[i][0]
        close = TIE * max(1.0, abs(top))
        return [(c, j) for c, (j, r) in enumerate(links[i]) if values[j][0] + (0 if r is None else r[0]) >= top - close]
    ways: dict = {}
    order: list = []  # the states of the best moves, each after those it leads to
    on, stack = {0}, [(0, iter(()))]
    while stack:  # depth first, without recursion: a line of best play may be long
        i, rest = stack[-1]
        if i not in ways:
            if kinds[i][0] == _CHANCE:
                return None
            ways[i] = best(i) if kinds[i][0] == _MOVE else []
            stack[-1] = (i, iter(ways[i]))
            continue
        nxt = next(rest, None)
        if nxt is None:
            stack.pop()
            on.discard(i)
            order.append(i)
        elif nxt[1] in on:
            return None
        elif nxt[1] not in ways:
            on.add(nxt[1])
            stack.append((nxt[1], iter(())))
    count: dict = {}
    for i in order:
        count[i] = sum(count[j] for _, j in ways[i]) if ways[i] else 1
    found: list = []

    def walk(i, s, line: list):
        if len(found) >= most:
            return
        if not ways[i]:
            found.append(list(line))
        moves = game.legal_moves(s) if ways[i] else ()
        for c, j in ways[i]:
            walk(j, game.apply(s, moves[c]), line + [moves[c]])
    walk(0, states[0], [])
    return count[0], tuple(found)


def _measured(states: list, kinds: list, links: list, policy: list, measures: tuple, tolerance: float,
              max_sweeps: int) -> tuple:
    """The expected value of each measure at the end from the initial state, each mover taking its
    policy's move: the sweeps of the values with the measures for returns and nothing added on
    the way."""
    ends = [(_END, tuple(float(f(states[i])) for f in measures)) if kind == _END else None
            for i, (kind, _) in enumerate(kinds)]
    mkinds = [end or ((kind, None) if kind == _CHANCE else (kind, 0)) for end, (kind, _) in zip(ends, kinds)]
    mlinks = [tuple(row) if kind == _CHANCE else tuple((j, None) for j, _ in row)
              for (kind, _), row in zip(kinds, links)]
    zero = (0.0,) * len(measures)
    values = [end[1] if end else zero for end in ends]
    _sweeps(mkinds, mlinks, values, list(policy), tolerance, max_sweeps, None, len(measures), improve=False,
            parts=_parts(kinds, links))
    return values[0]


def _stuck(kinds: list, links: list) -> set:
    """The states from which no end can be reached."""
    before: list = [[] for _ in kinds]  # the states each state is a way on from
    for i, row in enumerate(links):
        for j, _ in row:
            before[j].append(i)
    reach = {i for i, (kind, _) in enumerate(kinds) if kind == _END}
    todo = list(reach)
    while todo:
        for i in before[todo.pop()]:
            if i not in reach:
                reach.add(i)
                todo.append(i)
    return set(range(len(kinds))) - reach


def _trapped(kinds: list, links: list, stuck: set) -> set:
    """The states from which no end can be reached (`stuck`, a set no way leaves) when every step
    among them takes from the totals (a move less than 0, a chance step 0 or less on average and
    leading to no chance step), so that their values only fall, without bound; else none."""
    for i in stuck:
        kind, x = kinds[i]
        if kind == _MOVE and not all(r is not None and r[0] < 0 for _, r in links[i]):
            return set()
        if kind == _CHANCE and (x is not None and x[0] > 0 or any(kinds[j][0] == _CHANCE for j, _ in links[i])):
            return set()
    return stuck


def _backward(kinds: list, links: list, values: list) -> bool:
    """For one player where chance never moves and no step adds to the totals, the values the sweeps
    settle at, found at once backward from the ends, best first (Dijkstra's way): a state is worth
    the best of what its lines to an end are worth and, where from it a line can go on for ever
    without a step that takes from the totals, 0 (the sweeps' start, which such a line keeps), less
    what the steps on the way take. Values left as they were where that is not the game, or where
    a state would have none (no end and no such line: the sweeps do not settle there). Whether it
    found them."""
    if any(kind == _CHANCE for kind, _ in kinds) or \
            any(r is not None and r[0] > 0 for row in links for _, r in row):
        return False
    before: list = [[] for _ in kinds]  # (the state each step is from, what it adds) into each state
    free = [0] * len(kinds)  # the steps from each state that take nothing, to a state that is no end
    for i, row in enumerate(links):
        for j, r in row:
            before[j].append((i, r))
            free[i] += (r is None or r[0] == 0) and kinds[j][0] != _END
    # the states from which a line can go on for ever taking nothing: those left once every state
    # whose steps that take nothing all lead to states without such a line is taken away
    todo = [i for i, (kind, _) in enumerate(kinds) if kind != _END and free[i] == 0]
    cut = set(todo)
    while todo:
        for i, r in before[todo.pop()]:
            if (r is None or r[0] == 0) and i not in cut:
                free[i] -= 1
                if free[i] == 0:
                    cut.add(i)
                    todo.append(i)
    best = [v[0] if kind == _END else -INF if i in cut else 0.0 for i, (kind, v) in enumerate(kinds)]
    heap = [(-b, i) for i, b in enumerate(best) if b > -INF]
    heapq.heapify(heap)
    done = [False] * len(kinds)
    while heap:
        b, j = heapq.heappop(heap)
        if done[j]:
            continue
        done[j] = True
        for i, r in before[j]:
            if not done[i] and kinds[i][0] != _END:
                v = -b if r is None else -b + r[0]
                if v > best[i]:
                    best[i] = v
                    heapq.heappush(heap, (-v, i))
    if any(b == -INF and kind != _END for b, (kind, _) in zip(best, kinds)):
        return False
    for i, (kind, _) in enumerate(kinds):
        if kind != _END:
            values[i] = (best[i],)
    return True


def _via(values: list, j: int, r: Optional[tuple]) -> tuple:
    """The values a move to state j gives its mover's state: j's, plus what the move adds to the
    totals (r) where the game sets them aside."""
    return values[j] if r is None else plus(values[j], r)


ROUNDS = 20
"""How often value iteration may take the quickest of the moves as good and sweep again, when with
several players that choice changes what the others get (it settles in one or two)."""


def _parts(kinds: list, links: list) -> list:
    """The states that are no ends in parts that no line leaves and comes back to (the strongly
    connected components of the ways on), each part after every part its ways lead to, and in a
    part the deepest state (the last found) first. Tarjan's algorithm, without recursion."""
    index = [-1] * len(kinds)  # the order each state was reached in
    low = [0] * len(kinds)
    on: list = []  # the states reached whose part is not yet known
    held = [False] * len(kinds)
    parts, count = [], 0
    for root in range(len(kinds) - 1, -1, -1):
        if index[root] >= 0 or kinds[root][0] == _END:
            continue
        index[root] = low[root] = count
        count += 1
        on.append(root)
        held[root] = True
        stack = [(root, iter(links[root]))]
        while stack:
            i, ways = stack[-1]
            for j, _ in ways:
                if kinds[j][0] == _END:
                    continue
                if index[j] < 0:
                    index[j] = low[j] = count
                    count += 1
                    on.append(j)
                    held[j] = True
                    stack.append((j, iter(links[j])))
                    break
                if held[j] and index[j] < low[i]:
                    low[i] = index[j]
            else:
                stack.pop()
                if stack and low[i] < low[stack[-1][0]]:
                    low[stack[-1][0]] = low[i]
                if low[i] == index[i]:  # i and the states above it on `on` make a part
                    part = []
                    while True:
                        j = on.pop()
                        held[j] = False
                        part.append(j)
                        if j == i:
                            break
                    parts.append(part)
    return parts


def _sweeps(kinds: list, links: list, values: list, policy: list, tolerance: float, max_sweeps: int,
            swept: Optional[Callable], n: int, improve: bool, parts: list, done: int = 0) -> tuple:
    """Sweeps until no value changes by more than tolerance: chance averages, and each mover takes
    its policy's move, or with `improve` a better one for it when there is one (by more than
    tolerance); each adds what its step adds to the totals, where the game sets them aside. The
    states are swept a part at a time (`parts`, as `_parts` makes them), each part after those it
    leads to, so values settle where the lines cannot come back before they are carried up; a part
    of one state without a way back to itself takes one sweep. (the sweeps of every state that as
    many values worked out would take, rounded up; the largest change of a value in the last sweep
    of each part; the most sweeps a part took)."""
    states = sum(len(part) for part in parts) or 1
    worked, largest, most = 0, 0.0, 0  # the values worked out, the largest last change, the most sweeps
    for part in parts:
        ways_back = len(part) > 1 or any(j == part[0] for j, _ in links[part[0]])
        sweeps, change = _sweep_part(kinds, links, values, policy, tolerance, max_sweeps if ways_back else 1,
                                     part, n, improve)
        worked, most = worked + sweeps * len(part), max(most, sweeps)
        if ways_back:
            largest = max(largest, change)
            if swept is not None and sweeps > 1:
                swept(done + -(-worked // states), change)
    if swept is not None:
        swept(done + -(-worked // states), largest)
    return -(-worked // states), largest, most


def _sweep_part(kinds: list, links: list, values: list, policy: list, tolerance: float, max_sweeps: int,
                part: list, n: int, improve: bool) -> tuple:
    """The sweeps of `_sweeps` over the states of one part: (sweeps, change)."""
    sweeps, change = 0, 0.0
    # the states, the deepest first: (index, chance or not, its mover, its links)
    order = [(i, kinds[i][0] == _CHANCE, kinds[i][1], links[i]) for i in part]
    players = range(n)
    two = n == 2  # the same sums, written out for two players (the most common, and the loops cost)
    while sweeps < max_sweeps:
        sweeps += 1
        change = 0.0
        for i, chance, who, link in order:
            if chance and two:
                a, b = (0.0, 0.0) if who is None else who
                for j, p in link:
                    x = values[j]
                    a += p * x[0]
                    b += p * x[1]
                v = (a, b)
            elif chance:  # `who`: the expected reward of the step, or None
                acc = [0.0] * n if who is None else list(who)
                for j, p in link:
                    x = values[j]
                    for q in players:
                        acc[q] += p * x[q]
                v = tuple(acc)
            else:
                c = policy[i]
                j, r = link[c]
                v = values[j] if r is None else plus(values[j], r)
                if improve:
                    best = v[who] + tolerance
                    for k, (j, r) in enumerate(link):
                        if (x := values[j] if r is None else plus(values[j], r))[who] > best:
                            c, v = k, x
                            best = v[who] + tolerance
                    policy[i] = c
            was = values[i]
            if two:
                d, e = abs(v[0] - was[0]), abs(v[1] - was[1])
                if d > change:
                    change = d
                if e > change:
                    change = e
            else:
                for q in players:
                    d = v[q] - was[q]
                    if d > change or -d > change:
                        change = abs(d)
            values[i] = v
        if change <= tolerance:
            break
    return sweeps, change


def _better(kinds: list, links: list, values: list, policy: list, tolerance: float) -> bool:
    """Whether a mover has a move better for it than its policy's (by more than tolerance)."""
    for i, (kind, who) in enumerate(kinds):
        if kind == _MOVE:
            taken = _via(values, *links[i][policy[i]])[who]
            if any(_via(values, j, r)[who] > taken + tolerance for j, r in links[i]):
                return True
    return False


def _line_to(found_by: list, i: int) -> list:
    """The moves from the initial state to state i, as the breadth-first walk found it."""
    line = []
    while found_by[i] is not None:
        i, m = found_by[i]
        line.append(m)
    return line[::-1]


def _quickest(kinds: list, links: list, values: list, policy: list, tolerance: float, max_sweeps: int):
    """Of the moves as good for their mover (within tolerance), those after which the mover's value
    is at least every other player's come first (as `solve` prefers a win). A mover with such
    moves (winning) takes the one that ends the game soonest; one without (losing) holds out, as
    in the exhaustive solve: the one that ends it latest, of those that end it at all (a latest
    end could be no end here; none ending, the first). The first listed of moves as quick is
    taken. The moves to an end are counted so too, as a retrograde analysis counts them, so a
    winner's moves make progress against any defence instead of going round with a loser that
    shuffles. A chance step counts by the mean of its outcomes. Sweeps of the moves to an end
    over those moves alone, from none known, until no count changes by more than tolerance."""
    inf = float("inf")
    good = []  # each mover's moves as good, and whether it hurries (it is winning)
    for i, (kind, who) in enumerate(kinds):
        if kind == _MOVE:
            after = [_via(values, j, r) for j, r in links[i]]
            top = max(v[who] for v in after)
            tied = [k for k, v in enumerate(after) if v[who] >= top - tolerance]
            winning = [k for k in tied if all(after[k][who] >= x - tolerance for x in after[k])]
            good.append((winning or tied, bool(winning)))
        else:
            good.append(None)
    left = [0.0 if kind == _END else inf for kind, _ in kinds]
    hurried = all(chosen is not None and chosen[1] for chosen, (kind, _) in zip(good, kinds) if kind != _END)
    if hurried:  # every mover takes the fewest, and chance never moves: counted at once
        _fewest(kinds, links, good, left)
    for _ in range(0 if hurried else max_sweeps):
        change = 0.0
        for i in range(len(kinds) - 1, -1, -1):
            kind = kinds[i][0]
            if kind == _END:
                continue
            if kind == _CHANCE:
                n = 1 + sum(p * left[j] for j, p in links[i])
            else:
                ks, hurries = good[i]
                n = 1 + (min if hurries else max)(left[links[i][k][0]] for k in ks)
            if n < left[i]:
                change = max(change, left[i] - n)  # inf - n: a first way to an end
                left[i] = n
        if change <= tolerance:
            break
    for i, chosen in enumerate(good):
        if chosen is not None:
            ks, hurries = chosen
            ending = [k for k in ks if left[links[i][k][0]] < inf]
            policy[i] = min(ks, key=lambda k: left[links[i][k][0]]) if hurries or not ending else \
                max(ending, key=lambda k: left[links[i][k][0]])


def _fewest(kinds: list, links: list, good: list, left: list) -> None:
    """The fewest moves to an end, over the moves as good alone, where every mover takes the
    fewest: breadth first backward from the ends (what the sweeps of `_quickest` settle at)."""
    before: list = [[] for _ in kinds]
    for i, chosen in enumerate(good):
        if chosen is not None:
            for k in chosen[0]:
                before[links[i][k][0]].append(i)
    layer = [i for i, (kind, _) in enumerate(kinds) if kind == _END]
    while layer:
        nxt = []
        for j in layer:
            for i in before[j]:
                if left[i] == math.inf:
                    left[i] = left[j] + 1
                    nxt.append(i)
        layer = nxt


def _line(game: Game, states: list, kinds: list, links: list, policy: list, rng=None) -> tuple:
    """The best moves from the initial state on, up to an end, a state the best moves come back
    to, or a chance step (with rng, an outcome drawn by its weight instead), and whether the best
    moves came back to a state. At most LINE_LIMIT moves. The moves are listed in the line's own
    states, which hold their own totals where the game sets them aside (states[i] is the first
    state found with i's future key)."""
    line, i, seen, s = [], 0, {0}, states[0]
    while len(line) < LINE_LIMIT:
        kind = kinds[i][0]
        if kind == _MOVE:
            c = policy[i]
            m = game.legal_moves(s)[c]
        elif kind == _CHANCE and rng is not None:
            c = draw([p for _, p in links[i]], rng)
            m = game.chance_outcomes(s)[c][0]
            if len(links[i]) > 1:  # a state met again after a roll is not the best moves going round
                seen = set()       # (after a roll of one outcome, it is)
        else:
            break
        j = links[i][c][0]
        s = game.apply(s, m)
        line.append((m, s))
        if j in seen:
            return line, True
        seen.add(j)
        i = j
    return line, False
