"""Whole games between agents, seats rotated, with win rates and scores per agent."""
from __future__ import annotations

import math
import random
from typing import Callable, Optional, Sequence

import attrs

from .budget import sample_outcome
from .protocol import CHANCE


@attrs.define
class Tally:
    """One agent's games: outcomes (several players) and its returns."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scores: list = attrs.field(factory=list)

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else math.nan

    @property
    def stderr(self) -> float:
        """Standard error of the mean score."""
        n = len(self.scores)
        if n < 2:
            return 0.0
        mu = self.mean
        return math.sqrt(sum((x - mu) ** 2 for x in self.scores) / (n - 1) / n)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def win_rate_stderr(self) -> float:
        """Standard error of the win rate (a proportion)."""
        n, q = self.games, self.win_rate
        return math.sqrt(q * (1 - q) / n) if n else math.nan


def play(game, agents: Sequence[tuple[str, Callable]], *, games: int, budget: int, rng: random.Random,
         max_moves: Optional[int] = None, progress: Optional[Callable[[int, int], None]] = None,
         show: Optional[Callable] = None, decided: Optional[Callable[[int, object], None]] = None) -> list:
    """Play `games` games; in game g seat i goes to agent (i + g) mod len(agents), so every
    agent plays every seat in turn. Chance outcomes are drawn by weight with rng; each agent
    decides with `budget` forward-model calls per decision. Returns one Tally per agent, in
    order. With several players a game is a win for the agents with the single highest
    return, a draw for those tied at the top, a loss for the others. `show(g, state)` sees each
    game's final state, `decided(g, state)` each state an agent decides from."""
    n = game.num_players
    if len(agents) > n:
        raise ValueError(f"{len(agents)} agents for a game of {n} player{'s' if n != 1 else ''}: "
                         f"expected at most {n}")
    tallies = [Tally(name) for name, _ in agents]
    for g in range(games):
        seats = [(i + g) % len(agents) for i in range(n)]
        rngs = [random.Random(rng.getrandbits(64)) for _ in range(n)]
        memory: list = [None] * n
        s, moves = game.initial_state(), 0
        while not game.is_terminal(s) and (max_moves is None or moves < max_moves):
            p = game.current_player(s)
            if p == CHANCE:
                s = game.apply(s, sample_outcome(game, s, rng))
                continue
            if not game.legal_moves(s):
                break
            if decided is not None:
                decided(g, s)
            r = agents[seats[p]][1](game, s, budget=budget, rng=rngs[p], memory=memory[p])
            memory[p] = r.memory
            s = game.apply(s, r.move)
            moves += 1
        returns = game.returns(s)
        top = max(returns)
        for p, a in enumerate(seats):
            t = tallies[a]
            t.scores.append(returns[p])
            if n > 1:
                if returns[p] < top:
                    t.losses += 1
                elif returns.count(top) > 1:
                    t.draws += 1
                else:
                    t.wins += 1
        if show is not None:
            show(g, s)
        if progress is not None:
            progress(g + 1, games)
    return tallies
