"""Legal moves per decision and distinct states by depth (exact while small, sampled after)."""
from __future__ import annotations

import random
from typing import Callable, Optional

import attrs

from .budget import sample_outcome
from .protocol import CHANCE


@attrs.frozen
class Depth:
    """What the states at one depth look like."""

    depth: int
    exact: bool  # False: from random playouts, states is a lower bound
    states: int  # distinct states at this depth (those seen, when sampled)
    decisions: int  # of them, states where a player decides
    moves_min: int
    moves_mean: float
    moves_max: int
    ended: int  # of them, terminal states and dead ends


def stats(game, *, rng: random.Random, depth: Optional[int] = None, samples: int = 1000,
          exact_limit: int = 100_000, progress: Optional[Callable[[int, int], None]] = None) -> list:
    """Enumerate the states layer by layer while a layer holds at most exact_limit states;
    below that, `samples` random playouts (chance by weight) from the initial state."""
    rows = []
    layer = {game.key(game.initial_state()): game.initial_state()}
    d = 0
    while layer and (depth is None or d <= depth) and len(layer) <= exact_limit:
        row, nxt = _measure(game, d, layer.values(), exact=True, expand=True)
        rows.append(row)
        if progress is not None:
            progress(d, len(layer))
        layer = nxt
        d += 1
    if not layer or (depth is not None and d > depth):
        return rows
    by_depth: dict = {}
    for _ in range(samples):
        s, k = game.initial_state(), 0
        while depth is None or k <= depth:
            if k >= d:
                by_depth.setdefault(k, {})[game.key(s)] = s
            if game.is_terminal(s):
                break
            if game.current_player(s) == CHANCE:
                s = game.apply(s, sample_outcome(game, s, rng))
            else:
                moves = game.legal_moves(s)
                if not moves:
                    break
                s = game.apply(s, rng.choice(moves))
            k += 1
    for k in sorted(by_depth):
        rows.append(_measure(game, k, by_depth[k].values(), exact=False, expand=False)[0])
    return rows


def _measure(game, d: int, states, *, exact: bool, expand: bool) -> tuple:
    """The row for depth d, and (when expand) the next layer keyed by game.key."""
    counts, ended, total = [], 0, 0
    nxt: dict = {}
    for s in states:
        total += 1
        if game.is_terminal(s):
            ended += 1
            continue
        if game.current_player(s) == CHANCE:
            options = [m for m, _ in game.chance_outcomes(s)]
        else:
            options = game.legal_moves(s)
            if not options:
                ended += 1
                continue
            counts.append(len(options))
        if expand:
            for m in options:
                t = game.apply(s, m)
                nxt.setdefault(game.key(t), t)
    row = Depth(d, exact, total, len(counts), min(counts, default=0),
                sum(counts) / len(counts) if counts else 0.0, max(counts, default=0), ended)
    return row, nxt
