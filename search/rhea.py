"""Rolling-horizon evolution: evolve move sequences, play the first move of the best (Tribes paper).

A gene is a number in [0, 1); at a state with n options it picks option
int(gene * n), so one genome stays meaningful whatever the branching.
With population 1 this is the random-mutation hill climber.
"""
from __future__ import annotations

from typing import Iterable, Optional, Sequence

from .budget import Budgeted, Observer, Progress, Result


def rhea(game, state, *, budget: int, rng, horizon: int = 20, population: int = 1,
         mutation: Optional[float] = None, heuristic: Optional[str] = None,
         shifted: Sequence[float] = (), observers: Iterable[Observer] = (),
         progress: Optional[Progress] = None) -> Result:
    """Evolve genomes of `horizon` genes until the budget is spent; fitness is the value,
    for the player to move, of the state a genome's moves reach. Each generation keeps
    the best (elitism), and fills the population with uniform crossover of two
    tournament winners, each gene then redrawn with probability `mutation` (default
    1/horizon, at least one gene). `shifted` seeds the first genome: the previous
    decision's best genome moved one step on (the shift buffer); the best genome of
    this run, shifted, is the result's `memory`."""
    fm = Budgeted(game, state, budget, observers=observers, progress=progress)
    if fm.ended(state):
        fm.finish((), state)
        return fm.result()
    rate = mutation if mutation is not None else 1.0 / horizon
    first = list(shifted[:horizon]) + [rng.random() for _ in range(horizon - len(shifted[:horizon]))]
    pop = [first] + [[rng.random() for _ in range(horizon)] for _ in range(population - 1)]
    scored = [(_fitness(fm, state, g, rng, heuristic), g) for g in pop]
    while not fm.spent:
        fm.iterations += 1
        scored.sort(key=lambda x: x[0], reverse=True)
        children = []
        for _ in range(max(1, population - 1)):
            if population > 1:
                a, b = _tournament(scored, rng), _tournament(scored, rng)
                child = [x if rng.random() < 0.5 else y for x, y in zip(a, b)]
            else:
                child = list(scored[0][1])
            _mutate(child, rate, rng)
            children.append((_fitness(fm, state, child, rng, heuristic), child))
        pool = children + scored  # a child as good as its parent replaces it
        pool.sort(key=lambda x: x[0], reverse=True)
        scored = pool[:population]
    best = max(scored, key=lambda x: x[0])[1]
    options = fm.game.legal_moves(state)
    return fm.result(options[_pick(best[0], len(options))], memory=tuple(best[1:]))


def _pick(gene: float, n: int) -> int:
    return min(int(gene * n), n - 1)


def _fitness(fm: Budgeted, state, genome, rng, heuristic) -> float:
    """Play the genome's moves from state (chance by weight) and value where they stop."""
    s, line = state, []
    for gene in genome:
        if fm.ended(s):
            break
        if fm.is_chance(s):
            m, s = fm.sample_chance(s, rng)
        else:
            moves = fm.moves(s)
            m = moves[_pick(gene, len(moves))]
            s = fm.apply(s, m)
        line.append((m, s))
    if fm.ended(s):
        fm.finish(line, s)
    return fm.values(s, heuristic)[fm.player]


def _tournament(scored: list, rng, size: int = 2) -> list:
    return max(rng.sample(scored, min(size, len(scored))), key=lambda x: x[0])[1]


def _mutate(genome: list, rate: float, rng):
    """Redraw each gene with probability rate; at least one gene changes."""
    changed = False
    for i in range(len(genome)):
        if rng.random() < rate:
            genome[i] = rng.random()
            changed = True
    if not changed:
        genome[rng.randrange(len(genome))] = rng.random()
