"""Whole games between agents, seats rotated, with win rates and scores per agent."""
from __future__ import annotations

import contextlib
import math
import multiprocessing
import pickle
import random
import signal
import threading
from typing import Callable, Optional, Sequence

import attrs

from .budget import noted, sample_outcome
from .protocol import CHANCE


@attrs.define
class Tally:
    """One agent's games: outcomes (several players) and its returns."""

    name: str
    wins: int = 0
    draws: int = 0
    losses: int = 0
    scores: list = attrs.field(factory=list)
    cut: int = 0  # the agent's random lines stopped at search.budget.ROLLOUT_MOST moves without an end
    decisions: int = 0  # the moves it chose
    tied: int = 0  # of those, the ones where every legal move looked as good (Result.tied)
    games_of: list = attrs.field(factory=list)  # the game of each score, where told: one a seat the agent held
    won: list = attrs.field(factory=list)  # each score's seat: 1 for a win, else 0 (several players)

    def add(self, returns: Sequence, p: int, game=None) -> None:
        """Count a game in which this agent held seat p: its return, and with several players a
        win (the single highest return), a draw (tied at the top) or a loss. `game` names the game,
        so that the seats an agent holds in one game are taken together in the standard errors."""
        self.scores.append(returns[p])
        self.games_of.append(game)
        if len(returns) > 1:
            top = max(returns)
            if returns[p] < top:
                self.losses += 1
            elif returns.count(top) > 1:
                self.draws += 1
            else:
                self.wins += 1
            self.won.append(int(returns[p] == top and returns.count(top) == 1))

    @property
    def games(self) -> int:
        return len(self.scores)

    @property
    def mean(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else math.nan

    @property
    def stderr(self) -> float:
        """Standard error of the mean score; nan from fewer than two games, whose spread one
        cannot estimate."""
        return self._stderr(self.scores)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else math.nan

    @property
    def win_rate_stderr(self) -> float:
        """Standard error of the win rate (a proportion), with n - 1 as that of the mean score
        has: the same figure where the scores are the wins (1 or 0)."""
        if len(self.won) != self.games:  # counted without the seats' outcomes
            n, q = self.games, self.win_rate
            return math.sqrt(q * (1 - q) / (n - 1)) if n > 1 else math.nan
        return self._stderr(self.won)

    def _stderr(self, xs: list) -> float:
        """The standard error of the mean of xs (one a seat). Where the agent held several seats of
        a game, those are not apart (in a zero-sum game they add up to nothing), so the games are
        the samples: the ratio of each game's sum to its seats, with its standard error."""
        groups: dict = {}
        for x, g in zip(xs, self.games_of if len(self.games_of) == len(xs) else [None] * len(xs)):
            groups.setdefault(object() if g is None else g, []).append(x)
        n = len(groups)
        if n < 2:
            return math.nan
        mu = sum(xs) / len(xs)
        spread = sum((sum(g) - mu * len(g)) ** 2 for g in groups.values())
        return math.sqrt(spread / (n * (n - 1))) / (len(xs) / n)


def play(game, agents: Sequence[tuple[str, Callable]], *, games: int, budget: int, rng: random.Random,
         max_moves: Optional[int] = None, progress: Optional[Callable[[int, int], None]] = None,
         show: Optional[Callable] = None, decided: Optional[Callable[[int, object], None]] = None,
         jobs: int = 1, summary: Optional[Callable[[int, object], object]] = None, first: int = 0,
         agent_seed: int = 0, rebuild: Optional[Callable[[], tuple]] = None,
         stop: Optional[Callable[[], bool]] = None, line: Optional[Callable] = None) -> list:
    """Play `games` games, numbered from `first` (0 is the first game); in game g seat i goes to
    agent (i + g) mod len(agents), so every agent plays every seat in turn. Each game has a
    generator of its own, seeded from rng and the game's number: its chance outcomes are drawn
    by weight with it, and each seat's agent gets a generator drawn from it. So game g meets the
    same chance outcomes whatever the other games did (and whichever agents play, where its
    chance steps come in the same order), and a long run can be played in parts with `first`.
    `agent_seed` is mixed (xor) into the seeds of the agents' generators: other draws of their
    own on the same chance outcomes, to see how much a result owes to them. Each agent decides
    with `budget` forward-model calls per decision. Returns one Tally per agent, in order. With
    several players a game is a win for the agents with the single highest return, a draw for
    those tied at the top, a loss for the others.

    `decided(g, state)` sees each state an agent decides from. `show(g, end)` sees each game's
    end, in the order of the games: the final state, or with `summary` what summary(g, state)
    made of it. `jobs` > 1 plays that many games at once in other processes with the same
    results: `summary` then runs in them and must return something picklable, and `decided` is
    not allowed. Where the platform forks, the processes are forked. Elsewhere (Windows) they are
    started afresh, and `rebuild()` makes in each of them the (game, agents, summary, line) given here:
    a function of its module, or a functools.partial of one, so that it can be pickled; without
    it the games are played one at a time here.

    `line(state, move, player)` sees a game's first state (move and player None), then each
    state after a step: the move and the seat that made it, or CHANCE and the outcome. What it
    returns is kept in order, and summary is called as summary(g, state, steps) with that list
    (`line` needs `summary`, and with jobs > 1 runs in the workers too).

    `stop()`, asked after each game, ends the run early when it returns True: no game begins
    after that, the games under way end, and the tallies hold the games up to the first one
    missing."""
    n = game.num_players
    if len(agents) > n:
        raise ValueError(f"{len(agents)} agents for a game of {n} player{'s' if n != 1 else ''}: "
                         f"expected at most {n}")
    if jobs > 1 and decided is not None:
        raise ValueError("decided sees states inside each game: it needs jobs=1")
    if jobs > 1 and show is not None and summary is None:
        raise ValueError("with jobs > 1 a game's end reaches show through summary")
    if line is not None and summary is None:
        raise ValueError("the steps line() records reach show through summary")
    base = rng.getrandbits(64)
    job = _Job(game, agents, budget, base, max_moves, decided, summary, agent_seed, line)
    tallies = [Tally(name) for name, _ in agents]
    for i, (returns, end, counts) in enumerate(_games(job, range(first, first + games), jobs, rebuild, stop)):
        g = first + i
        for p, a in enumerate(seats(g, n, len(agents))):
            tallies[a].add(returns, p, g)
            t = tallies[a]
            t.cut, t.decisions, t.tied = (x + y for x, y in zip((t.cut, t.decisions, t.tied), counts[p]))
        if show is not None:
            show(g, end)
        if progress is not None:
            progress(i + 1, games)
    return tallies


def seats(g: int, n: int, k: int) -> list:
    """The agent in each of the n seats of game g, with k agents: seats rotate game by game."""
    return [(i + g) % k for i in range(n)]


@attrs.frozen
class _Job:
    """What every game of one call of play shares."""

    game: object
    agents: Sequence
    budget: int
    base: int  # the seed each game's generator is made from, with the game's number
    max_moves: Optional[int]
    decided: Optional[Callable]
    summary: Optional[Callable]
    agent_seed: int
    line: Optional[Callable] = None


_JOB: Optional[_Job] = None  # what the workers play: set before the pool forks, or by _started (or its error)
_STOP = None  # an Event the workers share: set by the first game that fails or by a stop, so no game begins after


def _games(job: _Job, games: range, jobs: int, rebuild: Optional[Callable[[], tuple]] = None,
           stop: Optional[Callable[[], bool]] = None):
    """(returns, end, counts) of each game numbered in `games`, in order: played here, or by `jobs`
    workers, forked or (with `rebuild`, where the platform does not fork) started afresh.
    Once `stop()` is true after a game, no game begins; those under way end and are yielded.

    A game that fails in a worker does not raise there: it stops the games not begun yet and
    is raised here once the games under way have ended, so the pool closes normally. Ending a
    pool while a worker may be writing a result can leave `Pool.terminate` waiting forever on
    the lock that worker held (seen in about 1 in 20 runs on a loaded machine). A game skipped
    after a failure can come before the failed one in the order of the games (a worker took the
    later game first): nothing from the first game missing on is yielded, and the first failure
    in the order of the games is raised."""
    global _JOB, _STOP
    forked = can_fork()
    if jobs <= 1 or len(games) <= 1 or not (forked or rebuild):
        for g in games:
            yield _one_game(job, g)
            if stop is not None and stop():
                return
        return
    context = multiprocessing.get_context("fork" if forked else "spawn")
    _JOB, _STOP = job, context.Event()
    start, given = (leave_interrupts_to_the_parent, ()) if forked else \
        (_started, (rebuild, attrs.evolve(job, game=None, agents=(), summary=None, line=None), _STOP))
    try:
        with sigterm_ends_the_run():
            yield from _pooled(context.Pool(min(jobs, len(games)), initializer=start, initargs=given), games, stop)
    finally:
        _JOB = _STOP = None


def _pooled(pool, games: range, stop: Optional[Callable[[], bool]]):
    """_games' games played by the workers of `pool`, which it closes (see _games)."""
    failure = None
    try:
        stopped = False
        for kind, value in pool.imap(_game_in_worker, _until_stopped(games)):
            if kind == "played" and not stopped:
                yield value
                if stop is not None and not _STOP.is_set() and stop():
                    _STOP.set()  # no game begins now; those under way end, and are yielded in order
                continue
            stopped = True  # a game missing: read on (the rest are skipped) for the failure to raise
            if kind == "failed" and failure is None:
                failure = value
        pool.close()
        pool.join()
    except BaseException:  # interrupted, or the caller stopped reading
        pool.terminate()
        raise
    if failure is not None:
        raise failure


@contextlib.contextmanager
def sigterm_ends_the_run():
    """While workers play: a SIGTERM ends the run at once, as by default. `timeout` sends it to the
    workers too, and a worker it ends in the middle of a game leaves the pool waiting for that game
    for ever, where a Ctrl-C (which the workers leave to the parent) would let it end."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _until_stopped(games: range):
    """The games in order until the workers' Event is set. The pool takes them as its queue to the
    workers has room, so a stop leaves a few games queued, not all of a long run."""
    for g in games:
        if _STOP.is_set():
            return
        yield g


def can_fork() -> bool:
    """Whether this platform starts processes by fork (Windows does not)."""
    return "fork" in multiprocessing.get_all_start_methods()


def leave_interrupts_to_the_parent():
    """In a worker: Ctrl-C (sent to the whole process group) is the parent's to handle; it ends
    the pool, so a worker neither prints its own traceback nor dies before the parent knows. The
    pool ends its workers by SIGTERM, which a worker forked from a parent that catches it would
    catch too: it ends a worker again."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _started(rebuild: Callable[[], tuple], job: _Job, stop) -> None:
    """In a worker started afresh: the game, agents, summary and line made again, the rest of the
    job as the parent has it."""
    global _JOB, _STOP
    leave_interrupts_to_the_parent()
    _STOP = stop
    try:
        game, agents, summary, line = rebuild()
    except Exception as e:  # raised here, the pool would start the worker again and again
        _JOB = e  # each game this worker takes fails with it
        return
    _JOB = attrs.evolve(job, game=game, agents=agents, summary=summary, line=line)


def _game_in_worker(g: int):
    """("played", (returns, end, counts)), ("failed", the error) or ("skipped", None) after a failure."""
    if _STOP.is_set():
        return "skipped", None
    try:
        if isinstance(_JOB, Exception):
            raise _JOB
        returns, end, counts = _one_game(_JOB, g)
    except Exception as e:
        _STOP.set()
        try:  # an error the parent could not unpickle would leave the pool waiting
            pickle.loads(pickle.dumps(e))
        except Exception:
            return "failed", RuntimeError(f"game {g + 1}: {type(e).__name__}: {e}")
        return "failed", e
    return "played", (returns, None if _JOB.summary is None else end, counts)  # a final state need not be pickled


def _one_game(job: _Job, g: int):
    """Game number g: its returns, its end (the final state, or the summary made of it) and for
    each seat (the random lines its searches stopped at ROLLOUT_MOST moves without an end, the
    moves it chose, those where every move looked as good). An
    error raised in the game gets `in_game`: (g, the labels of the steps taken, what the game was
    doing, as words such as "while listing the moves")."""
    game, agents, max_moves, decided = job.game, job.agents, job.max_moves, job.decided
    n = game.num_players
    rng = random.Random(f"{job.base} game {g}")
    seated = seats(g, n, len(agents))
    rngs = [random.Random(rng.getrandbits(64) ^ job.agent_seed) for _ in range(n)]
    memory: list = [None] * n
    counts = [[0, 0, 0] for _ in range(n)]  # each seat's (cut, decisions, tied)
    s, moves = game.initial_state(), 0
    steps = None if job.line is None else [job.line(s, None, None)]
    labels: list = []  # the game's steps so far, for a failure to tell where it happened
    doing = "in the initial state"  # what the game was doing, for a failure to tell
    try:
        while not game.is_terminal(s) and (max_moves is None or moves < max_moves):
            p = game.current_player(s)
            if p == CHANCE:
                doing = "while drawing a chance outcome"
                m = sample_outcome(game, s, rng)
            else:
                doing = "while listing the moves"
                if not game.legal_moves(s):
                    break
                if decided is not None:
                    decided(g, s)
                doing = f"while {agents[seated[p]][0]} chose a move"
                r = agents[seated[p]][1](game, s, budget=job.budget, rng=rngs[p], memory=memory[p])
                memory[p], m = r.memory, r.move
                counts[p][0] += r.cut
                counts[p][1] += 1
                counts[p][2] += r.tied
                moves += 1
            label = ("chance: " if p == CHANCE else "") + game.describe(m)
            doing = f"in the step '{label}'"
            s = game.apply(s, m)
            labels.append(label)
            doing = f"after the step '{label}'"
            if steps is not None:
                steps.append(job.line(s, m, p))
        doing = "while scoring the end"
        returns = tuple(game.returns(s))
        doing = "at the end, while its view or measures were worked out"  # the summary
        end = s if job.summary is None else job.summary(g, s) if steps is None else job.summary(g, s, steps)
    except Exception as e:
        e.in_game = (g, labels, doing)  # picklable, as a failure in a worker must be
        raise noted(e, s)  # the game's state, unless the error met a deeper one (in an agent's search)
    return returns, end, counts
