"""Greedy beam search: expand a layer, keep the best `width` states by a heuristic (seed 000)."""
from __future__ import annotations

import random
from typing import Callable, Iterable, Optional

import attrs

from .budget import Budgeted, Observer, Progress, Result, sample_outcome


def beam(game, state, *, width: int, rng, budget: Optional[int] = None, heuristic: Optional[str] = None,
         extra: int = 0, sample: Optional[int] = None, keep: Optional[Callable[[object], bool]] = None,
         max_depth: Optional[int] = None, observers: Iterable[Observer] = (),
         progress: Optional[Progress] = None) -> Result:
    """Layer by layer: all successors of the beam, equal states merged (by game.key), a state met
    in an earlier layer dropped (it has been expanded, or ranked out, with as much to come; with
    the game's `future_key`, one that differs only in the running totals that only the returns
    read, unless its totals are higher now), states failing `keep` dropped (a line ending in one
    is no result either), the `width` best by the heuristic kept plus `extra` others drawn at
    random with rng (seed 000's survivors). So a game that comes back to its states runs out of
    new ones and is done. Ended lines are recorded, not expanded. With
    `sample`, a state with more than `sample` moves gives `sample` moves drawn at random (see
    Budgeted.some_moves), so a few very wide states do not take up the whole budget. A chance
    step gives one outcome drawn by weight, and the k-th chance step of every line draws with
    the same seed, so the lines compared meet the same luck (choosing outcomes like moves
    would plan for the luckiest)."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    p = fm.player
    layer = [(state, (), 0)]  # (state, line from the start, chance steps on it)
    seeds: list = []  # the k-th chance step's seed, shared by every line
    if game.is_terminal(state):
        fm.finish((), state)
        layer = []
    depth, lead, tie_cuts = 0, None, 0
    future = getattr(game, "future_key", None)
    earlier: dict = {}  # the states of earlier layers (their future keys) -> their totals (None: no totals)
    while layer and not fm.spent and (max_depth is None or depth < max_depth):
        depth += 1
        fm.iterations += 1
        seen: dict = {}
        for s, line, k in layer:
            if fm.spent:
                break
            if fm.is_chance(s):
                while len(seeds) <= k:
                    seeds.append(rng.getrandbits(64))
                options, k = [sample_outcome(game, s, random.Random(seeds[k]))], k + 1
            else:
                options = fm.moves(s) if sample is None else fm.some_moves(s, sample, rng)
            if not options:  # a dead end ends its line
                fm.finish(line, s)
            for m in options:
                t = fm.apply(s, m)
                key = game.key(t)
                if key in seen:
                    continue
                path = line + ((m, t),)
                if game.is_terminal(t):
                    if keep is None or keep(t):
                        fm.finish(path, t)
                    seen[key] = None
                    continue
                seen[key] = (t, path, k)
        ranked = [x for x in seen.values() if x is not None and (keep is None or keep(x[0]))
                  and _new(game, future, earlier, x[0], p)]
        values = {id(x): fm.values(x[0], heuristic)[p] for x in ranked}
        ranked.sort(key=lambda x: values[id(x)], reverse=True)
        if len(ranked) > width and values[id(ranked[width - 1])] == values[id(ranked[width])]:
            tie_cuts += 1
        layer = ranked[:width]
        lead = layer[0][1][0][0] if layer else lead  # the first move towards the best state so far
        rest = ranked[width:]
        if extra and rest:
            layer += rng.sample(rest, min(extra, len(rest)))
    # no line ended: the first move towards the best state
    return attrs.evolve(fm.result(None if fm.best_line else lead), tie_cuts=tie_cuts)


def _new(game, future, earlier: dict, s, p: int) -> bool:
    """Whether s is no state of an earlier layer (by its future key, with totals no higher for
    the searching player p), noting it in `earlier` if so."""
    if future is None:
        k, totals = game.key(s), None
    else:
        k, totals = future(s), game.banked(s)[p]
    if k in earlier and (totals is None or earlier[k] >= totals):
        return False
    earlier[k] = totals
    return True
