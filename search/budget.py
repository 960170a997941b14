"""A forward model with a budget: counts calls, tells observers, keeps the best line seen.

Every algorithm in `search/` reaches the game only through `Budgeted`, so
budgets compare across algorithms and machines (forward-model calls, as the
Tribes paper budgets its agents; here each `legal_moves` and each `apply` counts one).
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional, Sequence

import attrs

from .protocol import CHANCE, Game

Observer = Callable[[object], None]
"""Sees each state an algorithm visits (seed-003 style traversal observers)."""

Progress = Callable[[int, Optional[float]], Optional[bool]]
"""Told (forward-model calls so far, best score so far) every PROGRESS_EVERY calls; returning True
ends the budget there (a search that is asked to stop keeps what it found so far)."""

PROGRESS_EVERY = 2000


@attrs.frozen
class Result:
    """What one run of a search algorithm from a state found."""

    move: object  # the move the algorithm recommends at the start state (None when there is none)
    best_line: tuple  # ((move, state), ...) of the best finished line seen, from the start state
    best_score: Optional[float]  # the searching player's return at the end of best_line
    fm_calls: int
    iterations: int
    first_best_at: int  # forward-model calls spent when best_score was first reached
    improvements: tuple  # ((fm_calls, score), ...) each time the best score rose
    memory: object = None  # what the algorithm hands its next decision (rhea's shift buffer)
    cut: int = 0  # random lines stopped after ROLLOUT_MOST moves without an end
    # decided move by move (agents.plan): the moves of the random line that estimated the game's
    # length, whether it ended, the decisions made and the calls the first one had
    planned: Optional[tuple] = None
    tied: bool = False  # every legal move looked as good as the one played (it was then drawn at random)
    tie_cuts: int = 0  # beam: the layers whose width cut between states valued alike (it kept the first made)


class Budgeted:
    """The game seen through a budget of forward-model calls."""

    def __init__(self, game: Game, start, budget: Optional[int], *,
                 observers: Iterable[Observer] = (), progress: Optional[Progress] = None):
        self.game = game
        self.budget = budget
        self.player = player_at(game, start)  # whose returns make a line best
        self.observers = tuple(observers)
        self.progress = progress
        self.calls = 0
        self.stopped = False  # progress asked to stop: the budget ended early
        self.iterations = 0
        self.best_score: Optional[float] = None
        self.best_line: tuple = ()
        self.first_best_at = 0
        self.improvements: list = []
        self.cut = 0  # random lines stopped at ROLLOUT_MOST moves without an end
        self._next_report = PROGRESS_EVERY
        self._last: Optional[tuple] = None  # (state, its legal moves) of the latest fetch

    @property
    def spent(self) -> bool:
        return self.stopped or (self.budget is not None and self.calls >= self.budget)

    def charge(self):
        """Count one forward-model call."""
        self.calls += 1
        if self.progress is not None and self.calls >= self._next_report:
            self._next_report += PROGRESS_EVERY
            if self.progress(self.calls, self.best_score):
                self.stopped = True

    def moves(self, s) -> Sequence:
        """Legal moves of s (one call, unless they were just fetched for the same s)."""
        if self._last is not None and self._last[0] is s:
            return self._last[1]
        self.charge()
        try:
            moves = self.game.legal_moves(s)
        except Exception as e:
            raise noted(e, s)
        self._last = (s, moves)
        return moves

    def some_moves(self, s, limit: int, rng) -> Sequence:
        """The legal moves of s; when there are more than `limit` and the game can draw a move
        without listing them (`legal_moves_within`, `sample_move`), `limit` moves drawn with rng
        instead, equal ones once. One call for the attempt to list, one per draw."""
        within, sample = getattr(self.game, "legal_moves_within", None), getattr(self.game, "sample_move", None)
        if within is None or sample is None:
            return self.moves(s)
        self.charge()
        moves = within(s, limit)
        if moves is not None:
            return moves
        drawn: dict = {}
        for _ in range(limit):
            self.charge()
            m = sample(s, rng)
            drawn.setdefault(self.game.key(self.game.apply(s, m)), m)
        return list(drawn.values())

    def options(self, s) -> Sequence:
        """The ways on from s: its legal moves, or its chance outcomes (without weights)."""
        if self.is_chance(s):
            return [m for m, _ in self.outcomes(s)]
        return self.moves(s)

    def outcomes(self, s) -> Sequence:
        """The chance outcomes of s with their weights (uncounted, as the protocol's)."""
        try:
            return self.game.chance_outcomes(s)
        except Exception as e:
            raise noted(e, s)

    def apply(self, s, m):
        """The state after move m (one call); observers see it."""
        self.charge()
        try:
            t = self.game.apply(s, m)
        except Exception as e:
            raise noted(e, s)
        for o in self.observers:
            o(t)
        return t

    def sample_chance(self, s, rng):
        """A chance outcome of s drawn by its weight, and the state it leads to."""
        try:
            m = sample_outcome(self.game, s, rng)
        except Exception as e:
            raise noted(e, s)
        return m, self.apply(s, m)

    def is_chance(self, s) -> bool:
        try:
            return self.game.current_player(s) == CHANCE
        except Exception as e:
            raise noted(e, s)

    def ended(self, s) -> bool:
        """Terminal, or a dead end without legal moves (which also ends a line)."""
        try:
            if self.game.is_terminal(s):
                return True
            return not self.is_chance(s) and not self.moves(s)
        except Exception as e:
            raise noted(e, s)

    def values(self, s, heuristic: Optional[str] = None) -> tuple:
        """Value of s for every player: the heuristic's, ends included (so a search compares ends
        and open states on one scale), or without a heuristic the returns."""
        g = self.game
        try:
            if heuristic is None:
                return tuple(g.returns(s))
            return tuple(g.evaluate(s, heuristic, p) for p in range(g.num_players))
        except Exception as e:
            raise noted(e, s)

    def finish(self, line: Sequence, s) -> float:
        """Record a line that ended at s; returns the searching player's return there. Of lines
        that score as well as the best, the shorter is kept (the best score was still first met
        where it was)."""
        score = self.game.returns(s)[self.player]
        if self.best_score is None or score > self.best_score:
            self.best_score = score
            self.best_line = tuple(line)
            self.first_best_at = self.calls
            self.improvements.append((self.calls, score))
        elif score == self.best_score and len(line) < len(self.best_line):
            self.best_line = tuple(line)
        return score

    def adopt(self, r: Result):
        """Account for a sub-run r, a decision along the line: its calls, iterations and cut
        lines. Its best line is not this run's: the lines a decision looks at, and the chance
        outcomes on them, are not the line played."""
        self.calls += r.fm_calls
        self.iterations += r.iterations
        self.cut += r.cut

    def result(self, move=None, memory=None) -> Result:
        """The run's result; the move defaults to the first move of the best line."""
        if move is None and self.best_line:
            move = self.best_line[0][0]
        return Result(move, self.best_line, self.best_score, self.calls, self.iterations,
                      self.first_best_at, tuple(self.improvements), memory, self.cut)


def noted(e: Exception, s) -> Exception:
    """e, told the state s it was raised in as `in_state` unless it knows one already (the first
    it passes through is the deepest), so that a rule failing in a search can be shown where."""
    if getattr(e, "in_state", None) is None:
        e.in_state = s
    return e


def player_at(game: Game, s) -> int:
    """The player deciding at s (player 0 at a chance node)."""
    p = game.current_player(s)
    return p if p >= 0 else 0


ROLLOUT_MOST = 1_000
"""The most moves of a random line given no depth, as `play` stops a game (--max-moves): in a
puzzle whose random lines can go round for ever, one line would else take the whole budget."""


def rollout(fm: Budgeted, s, rng, line: list, depth: Optional[int] = None):
    """Random moves (chance by weight) from s until an end, `depth` moves (ROLLOUT_MOST without),
    or the budget spent; appends to line.

    Returns the last state; a line that ends is recorded with fm.finish, and one stopped by
    ROLLOUT_MOST is counted in fm.cut.
    """
    steps, most = 0, ROLLOUT_MOST if depth is None else depth
    while steps < most and not fm.spent and not fm.game.is_terminal(s):
        if fm.is_chance(s):
            m, s = fm.sample_chance(s, rng)
        else:
            moves = fm.moves(s)
            if not moves:
                break
            m = rng.choice(moves)
            s = fm.apply(s, m)
        line.append((m, s))
        steps += 1
    if fm.ended(s):
        fm.finish(line, s)
    elif depth is None and steps == most:
        fm.cut += 1
    return s


def argmax(items: Sequence, key: Callable, rng) -> object:
    """The item with the highest key, ties broken uniformly at random."""
    best, best_key = [], None
    for x in items:
        k = key(x)
        if best_key is None or k > best_key:
            best, best_key = [x], k
        elif k == best_key:
            best.append(x)
    return rng.choice(best) if best else None


def draw(weights: Sequence[float], rng) -> int:
    """An index drawn with probability proportional to its (positive) weight."""
    x = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return len(weights) - 1


def sample_outcome(game: Game, s, rng):
    """A chance outcome of s drawn by its weight (by the game's own sampler when it has one)."""
    sample = getattr(game, "sample_chance", None)
    if sample is not None:
        return sample(s, rng)
    outcomes = game.chance_outcomes(s)
    return outcomes[draw([w for _, w in outcomes], rng)][0]
