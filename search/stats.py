"""Legal moves per decision and distinct states by depth (exact while small, sampled after)."""
from __future__ import annotations

import random
from typing import Callable, Optional

import attrs

from .budget import sample_outcome
from .protocol import CHANCE
from .solve import key_and_totals


REMEMBERED = 8
"""Depths whose states stats keeps, to see the states of a depth come back."""


@attrs.frozen
class Depth:
    """What the states at one depth look like."""

    depth: int
    exact: bool  # False: from random playouts, states is a lower bound
    states: int  # distinct states at this depth (those seen, when sampled)
    decisions: int  # of them, states where a player decides
    chance: int  # of them, states where chance moves
    moves_min: int
    moves_mean: float
    moves_max: int
    ended: int  # of them, terminal states and dead ends


EXACT_LIMIT = 100_000
"""The states a depth may have to be counted exactly, unless told otherwise."""

KNOWN_MOST = 200_000
"""The states whose moves and next states stats keeps for the depths that meet them again."""


def stats(game, *, rng: random.Random, depth: Optional[int] = None, samples: int = 1000,
          exact_limit: int = EXACT_LIMIT, progress: Optional[Callable[[int, int, int], None]] = None,
          sampled: Optional[Callable[[int], None]] = None,
          repeats: Optional[Callable[[int, int], None]] = None) -> list:
    """Enumerate the states layer by layer while a layer holds at most exact_limit states;
    below that, `samples` random playouts (chance by weight) from the initial state. Where the
    states of a depth are those of one of the REMEMBERED depths before it, every depth after
    repeats those after that one: `repeats(depth, earlier)` is told, and the rows end there.

    `progress(d, done, n)` is told how many of the n states at depth d are measured, now and
    then and when the layer is done; `sampled(k)` when k playouts are done, 0 first. Either
    returning True stops there: the rows are those of the depths measured whole and of the
    playouts done.

    States are told apart by `future_key` where the game has it (see search/protocol.py): those
    that differ only in their totals so far count once, as the exhaustive solve holds them."""
    rows = []
    key = _key_of(game)
    layer = {key(game.initial_state()): game.initial_state()}
    # what was found of each state: the states of a game that can come back to them are met at many
    # depths, and where totals are set aside they are other states each time, to the game's memo
    known: dict = {}
    d = 0
    recent = {0: frozenset(layer)}  # depth -> the keys of its states, for the last REMEMBERED depths
    while depth is None or d <= depth:
        last = depth is not None and d == depth
        told = None if progress is None else (lambda done, d=d, n=len(layer): progress(d, done, n))
        row, nxt = _measure(game, d, layer.items(), expand=not last, limit=exact_limit,
                            told=told, known=known)
        if row is None:
            return rows
        rows.append(row)
        d += 1
        if last or not nxt:
            return rows
        if len(nxt) > exact_limit:
            break
        keys = frozenset(nxt)
        earlier = next((k for k, seen in recent.items() if seen == keys), None)
        if earlier is not None:
            if repeats is not None:
                repeats(d, earlier)
            return rows
        recent[d] = keys
        recent.pop(d - REMEMBERED, None)
        layer = nxt
    seen: dict = {}  # depth -> {key: the moves of a decision, or CHANCE, or None for an end}
    for i in range(samples + 1):  # sampled(i) after i playouts, the last time after all of them
        if (sampled is not None and sampled(i)) or i == samples:
            break
        s, k = game.initial_state(), 0
        while depth is None or k <= depth:
            what = None
            if game.is_terminal(s):
                pass
            elif game.current_player(s) == CHANCE:
                what = CHANCE
            else:
                moves = game.legal_moves(s)
                what = len(moves) or None
            if k >= d:
                seen.setdefault(k, {})[key(s)] = what
            if what is None:
                break
            s = game.apply(s, sample_outcome(game, s, rng) if what == CHANCE else rng.choice(moves))
            k += 1
    for k in sorted(seen):
        whats = seen[k].values()
        counts = [w for w in whats if w is not None and w != CHANCE]
        rows.append(_row(k, False, len(whats), counts, sum(w is None for w in whats),
                         sum(w == CHANCE for w in whats)))
    return rows


def _measure(game, d: int, states, *, expand: bool, limit: int = 0,
             told: Optional[Callable[[int], None]] = None, known: Optional[dict] = None) -> tuple:
    """The exact row for depth d of the states (key, state), and (when expand) the next layer keyed
    by _key_of(game), whose making stops once it holds more than `limit` states. `told(k)` hears of
    every 256th state measured and of the last. When it returns True the row is None, or at the last
    the next layer is empty. `known` (key -> what _look found, at most KNOWN_MOST) keeps what was
    found of a state for the depths that meet it again."""
    counts, ended, total, chance = [], 0, 0, 0
    nxt: dict = {}
    key = _key_of(game)
    for k, s in states:
        if told is not None and total % 256 == 0 and total and told(total):
            return None, {}
        total += 1
        found = None if known is None else known.get(k)
        if found is None or expand and found[2] is None:
            found = _look(game, s, key, expand)
            if known is not None:
                if len(known) >= KNOWN_MOST:
                    known.clear()
                known[k] = found
        what, n, children = found
        if what is None:
            ended += 1
            continue
        if what == CHANCE:
            chance += 1
        else:
            counts.append(n)
        if expand:
            for kt, t in children:
                nxt.setdefault(kt, t)
            expand = len(nxt) <= limit
    if told is not None and told(total):
        nxt = {}
    return _row(d, True, total, counts, ended, chance), nxt


def _look(game, s, key: Callable, expand: bool) -> tuple:
    """(None for an end, CHANCE, or the moves' number; that many again; the next states as (key,
    state), or None unless expand) of state s."""
    if game.is_terminal(s):
        return None, 0, ()
    if game.current_player(s) == CHANCE:
        options, what = [m for m, _ in game.chance_outcomes(s)], CHANCE
    else:
        options = game.legal_moves(s)
        if not options:
            return None, 0, ()
        what = len(options)
    children = tuple((key(t), t) for t in (game.apply(s, m) for m in options)) if expand else None
    return what, len(options), children


def _key_of(game) -> Callable:
    """What tells states apart: the future key where the game sets totals aside, else the key."""
    return key_and_totals(game)[0]


def _row(d: int, exact: bool, states: int, counts: list, ended: int, chance: int) -> Depth:
    """The row for depth d: `counts` holds the number of moves of each decision."""
    return Depth(d, exact, states, len(counts), chance, min(counts, default=0),
                 sum(counts) / len(counts) if counts else 0.0, max(counts, default=0), ended)
