"""Benchmark: Scythe successor states generated per second, on states sampled from beam-search
lines, side by side with the unit of work of seed 000's hand-written generator (one deepcopy of
its state dict per successor, at least)."""
from __future__ import annotations

import argparse
import copy
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "rules" / "scythe.rules"
TARGET = 25_000
ROUNDS = 3

# Seed 000's start state, as printed in the blog post (../shared/seeds/000_*.txt): its actions
# deepcopy this dict once per successor state (trade: one copy per resource pair, one for popularity).
SEED_000_STATE = {
    "achievements": [], "actions": [], "buildings": {}, "combat cards": 2, "grain": 0, "hero": 5,
    "last column": -1, "mechs": [], "metal": 0, "money": 5, "oil": 0, "popularity": 3, "power": 0,
    "recruits": {}, "upgrades bottom": {"build": 0, "deploy": 0, "enlist": 0, "upgrade": 0},
    "upgrades top": [], "wood": 0, "workers": [2, 4],
}


class Recording:
    """The game, noting each state whose legal moves are asked for (the states a beam expands)."""

    def __init__(self, game):
        self._game = game
        self.expanded: list = []

    def legal_moves(self, s):
        self.expanded.append(s)
        return self._game.legal_moves(s)

    def __getattr__(self, name):
        return getattr(self._game, name)


def sample_states(game, width: int, depth: int, samples: int, seed: int) -> list:
    """`samples` states drawn (with the seed) from those a beam search of the given width expands."""
    from search.beam import beam
    rec = Recording(game)
    beam(rec, game.initial_state(), width=width, rng=random.Random(seed), max_depth=depth)
    states = list(dict.fromkeys(rec.expanded))  # distinct, in the order expanded
    return random.Random(seed).sample(states, min(samples, len(states)))


def ours(game, states) -> tuple[int, float]:
    """(successors, seconds) generating the legal moves of every state once, memo tables cleared."""
    n, elapsed = 0, 0.0
    for s in states:
        game._moves.clear()
        start = time.perf_counter()
        n += len(game.legal_moves(s))
        elapsed += time.perf_counter() - start
    return n, elapsed


def baseline(seconds: float) -> tuple[int, float]:
    """(deepcopies, seconds) of seed 000's state dict for about `seconds`."""
    n, clock = 0, time.perf_counter
    start = clock()
    while clock() - start < seconds:
        for _ in range(100):
            copy.deepcopy(SEED_000_STATE)
        n += 100
    return n, clock() - start


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--set", action="append", default=[], metavar="K=V", help="a rule-file parameter (repeatable)")
    p.add_argument("--width", type=int, default=4, help="beam width for sampling states (default 4)")
    p.add_argument("--depth", type=int, default=24, help="beam layers for sampling states (default 24)")
    p.add_argument("--samples", type=int, default=40, help="states sampled (default 40)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from engine.load import load_game, parse_settings
    game = load_game(str(RULES), parse_settings(args.set))
    print(f"bench: Python {platform.python_version()} ({sys.executable}), {platform.machine()}")
    settings = " ".join(f"--set {s}" for s in args.set) or "(defaults)"
    start = time.perf_counter()
    states = sample_states(game, args.width, args.depth, args.samples, args.seed)
    print(f"Scythe {settings}: {len(states)} states sampled from a beam search (width {args.width}, "
          f"{args.depth} layers, seed {args.seed}) in {time.perf_counter() - start:.1f} s")
    mine, base = [], []
    sizes = [len(game.legal_moves(s)) for s in states]  # also a warm-up
    for _ in range(ROUNDS):
        n, t = ours(game, states)
        mine.append(n / t)
        c, u = baseline(t)
        base.append(c / u)
    rate, ref = statistics.median(mine), statistics.median(base)
    print(f"  moves per sampled state: mean {statistics.mean(sizes):,.0f}, max {max(sizes):,}")
    print(f"  successor states generated per second (distinct, median of {ROUNDS} rounds): {rate:,.0f}"
          f"   (target {TARGET:,}: {'met' if rate >= TARGET else 'NOT met'})")
    print(f"  seed 000's unit of work, deepcopies of its state dict per second, same rounds: {ref:,.0f}")
    print(f"  ratio ours/deepcopy: {rate / ref:.2f}x   (seed 000 makes at least one deepcopy per successor)")


if __name__ == "__main__":
    main()
