"""Every algorithm by its command-line name, as an agent that decides one move with a budget."""
from __future__ import annotations

import difflib
from typing import Callable, Optional

import attrs

from .alpha_beta_agent import alpha_beta_agent
from .backtrack import backtrack
from .beam import beam
from .budget import Budgeted, Result, rollout
from .flat_mc import flat_mc
from .max_score import max_score
from .mcts import mcts
from .osla import osla
from .protocol import CHANCE
from .random_walk import random_walk
from .rhea import rhea

Agent = Callable[..., Result]
"""agent(game, state, *, budget, rng, memory=None, progress=None, observers=()) -> Result;
result.move is its decision and result.memory goes to its next decision."""

LINE_PLANNERS = ("backtrack", "random-walk", "beam", "max-score", "mcts")
"""Algorithms that plan a whole line from one start in one run (the rest decide move by move)."""

ALGORITHMS = LINE_PLANNERS + ("osla", "flat-mc", "rhea")

AGENTS_ONLY = ("alpha-beta",)
"""Agents that decide a move in a game of two players, and plan no line for one (not for `search`)."""

CHANCE_STEPS = {
    "backtrack": "every outcome of a chance step tried like a move: the best line is the best case over chance",
    "beam": "one outcome drawn by weight at each chance step, the same for every line compared",
    **dict.fromkeys(("random-walk", "max-score", "mcts"),
                    "outcomes drawn by weight, afresh for each line tried: the best line had the luck of its draws"),
    **dict.fromkeys(("osla", "flat-mc", "rhea"), "outcomes drawn by weight as the line was played"),
}
"""How each algorithm's line meets chance steps, as `search` reports it."""

MEMORY = {"mcts": "reuse", "rhea": "shifted"}
"""The option through which an algorithm gets its previous decision's `memory`."""


@attrs.frozen
class Options:
    """Command-line options, each passed to the algorithms that take it."""

    heuristic: Optional[str] = None
    width: int = 100  # beam
    extra: int = 0  # beam: random survivors
    sample: Optional[int] = None  # beam: a state with more moves than this gives this many sampled ones
    keep: Optional[Callable] = None  # beam: state filter
    depth: Optional[int | str] = None  # line length (backtrack, random-walk, beam), rollout depth, rhea horizon;
    # END: no limit, even where the algorithm's own default has one
    population: int = 1  # rhea
    exploration: Optional[float] = None  # mcts: the exploration constant of UCB1 (default sqrt 2)
    rave: Optional[int] = None  # mcts: the RAVE weight, in simulations (default 200; 0: no RAVE)
    backup: str = "mean"  # mcts: a node's value is the mean of its simulations, or its best line's ("max")
    horizon: str = "end"  # mcts: the tree grows to the end, or stops at chance steps ("chance")


TAKES = {
    "backtrack": ("depth",), "random-walk": ("depth",), "beam": ("heuristic", "width", "extra", "sample", "depth"),
    "max-score": ("heuristic",), "mcts": ("heuristic", "depth", "backup", "horizon", "exploration", "rave"),
    "osla": ("heuristic",), "flat-mc": ("heuristic", "depth"), "rhea": ("heuristic", "depth", "population"),
    "alpha-beta": ("heuristic", "depth"),
}
"""The Options fields each algorithm uses (the filter aside): what a rule file's `agent` may set."""

END = "end"
"""The depth that means no limit: lines and rollouts go on to the end of the game."""

LEAST = {"width": 1, "population": 1, "extra": 0, "depth": 0, "sample": 1, "exploration": 0, "rave": 0}
"""The smallest value of each numeric option."""

FRACTIONS = ("exploration",)
"""The numeric options that take a fraction (1.0); the others take whole numbers."""

CHOICES = {"backup": ("mean", "max"), "horizon": ("end", "chance")}
"""The values of each option that is a choice among names."""

ENTRIES = {"backtrack": backtrack, "random-walk": random_walk, "beam": beam, "max-score": max_score,
           "mcts": mcts, "osla": osla, "flat-mc": flat_mc, "rhea": rhea, "alpha-beta": alpha_beta_agent}


def _options(name: str, opts: Options) -> dict:
    """The keyword options algorithm `name` takes from opts."""
    h, d = opts.heuristic, None if opts.depth == END else opts.depth
    return {
        "backtrack": {"max_depth": d},
        "random-walk": {"max_depth": d},
        "beam": {"width": opts.width, "heuristic": h, "extra": opts.extra, "sample": opts.sample, "keep": opts.keep,
                 "max_depth": d},
        "max-score": {"heuristic": h},
        "mcts": {"heuristic": h, "rollout_depth": d, "backup": opts.backup, "horizon": opts.horizon,
                 **({"c": opts.exploration} if opts.exploration is not None else {}),
                 **({"rave": float(opts.rave)} if opts.rave is not None else {})},
        "osla": {"heuristic": h},
        "flat-mc": {"heuristic": h, "rollout_depth": 20 if opts.depth is None else d},
        "rhea": {"heuristic": h, "population": opts.population, "horizon": 20 if d is None else d},
        "alpha-beta": {"heuristic": h, "max_depth": d},
    }[name]


def _random(game, state, *, budget, rng, memory=None, progress=None, observers=()) -> Result:
    """The random agent: a legal move drawn uniformly, no forward-model calls."""
    return Result(rng.choice(game.legal_moves(state)), (), None, 0, 0, 0, ())


def make_agent(name: str, opts: Options = Options()) -> Agent:
    """The agent of algorithm `name` ('random' too) with the options that apply to it."""
    if name == "random":
        return _random
    if name not in ENTRIES:
        near = difflib.get_close_matches(name, [*ALGORITHMS, *AGENTS_ONLY, "random"], n=1, cutoff=0.6)
        raise ValueError(f"no algorithm named '{name}'; " + (f"did you mean '{near[0]}'? " if near else "")
                         + f"expected one of {', '.join(ALGORITHMS + AGENTS_ONLY)}, random")
    fn, kw = ENTRIES[name], _options(name, opts)

    def agent(game, state, *, budget, rng, memory=None, progress=None, observers=()) -> Result:
        mem = {MEMORY[name]: memory} if name in MEMORY and memory is not None else {}
        return fn(game, state, budget=budget, rng=rng, progress=progress, observers=observers, **kw, **mem)

    return agent


def plan(game, state, name: str, *, budget: int, rng, opts: Options = Options(), progress=None) -> Result:
    """The best line from state: one run of a line planner, or, for agents that decide move
    by move, their decisions played out, each with an equal share of the budget left
    (the length of the game estimated by one random line first). Asked by `progress` to stop,
    they stop deciding, and so they do once the budget is spent (a game that can go round need
    not end): the line is then no result unless it has ended."""
    agent = make_agent(name, opts)
    if name in LINE_PLANNERS:
        return agent(game, state, budget=budget, rng=rng, progress=progress)
    fm = Budgeted(game, state, budget, progress=progress)

    def told(calls, best):  # a decision's progress, told as the line's
        if progress(fm.calls + calls, fm.best_score):
            fm.stopped = True
            return True
        return False

    probe = _probe(fm, state, rng)
    length, decisions, first = len(probe), 0, None
    # a random line stuck at a dead end is no measure of a line whose decisions stay clear of them
    # (a puzzle where most placements get stuck): the moves left, this one included, are taken to be
    # at least two more than those made, so that each decision leaves some budget to the next
    stuck = bool(probe) and not game.is_terminal(probe[-1][1]) and _ended(game, probe[-1][1])

    def result():
        ended = bool(probe) and _ended(game, probe[-1][1])
        return attrs.evolve(fm.result(), planned=(length, ended, decisions, first))
    s, line, memory = state, [], None
    while not fm.ended(s):
        if fm.spent:
            return result()
        if fm.is_chance(s):
            m, s = fm.sample_chance(s, rng)
        else:
            share = max(1, (budget - fm.calls) // max(1, length - len(line), stuck * (len(line) + 2)))
            first = share if first is None else first
            decisions += 1
            r = agent(game, s, budget=share, rng=rng, memory=memory, progress=None if progress is None else told)
            fm.adopt(r)
            if fm.stopped:  # the decision was cut short: its move is not played
                return result()
            memory = r.memory
            m = r.move
            s = fm.apply(s, m)
        line.append((m, s))
    fm.finish(line, s)
    return result()


def _ended(game, s) -> bool:
    """Whether s ends a line: terminal, or a dead end (no legal move where a player moves)."""
    return game.is_terminal(s) or game.current_player(s) != CHANCE and not game.legal_moves(s)


def _probe(fm: Budgeted, state, rng) -> list:
    """A random line from state, to estimate the moves left; its calls are the run's, but not its
    line, which the agent did not play. It takes at most a quarter of the budget, so that a line
    that goes round leaves the decisions the rest."""
    told = None if fm.progress is None else (lambda calls, best: fm.progress(fm.calls + calls, fm.best_score))
    probe = Budgeted(fm.game, state, None if fm.budget is None else max(1, fm.budget // 4), progress=told)
    line: list = []
    rollout(probe, state, rng, line)
    fm.calls += probe.calls
    fm.stopped = fm.stopped or probe.stopped  # asked to stop while it ran (Ctrl-C)
    return line

