"""The search, play and stats commands: the algorithms of search/ on a rule file."""
from __future__ import annotations

import argparse
import functools
import json
import math
import random
import re
import time
from contextlib import contextmanager
from itertools import combinations
from typing import Callable, Optional

from .diagnostics import RuleErrors, RuleRuntimeError, UsageError, counted, did_you_mean
from .earlier_run import load_earlier_run
from .interrupt import first_interrupt_stops, interrupted_by
from .load import (command_line_measures, command_line_predicates, load_game, parameter_values,
                   parse_settings, settings_given, titled)
from .plots import best_score_curve, check_plot_target
from .policy_file import POLICY_AGENT, policy_agent
from .start_state import start_from
from .progress import ProgressBar
from .runtime import number_text, plain_number
from search.agents import (AGENTS_ONLY, ALGORITHMS, CHANCE_STEPS, CHOICES, END, FRACTIONS, LEAST, LINE_PLANNERS, TAKES,
                           Options, make_agent, plan)
from search.alpha_beta_agent import Unfit
from search.budget import ROLLOUT_MOST
from search.play import Tally, play, seats
from search.protocol import CHANCE
from search.stats import EXACT_LIMIT as STATS_EXACT, stats


def add_parsers(sub):
    """The three subcommands, on the subparsers of the main parser."""
    s = sub.add_parser("search", help="plan a line with one search algorithm (one player)")
    _common(s)
    s.add_argument("--algo", required=True, type=_algorithm, metavar="NAME",
                   help="; ".join(f"{name}: {what}" for name, what in ALGORITHM_HELP.items())
                   + " (the README's Search algorithms tells more)")
    s.add_argument("--budget", type=int, default=10_000, help="forward-model calls in all (default 10000)")
    _algorithm_options(s)
    s.add_argument("--plot", metavar="FILE.png", help="draw the best score against forward-model calls")
    s.add_argument("--show", action="store_true",
                   help="print the states along the best line through the file's view (--json: a view in each step)")
    add_from(s)
    s.set_defaults(run=cmd_search)
    p = sub.add_parser("play", help="play whole games between agents; win rates or scores")
    _common(p)
    p.add_argument("--agents", required=True, metavar="A[,B...]",
                   help=f"agents by seat, each one of {', '.join(ALGORITHMS)}, random, with options of its own "
                        "after colons (mcts:heuristic=H:depth=0), or policy:FILE.jsonl (a solve --policy file); "
                        "in a one-player game each agent plays every game")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--first-game", type=int, default=1, metavar="N",
                   help="the number of the first game (default 1): games N to N + GAMES - 1 are those of a "
                        "longer run with the same seed, so a long run can be played in parts")
    p.add_argument("--agent-seed", type=int, default=0, metavar="S",
                   help="mixed into the seeds of the agents' own generators (default 0): the same chance "
                        "outcomes, other draws of the agents' own, to see how much a result owes to them")
    p.add_argument("--budget", type=int, default=1000, help="forward-model calls per decision (default 1000)")
    p.add_argument("--against", action="append", metavar="FILE.json",
                   help="one player: pair each agent's scores, game by game, with those of the first agent of an "
                        "earlier run saved by play --json (same game, --set and --seed; the budget and agent seed "
                        "may differ), as if it had played alongside (repeatable: a run saved in parts)")
    p.add_argument("--show", nargs="?", const="end", choices=("end", "moves"),
                   help="print each game's final state through the file's view; --show moves prints the first "
                        "state, then each move (and chance outcome) with the state after it")
    p.add_argument("--measure", action="append", metavar="EXPR",
                   help="a whole-number expression of the rules language, evaluated on each game's final state "
                        "(repeatable); its mean, standard error, min and max are reported")
    p.add_argument("--jobs", type=int, default=1,
                   help="games played at once, in as many processes (default 1; the results do not change)")
    p.add_argument("--max-moves", type=int, metavar="N",
                   help=f"stop a game after N moves and score it as it stands (default {PLAY_MAX_MOVES:,}, "
                        "for games that can go on forever)")
    _algorithm_options(p)
    add_from(p)
    p.set_defaults(run=cmd_play)
    t = sub.add_parser("stats", help="legal moves per decision and distinct states by depth")
    _common(t)
    t.add_argument("--depth", type=int, default=None, metavar="N", help="deepest depth to report (default 1000)")
    t.add_argument("--samples", type=int, default=1000,
                   help="random playouts once a depth is too big to enumerate (default 1000)")
    t.add_argument("--max-states", type=int, default=STATS_EXACT, metavar="N",
                   help=f"count a depth exactly while it has at most N states (default {STATS_EXACT:,})")
    add_from(t)
    t.set_defaults(run=cmd_stats)


ALGORITHM_HELP = {
    "backtrack": "every line depth first, so the best one with budget enough",
    "random-walk": "random lines, the best kept",
    "beam": "the best states by the heuristic, layer by layer",
    "max-score": "lines sampled by the best score seen below each move",
    "mcts": "Monte Carlo tree search",
    "osla": "move by move, each successor valued by the heuristic",
    "flat-mc": "move by move, each move valued by random rollouts",
    "rhea": "move by move, evolving sequences of moves",
}
"""A few words on each algorithm, for `search --help`."""


def _common(p):
    p.add_argument("file", metavar="FILE")
    p.add_argument("--set", action="append", metavar="K=V", help="set a parameter (repeatable)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--json", action="store_true", help="print one JSON object")


ALGORITHM_OPTIONS = ("heuristic", "width", "extra", "sample", "filter", "depth", "population", "backup", "horizon",
                     "exploration", "rave")
"""The flags of _algorithm_options, by their names in args."""


def _algorithm_options(p):
    p.add_argument("--heuristic", metavar="H",
                   help="a heuristic declared in the rule file (default: the file's `agent` setting, else the first)")
    p.add_argument("--width", type=int, help="beam width (default 100)")
    p.add_argument("--extra", type=int, help="beam: random survivors per layer (default 0)")
    p.add_argument("--filter", metavar="EXPR", help="beam: keep only states where EXPR holds")
    p.add_argument("--sample", type=int, metavar="N",
                   help="beam: a state with more than N moves gives N moves sampled by a random walk down "
                        "its turn, not all of them (default: all)")
    p.add_argument("--depth", type=_depth, metavar="N|end",
                   help="line length (backtrack, random-walk, beam), rollout depth (mcts, flat-mc; mcts 0: "
                        "no rollout), horizon (rhea); end: to the end of the game (not for rhea)")
    p.add_argument("--population", type=int, help="rhea population (default 1: hill climber)")
    p.add_argument("--backup", choices=CHOICES["backup"],
                   help="mcts: a node's value is the mean of its simulations (default) or its best line's (max)")
    p.add_argument("--horizon", choices=CHOICES["horizon"],
                   help="mcts: the tree grows to the end (default) or stops at chance steps, valued by the heuristic")
    p.add_argument("--exploration", type=float, metavar="C",
                   help="mcts: the exploration constant of UCB1, 0 or more (default 1.41, the square root of 2); "
                        "values are scaled to the range seen, so it does not depend on the score's scale")
    p.add_argument("--rave", type=int, metavar="N",
                   help="mcts: how many simulations a child's own mean takes to count as much as the mean of "
                        "the simulations that played its move later on (RAVE; default 200, 0: off); with --backup max "
                        "it only orders the moves not tried yet")


def _depth(text: str):
    """--depth: a number of moves, or `end` for no limit."""
    if text == END:
        return END
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of moves or '{END}', got '{text}'") from None


def _positive(**values):
    for flag, v in values.items():
        if v is not None and v < 1:
            raise UsageError(f"--{flag.replace('_', '-')} {v}: expected a positive number")


def check_depth(depth) -> None:
    """A --depth given as a number must not be negative."""
    if depth is not None and depth != END and depth < 0:
        raise UsageError(f"--depth {depth}: expected 0 or more")


def _check_arguments(args, game) -> None:
    """The algorithm options on the command line, checked against the game."""
    _positive(budget=getattr(args, "budget", None), width=args.width, population=args.population, sample=args.sample,
              games=getattr(args, "games", None))
    if args.exploration is not None and not 0 <= args.exploration < math.inf:  # so that nan fails too
        raise UsageError(f"--exploration {args.exploration:g}: expected a number, 0 or more")
    if args.rave is not None and args.rave < 0:
        raise UsageError(f"--rave {args.rave}: expected 0 or more")
    check_depth(args.depth)
    if args.heuristic is not None:
        check_heuristic(game, args.heuristic, f"--heuristic {args.heuristic}")
    if args.filter:
        try:
            (_, args.keep), = command_line_predicates(game, [args.filter], "--filter")
        except RuleErrors as e:  # the expression is an argument: a usage error, shown with a caret
            raise UsageError("--filter: the expression has errors\n" + e.render()) from None


def check_options_apply(args, names, agents: bool = True) -> None:
    """A usage error for an algorithm option on the command line that none of the agents `names`
    takes: it would otherwise be ignored without a word. Those that take it are named of the
    algorithms, and with `agents` (play and fit) of the agents only too."""
    for opt in ALGORITHM_OPTIONS:
        if getattr(args, opt, None) is None:
            continue

        def takes(a):
            return a == "beam" if opt == "filter" else opt in TAKES.get(a, ())
        if opt == "depth" and args.depth == END and "rhea" in names:
            raise UsageError(f"--depth {END}: rhea needs a horizon, a number of moves")
        if not any(takes(a) for a in names):
            users = [a for a in (*ALGORITHMS, *(AGENTS_ONLY if agents else ())) if takes(a)]
            raise UsageError(f"--{opt}: {' and '.join(dict.fromkeys(names))} "
                             f"{'takes' if len(set(names)) == 1 else 'take'} no --{opt}, so it would be ignored "
                             f"(it is for {', '.join(users)})")


def check_heuristic(game, h: str, given: str) -> None:
    """A usage error, headed by `given` (the flag and its value), unless the file declares heuristic h
    or h is `score` (the score itself, a heuristic declared or not)."""
    names = list(game.heuristics)
    if h not in names and h != "score":
        hint = did_you_mean(h, names)
        raise UsageError(f"{given}: the rule file declares "
                         + (f"no heuristic named '{h}'" + (f"; did you mean '{hint}'?" if hint else
                            f"; it declares {', '.join(names)}") if names else "no heuristic"))


def _options(args, game, algo: str, own: Optional[dict] = None) -> Options:
    """The options of one algorithm: an agent's `own` (from `--agents mcts:depth=0`), else the
    command line's, else the rule file's `agent` settings for it, else the defaults (the
    heuristic: the file's first)."""
    given = {k: getattr(args, k) for k in ALGORITHM_OPTIONS if k != "filter"}  # the filter is `keep`
    chosen = {**game.agent_options.get(algo, {}), **{k: v for k, v in given.items() if v is not None},
              **(own or {})}
    chosen.setdefault("heuristic", next(iter(game.heuristics), None))
    return Options(keep=getattr(args, "keep", None), **chosen)


OR_POLICY = f", or {POLICY_AGENT}FILE.jsonl (the moves of a file solve --policy wrote)"


def agent_spec(spec: str, game) -> tuple:
    """(algorithm, its own options) of an --agents entry such as `mcts:heuristic=outlook:depth=0`."""
    algo, *parts = spec.split(":")
    own: dict = {}
    names = [*ALGORITHMS, *AGENTS_ONLY, "random", POLICY_AGENT.rstrip(":")]
    if parts and algo not in names:  # `polcy:FILE.jsonl`, `mcst:depth=0`
        near = did_you_mean(algo, names)
        raise UsageError(f"--agents {spec}: no agent named '{algo}'; "
                         + (f"did you mean '{near}'?" if near else f"the agents: {', '.join(names)}"))
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key or not value:
            raise UsageError(f"--agents {spec}: expected OPTION=VALUE after ':', got '{part}'")
        if key in own:
            raise UsageError(f"--agents {spec}: {key} given twice; give it once")
        if key == "budget" and algo in TAKES:  # every search's: the calls it may make a decision
            if not re.fullmatch(r"[0-9]+", value) or int(value) < 1:
                raise UsageError(f"--agents {spec}: budget: expected a whole number, 1 or more, got '{value}'")
            own[key] = int(value)
            continue
        if algo in TAKES and key not in TAKES[algo]:
            near = None if key in LEAST else did_you_mean(key, [*TAKES[algo], "budget"])
            raise UsageError(f"--agents {spec}: {algo} has no option '{key}'; "
                             + (f"did you mean '{near}'?" if near else f"it takes {', '.join(TAKES[algo])}"
                                + " (and budget, as every search)"))
        if algo not in TAKES:
            raise UsageError(f"--agents {spec}: {algo} takes no options")
        if key == "heuristic":
            check_heuristic(game, value, f"--agents {spec}")
        elif key in CHOICES and value not in CHOICES[key]:
            raise UsageError(f"--agents {spec}: {key}: expected one of {', '.join(CHOICES[key])}, got '{value}'")
        elif key in FRACTIONS:
            try:
                number = float(value)
            except ValueError:
                raise UsageError(f"--agents {spec}: {key}: expected a number, got '{value}'") from None
            if not LEAST[key] <= number < math.inf:  # so that nan fails too
                raise UsageError(f"--agents {spec}: {key} {value}: expected a number, {LEAST[key]} or more")
            value = number
        elif key not in CHOICES and not (key == "depth" and value == END):
            try:
                number = int(value)
            except ValueError:
                whole = "a whole number" if _is_number(value) else "a number"
                raise UsageError(f"--agents {spec}: {key}: expected {whole}"
                                 f"{f' or {END}' if key == 'depth' else ''}, got '{value}'") from None
            if number < LEAST[key]:
                raise UsageError(f"--agents {spec}: {key} {value}: expected {LEAST[key]} or more")
            value = number
        own[key] = value
    return algo, own


def _is_number(text: str) -> bool:
    try:
        float(text)
        return True
    except ValueError:
        return False


def _algorithm(name: str) -> str:
    """The value of --algo: a name of ALGORITHMS, or an error naming the one that was likely meant."""
    if name in ALGORITHMS:
        return name
    near = did_you_mean(name, ALGORITHMS)
    raise argparse.ArgumentTypeError(f"no algorithm named '{name}'; " + (f"did you mean '{near}'? " if near else "")
                                     + f"expected one of {', '.join(ALGORITHMS)}")


def check_agents_fit(game, algos, given: str, path: str) -> None:
    """Agents that play only games of two players (`given`: the option that names them) are a
    usage error in a game of another number."""
    if game.num_players != 2 and any(algo in AGENTS_ONLY for algo in algos):
        raise UsageError(f"{given}: alpha-beta plays a game of two players, and {path} has {game.num_players}")


@contextmanager
def unfit_is_a_usage_error(given: str):
    """An agent that finds, as it plays, that it cannot play this game: a usage error naming the
    option that named it (`given`)."""
    try:
        yield
    except Unfit as e:
        raise UsageError(f"{given}: {e}") from None


@contextmanager
def states_told(game):
    """A rule failing within is given `state_text`, the state it failed in as JSON, for main to
    show (the state a search met it in: search/budget.py notes it as `in_state`)."""
    try:
        yield
    except RuleRuntimeError as e:
        s = getattr(e, "in_state", None)
        if s is not None and getattr(e, "state_text", None) is None:
            e.state_text = json.dumps(game.state_json(s))
        raise


def started_json(args) -> dict:
    """`from` for --json: the state file a run started from, where it was given."""
    return {"from": args.start} if getattr(args, "start", None) is not None else {}


def add_from(p) -> None:
    p.add_argument("--from", dest="start", metavar="STATE.json",
                   help="start from this state instead of the file's initial one (a state as --json prints it)")


def _load(args):
    game = load_game(args.file, parse_settings(args.set))
    start_from(game, getattr(args, "start", None))
    if hasattr(args, "width"):
        _check_arguments(args, game)
    return game


def cmd_search(args) -> int:
    game = _load(args)
    check_options_apply(args, [args.algo], agents=False)
    opts = _options(args, game, args.algo)
    if game.num_players != 1:
        raise UsageError(f"search plans a line for one player; {args.file} has {game.num_players} players "
                         "(use play)")
    plot = None if args.plot is None else check_plot_target(args.plot, "search")
    bar = ProgressBar(args.budget, "calls", eta=True)
    t0 = time.perf_counter()
    with first_interrupt_stops("stopping: the search ends after the line or move it is weighing") as stop, \
            states_told(game):
        r = plan(game, game.initial_state(), args.algo, budget=args.budget, rng=random.Random(args.seed), opts=opts,
                 progress=lambda calls, best: bar.update(calls, "" if best is None else f"best {number_text(best)}")
                 or stop.is_set())
    bar.close()
    interrupted = stop.is_set()
    status = 130 if interrupted else 0  # as for any Ctrl-C, after the report
    seconds = time.perf_counter() - t0
    with states_told(game):  # the views of --show: a view failing shows the state it failed on
        return _report_search(args, game, opts, r, plot, interrupted, status, seconds)


def _report_search(args, game, opts, r, plot, interrupted: bool, status: int, seconds: float) -> int:
    """What `search` prints of its run r: JSON, or the text (the plot drawn first)."""
    chance = CHANCE_STEPS[args.algo] if any(game.chance_steps(r.best_line)) else None
    out = {
        "game": game.title, "set": settings_given(game, args.set), **started_json(args), "algo": args.algo,
        "seed": args.seed,
        "budget": args.budget,
        "heuristic": opts.heuristic,
        "best_score": None if r.best_score is None else plain_number(r.best_score),
        "best_line": game.line_json(r.best_line, views=args.show), "chance": chance,
        "fm_calls": r.fm_calls, "iterations": r.iterations,
        "first_best_at": None if r.best_score is None else r.first_best_at,
        "rollouts_cut": r.cut, "seconds": round(seconds, 3), "interrupted": interrupted,
        **({} if r.planned is None else
           {"move_by_move": dict(zip(("estimate_moves", "estimate_ended", "decisions", "first_share"), r.planned))}),
    }
    if plot is not None:
        best_score_curve(plot, r.improvements, r.fm_calls, f"{game.title}: {args.algo}, seed {args.seed}")
        out["plot"] = plot.path
    if args.json:
        print(json.dumps(out))
        return status
    kind = "one run" if args.algo in LINE_PLANNERS else "move by move"
    print(f"{titled(game, args.set)}: {args.algo} ({kind}), {r.fm_calls:,} forward-model calls, "
          f"{r.iterations:,} iteration{'s' if r.iterations != 1 else ''}, {seconds:.2f} s")
    if interrupted:
        print(f"  interrupted ({interrupted_by()}): what the search had found by then")
    if r.best_score is None:
        depth = getattr(args, "depth", None)
        spare = args.budget is not None and r.fm_calls < args.budget and depth not in (None, "end")
        emptied = args.algo == "beam" and not spare and args.budget is not None and r.fm_calls < args.budget
        searched = args.algo == "max-score" and r.fm_calls < args.budget  # every line, to 1,000 moves
        print("  no line reached the end of the game "
              + ("before the interrupt" if interrupted else
                 f"within --depth {depth} (the budget was not spent)" if spare else
                 "(the budget was not spent: every line was "
                 + ("dropped by --filter, " if getattr(args, "filter", None) else "")
                 + "stopped at a dead end or came back to a state an earlier layer held)"
                 if emptied else f"(the budget was not spent: every line that does not come back to a state it "
                 f"passed was searched to {ROLLOUT_MOST:,} moves)" if searched else "within the budget")
              + (f": the beam went {counted(r.iterations, 'layer')} deep (a smaller --width goes deeper on the same "
                 "budget; where lines can come back to a state, a wider one keeps more of them apart)"
                 if args.algo == "beam" and not (interrupted or spare or emptied) else
                 f" ({counted(r.iterations, 'iteration')}): random lines that go round without end (for 1,000 moves "
                 "each) spend the budget; --depth N stops them after N moves"
                 if depth in (None, "end") and not interrupted and args.algo in ("mcts", "random-walk", "flat-mc")
                 else f" ({counted(r.iterations, 'descent')}): descents that go round without end, in new states "
                 "each time (a count of turns in the state, say), stop after 1,000 moves"
                 if not interrupted and args.algo == "max-score" and not searched and r.cut
                 else f" ({counted(r.iterations, 'descent')}): a descent makes every next state of each state it "
                 "passes, a call each, so a long one takes much of the budget; a larger --budget goes further"
                 if not interrupted and args.algo == "max-score" and not searched
                 else ": depth first, it went down lines that neither ended nor came back to a state they passed (a "
                 "count of turns in the state makes every state new, unless one player's count is a `scored` field, "
                 "set aside); --depth N stops lines after N moves"
                 if depth in (None, "end") and not interrupted and args.algo == "backtrack" else ""))
        if r.planned is not None and not interrupted:
            print(f"  {_shared(*r.planned)}")
        return status
    print(f"  best score: {out['best_score']} (first found after {r.first_best_at:,} calls)")
    if args.algo in EXHAUSTIVE and not interrupted and r.fm_calls < args.budget:
        depth = getattr(args, "depth", None)
        if r.cut:  # max-score's descents stopped at 1,000 moves: the lines past them were not searched
            print(f"  the budget was not spent: every line that does not come back to a state it passed was "
                  f"searched to {ROLLOUT_MOST:,} moves, none further")
        else:
            print(f"  the budget was not spent: every line{'' if depth is None else f' of at most {depth:,} moves'} "
                  "that does not come back to a state it passed was searched, so none of them scores more")
    if r.cut:
        print(f"  {_cut(r.cut, args.algo)}")
    _print_tie_cuts(args, opts, r)
    if chance:
        print(f"  chance: {chance}")
    print("  best line:")
    if args.show:
        print_view(game, game.initial_state())
    for (mv, s), by_chance in zip(r.best_line, game.chance_steps(r.best_line)):
        print(f"    {'chance: ' if by_chance else ''}{game.describe(mv)}")
        if args.show:
            print_view(game, s)
    if not args.show and r.best_line:  # where the line ends (--show drew it already)
        print("  its final state:")
        print("\n".join("    " + row for row in game.view(r.best_line[-1][1]).splitlines()))
    return status


def _print_tie_cuts(args, opts, r) -> None:
    """What a beam ranking by the score, with no heuristic, left to the order states were made in."""
    if r.tie_cuts and opts.heuristic is None:
        print(f"  at {r.tie_cuts:,} of its {counted(r.iterations, 'layer')} the width cut between states the score "
              f"valued alike, and the {opts.width:,} kept were the first made (the file has no heuristic, and the "
              "score of a game not over tells them apart no better): a heuristic that tells how a state stands, or "
              "a wider --width, keeps better ones")


EXHAUSTIVE = ("backtrack", "max-score")
"""The searches that stop before their budget is spent only once they have seen every line."""


def _shared(length: int, ended: bool, decisions: int, first: Optional[int]) -> str:
    """How a move-by-move search shared its budget among its decisions (Result.planned)."""
    if not decisions:
        return (f"no move was decided: the random line that first estimates the game's length took the "
                f"budget ({counted(length, 'move')})")
    return (f"{counted(decisions, 'move')} decided one by one, the first with {counted(first, 'call')}: the budget "
            f"left, shared over the {counted(length, 'move')} of a random line that first estimates the game's "
            f"length{'' if ended else ' (it did not end)'}; a larger --budget gives each decision more")


def _cut(n: int, algo: str = "") -> str:
    """What a run tells of its n random lines stopped by search.budget.ROLLOUT_MOST."""
    if algo == "max-score":  # which takes no --depth
        return f"{counted(n, 'descent')} stopped after {ROLLOUT_MOST:,} moves without an end"
    return (f"{counted(n, 'random rollout')} stopped after {ROLLOUT_MOST:,} moves without an end "
            "(--depth N sets a rollout's length)")


def print_view(game, s) -> None:
    """State s through the file's view, under a step of a line."""
    print("\n".join("      " + row for row in game.view(s).splitlines()))


PLAY_MAX_MOVES = 1_000
"""The moves `play` lets a game run to without --max-moves: a game that can go on forever stops there."""


def _play_setup(args) -> tuple:
    """What `play` with these arguments plays: the game, the runs of agents (each a list of (name,
    agent)), whether each agent plays every game, the --measure texts and the summary of a game's
    end. Made by the command, and made again in each process `--jobs` starts where the platform
    does not fork."""
    game = _load(args)
    specs = [a.strip() for a in args.agents.split(",")]
    for spec in specs:
        if spec == POLICY_AGENT.rstrip(":") or spec == POLICY_AGENT:
            raise UsageError(f"--agents {args.agents}: a policy agent names the file it plays by, "
                             f"{POLICY_AGENT}FILE.jsonl (a file solve --policy wrote)")
    chosen = [("random", {}) if spec.startswith(POLICY_AGENT) else agent_spec(spec, game) for spec in specs]
    try:
        params, start = parameter_values(game), getattr(args, "start", None)
        agents = [(spec, policy_agent(spec, game, params, start) if spec.startswith(POLICY_AGENT) else
                   _budgeted(make_agent(algo, _options(args, game, algo, {k: v for k, v in own.items()
                                                                           if k != "budget"})), own.get("budget")))
                  for spec, (algo, own) in zip(specs, chosen)]
    except ValueError as e:
        raise UsageError(f"--agents {args.agents}: {e}{OR_POLICY if 'expected one of' in str(e) else ''}") from None
    check_options_apply(args, [algo for algo, _ in chosen])
    check_agents_fit(game, [algo for algo, _ in chosen], f"--agents {args.agents}", args.file)
    same_games = game.num_players == 1 and len(agents) > 1  # each agent plays every game, on the same chance
    if same_games and len(set(specs)) < len(specs):
        raise UsageError(f"--agents {args.agents}: an agent given twice would play the same games the same way "
                         "(--agent-seed S gives it other draws of its own, in another run)")
    if len(set(specs)) < len(specs):  # one agent against itself: its rows are told apart by the order given
        agents = [(f"{spec} ({i})" if specs.count(spec) > 1 else spec, agent)
                  for i, (spec, (_, agent)) in enumerate(zip(specs, agents), 1)]
    texts = args.measure or []
    try:
        measures = [f for _, f in command_line_measures(game, texts)] if texts else []
    except RuleErrors as e:  # the expressions are arguments: a usage error, shown with a caret
        raise UsageError("--measure: the expression has errors\n" + e.render()) from None

    def summary(g, s, steps=None):
        end = {"game": g + 1, "returns": [plain_number(r) for r in game.returns(s)],
               "stopped": not game.is_terminal(s) and (game.current_player(s) == CHANCE or bool(game.legal_moves(s)))}
        if args.show:
            end["view"], end["state"] = game.view(s), game.state_json(s)
        if steps is not None:
            end["moves"] = steps
        if measures:
            end["measures"] = [plain_number(f(s)) for f in measures]
        return end

    def line(s, move, p):  # a step of a game, for --show moves: who moved, the move, the state after it
        if move is None:
            return {"player": None, "move": None, "view": game.view(s), "state": game.state_json(s)}
        return {"player": "chance" if p == CHANCE else game.player_names[p], "move": game.describe(move),
                "view": game.view(s), "state": game.state_json(s)}
    # one player: each agent alone; more agents than seats: a run for each group of as many as there are
    # seats (two players: every pairing), the seats rotating in each
    runs = [[a] for a in agents] if same_games else [list(c) for c in combinations(agents, game.num_players)] \
        if len(agents) > game.num_players else [agents]
    return game, runs, same_games, texts, summary, (line if args.show == "moves" else None)


def _budgeted(agent: Callable, budget: Optional[int]) -> Callable:
    """The agent, deciding with `budget` calls whatever budget the game gives it (`mcts:budget=N`)."""
    return agent if budget is None else functools.partial(_with_budget, agent, budget)


def _with_budget(agent: Callable, calls: int, game, state, **kw):
    kw.pop("budget", None)  # the run's, given to every agent
    return agent(game, state, budget=calls, **kw)


def _play_run(given: dict, i: int) -> tuple:
    """The game, run i's agents, the summary and the line, made again from the arguments of `play`."""
    game, runs, _, _, summary, line = _play_setup(argparse.Namespace(**given))
    return game, runs[i], summary, line


def _by_seat(game, shown: list, names: list) -> list:
    """(seat, Tally) for each seat and agent that held it, from the games' ends: how each agent
    did in each seat (does the first player win more?)."""
    tallies = {(p, a): Tally(a) for p in range(game.num_players) for a in names}
    for end in shown:
        for p, a in enumerate(end["seats"]):
            tallies[p, a].add(end["returns"], p)
    return [(p, t) for (p, _), t in tallies.items() if t.games]


def _summed(name: str, parts: list) -> Tally:
    """One agent's tally over the runs of a round robin."""
    t = Tally(name)
    for k, part in enumerate(parts):
        t.wins, t.draws, t.losses = t.wins + part.wins, t.draws + part.draws, t.losses + part.losses
        t.scores += part.scores
        t.cut, t.decisions, t.tied = t.cut + part.cut, t.decisions + part.decisions, t.tied + part.tied
        t.games_of += [(k, g) for g in part.games_of]  # game g of one run is not game g of another
        t.won += part.won
    return t


def _counted(t: Tally) -> dict:
    """What `play --json` counts of an agent's decisions."""
    return {"rollouts_cut": t.cut, "decisions": t.decisions, "tied_decisions": t.tied}


def _row(t: Tally) -> dict:
    """A tally as `play --json` gives it (the scores apart)."""
    return {"name": t.name, "games": t.games, "wins": t.wins, "draws": t.draws, "losses": t.losses,
            "mean": round(t.mean, 4), "stderr": _json_se(t.stderr),
            "min": plain_number(min(t.scores)), "max": plain_number(max(t.scores))}


def _print_line(steps: list, agent_of: dict) -> None:
    """A game's steps as `play --show moves` prints them: the first state, then each move,
    numbered, or chance outcome, with the state after it."""
    number = 0
    for step in steps:
        if step["move"] is None:
            head = "start"
        elif step["player"] == "chance":
            head = f"chance: {step['move']}"
        else:
            number += 1
            who = step["player"] + (f" ({agent_of[step['player']]})" if step["player"] in agent_of else "")
            head = f"{number}. {who}: {step['move']}"
        print(f"{head}\n{step['view']}\n", flush=True)


def _by_the_first_heuristic(args, game) -> list:
    """The --agents entries whose algorithm values states by a heuristic that nothing chose: not
    the entry, not --heuristic, not the file's `agent` settings. They take the file's first."""
    if not game.heuristics or args.heuristic is not None:
        return []
    out = []
    for spec in (a.strip() for a in args.agents.split(",")):
        if spec.startswith(POLICY_AGENT):
            continue
        algo, own = agent_spec(spec, game)
        if "heuristic" in TAKES.get(algo, ()) and "heuristic" not in own and \
                "heuristic" not in game.agent_options.get(algo, {}) and spec not in out and \
                _reads_heuristic(algo, own, args, game):
            out.append(spec)
    return out


def _reads_heuristic(algo: str, own: dict, args, game) -> bool:
    """Whether an agent reads its heuristic: mcts only where its rollouts stop at a depth, or its
    tree at chance steps (by its own options, the command line's or the file's `agent`)."""
    if algo != "mcts":
        return True
    given = [own, vars(args), game.agent_options.get(algo, {})]
    depth = next((o["depth"] for o in given if o.get("depth") is not None), None)
    horizon = next((o["horizon"] for o in given if o.get("horizon") is not None), None)
    return isinstance(depth, int) or horizon == "chance"


def cmd_play(args) -> int:
    game, runs, same_games, texts, summary, line = _play_setup(args)
    _positive(**{"jobs": args.jobs, "first-game": args.first_game, "max-moves": args.max_moves})
    settings = settings_given(game, args.set)
    earlier = None
    if args.against is not None:
        if game.num_players != 1:
            raise UsageError(f"--against {', '.join(args.against)}: pairs scores game by game, which only a "
                             f"one-player game has ({game.title} has {game.num_players} players)")
        earlier = load_earlier_run(args.against, title=game.title, seed=args.seed, settings=settings,
                                   first=args.first_game, games=args.games)
    max_moves = PLAY_MAX_MOVES if args.max_moves is None else args.max_moves
    bar = ProgressBar(args.games * len(runs), "games", eta=True)
    t0 = time.perf_counter()
    shown: list = []
    several = game.num_players > 1
    names = list(dict.fromkeys(name for run in runs for name, _ in run))  # every agent, in the order given
    round_robin = several and len(runs) > 1

    def show(g, end, agent, run_names):
        seated = [run_names[a] for a in seats(g, game.num_players, len(run_names))] if several else None
        shown.append({**end, "agent": agent} if same_games else {**end, "seats": seated} if several else end)
        if args.show and not args.json:
            bar.close()
            if several:  # each seat: its player, the agent in it, its score
                head = ", ".join(f"{p} {a} {r}" for p, a, r in zip(game.player_names, seated, end["returns"]))
            else:
                head = "score " + ", ".join(map(str, end["returns"]))
            print(f"game {g + 1}{f' ({agent})' if same_games else ''}: {head}")
            if "moves" in end:
                _print_line(end["moves"], dict(zip(game.player_names, seated)) if several else {})
            else:
                print(end["view"] + "\n", flush=True)
    tallies, played = [], []  # played: the games of each run played

    def progress(i, done):
        played[i] = done
        bar.update(i * args.games + done)
    with first_interrupt_stops("stopping once the games under way have ended") as stop, states_told(game), \
            unfit_is_a_usage_error(f"--agents {args.agents}"):
        for i, run in enumerate(runs):  # one seed for every run: game g meets the same chance in each
            if stop.is_set():
                break
            played.append(0)
            tallies += play(game, run, games=args.games, budget=args.budget, rng=random.Random(args.seed),
                            max_moves=max_moves, progress=lambda done, total, i=i: progress(i, done),
                            jobs=args.jobs, show=lambda g, end, a=run[0][0], r=[n for n, _ in run]: show(g, end, a, r),
                            summary=summary,
                            first=args.first_game - 1, agent_seed=args.agent_seed,
                            rebuild=functools.partial(_play_run, vars(args), i), stop=stop.is_set, line=line)
    bar.close()
    interrupted = stop.is_set()  # a run asked to stop plays one game at least; the runs after it none
    seconds = time.perf_counter() - t0
    pairings = []  # round robin: each run's agents and their tallies in it; the tallies then summed by agent
    if round_robin:
        n = game.num_players
        pairings = [(tallies[k:k + n]) for k in range(0, len(tallies), n)]
        tallies = [_summed(name, parts) for name in names if (parts := [t for t in tallies if t.name == name])]
    rows = [{**_row(t), "scores": [plain_number(x) for x in t.scores], **_counted(t)} if several else
            {**_row(t), "wins": None, "draws": None, "losses": None, "scores": [plain_number(x) for x in t.scores],
             **_counted(t)} for t in tallies]

    by_seat = _by_seat(game, shown, names) if several else []

    def measured_of(ends, **agent):
        return [{**_measured(text, [end["measures"][k] for end in ends]), **agent} for k, text in enumerate(texts)]
    measured, paired = measured_of(shown), []
    if same_games:
        measured = [m for t in tallies for m in measured_of([e for e in shown if e["agent"] == t.name], agent=t.name)]
        paired = [{**_difference(tallies[0].scores, t), "against": tallies[0].name} for t in tallies[1:]]
    against = []
    if earlier is not None:
        theirs = [earlier.scores[args.first_game + k] for k in range(args.games)]
        against = [_difference(theirs, t) for t in tallies]
    stopped = sum(end.pop("stopped") for end in shown)
    if args.json:
        for end in shown:
            end.pop("measures", None)
        print(json.dumps({"game": game.title, "games": args.games, "first_game": args.first_game,
                          "budget": args.budget, "seed": args.seed, "agent_seed": args.agent_seed, "set": settings,
                          **started_json(args), "seconds": round(seconds, 3), "agents": rows,
                          **({"by_seat": [{"seat": game.player_names[p], **_row(t)} for p, t in by_seat]}
                             if several else {}),
                          **({"shown": shown} if args.show else {}),
                          **({"measures": measured} if texts else {}), **({"paired": paired} if same_games else {}),
                          **({"pairings": [[{**_row(t), **_counted(t)} for t in run] for run in pairings]}
                             if round_robin else {}),
                          **({"against": {"file": earlier.path, "agent": earlier.agent, "budget": earlier.budget,
                                          "agent_seed": earlier.agent_seed, "paired": against}} if earlier else {}),
                          "stopped": stopped, "interrupted": interrupted}))
        return 130 if interrupted else 0
    numbers = f" ({args.first_game}-{args.first_game + args.games - 1})" if args.first_game > 1 else ""
    mixed = f", agent seed {args.agent_seed}" if args.agent_seed else ""
    each = ", each agent on the same games" if same_games else \
        f" for each of the {len(runs)} {'pairings' if game.num_players == 2 else 'groups'} of agents" \
        if round_robin else ""
    searching = any(_takes_budget(a) for a in args.agents.split(","))
    budget = (f"{args.budget:,} forward-model calls per decision"
              f"{' (an agent with budget=N: N)' if re.search(r':budget=', args.agents) else ''}") if searching else \
        "agents that take no budget"  # random, osla (one look at each move) and policies
    print(f"{titled(game, args.set)}: {args.games} game{'s' if args.games != 1 else ''}{numbers}{each}, {budget}, "
          f"seed {args.seed}{mixed}, {seconds:.1f} s")
    if interrupted:
        run_names = [" against ".join(n for n, _ in run) for run in runs]
        print(f"  interrupted ({interrupted_by()}) after {_games_played(played, args, run_names)}")
    defaulted = _by_the_first_heuristic(args, game)
    if defaulted:
        print(f"  the heuristic of {', '.join(defaulted)}: {next(iter(game.heuristics))}, the file's first "
              "(heuristic=H in --agents, or --heuristic H, chooses another)")
    w = max(12, *(len(t.name) for t in tallies))
    if several:
        seated = [t for _, t in by_seat]
        rate = _places(t.win_rate_stderr for t in [*tallies, *seated])
        places = _places(t.stderr for t in [*tallies, *seated])

        wide = max(14, *(len(_shown(t.win_rate, t.win_rate_stderr, rate)) + 1 for t in [*tallies, *seated]))

        def rates(t: Tally) -> str:  # the win rate and the mean score, each with its standard error
            return f"{_shown(t.win_rate, t.win_rate_stderr, rate):<{wide}} {_shown(t.mean, t.stderr, places)}"
        print(f"  {'agent':<{w}} {'games':>6} {'wins':>6} {'draws':>6} {'losses':>6}  {'win rate':<{wide + 1}} "
              "mean score")
        for t in tallies:
            print(f"  {t.name:<{w}} {t.games:>6} {t.wins:>6} {t.draws:>6} {t.losses:>6}  {rates(t)}")
        if len(tallies) < game.num_players:
            print(f"  (fewer agents than the {game.num_players} players: an agent plays several seats of a game, "
                  "each counted as a game of its own; the standard errors take a game's seats together)")
        if round_robin:
            print("  (a round robin: each agent's games in every " + ("pairing" if game.num_players == 2 else "group")
                  + ", summed; each below)")
        seat_width = max(4, *(len(name) for name in game.player_names))
        print(f"  by seat:\n  {'seat':<{seat_width}} {'agent':<{w}} {'games':>6} {'wins':>6} {'draws':>6} "
              f"{'losses':>6}  {'win rate':<{wide + 1}} mean score")
        for p, t in by_seat:
            print(f"  {game.player_names[p]:<{seat_width}} {t.name:<{w}} {t.games:>6} {t.wins:>6} {t.draws:>6} "
                  f"{t.losses:>6}  {rates(t)}")
        for run in pairings:
            tied = run[0].games - sum(t.wins for t in run)  # games won by no one alone
            print(f"  {' against '.join(t.name for t in run)}: "
                  + ", ".join(f"{t.name} won {t.wins}" for t in run) + f", {tied} drawn")
    else:
        places = _places(t.stderr for t in tallies)
        print(f"  {'agent':<{w}} {'games':>6}  {'mean (stderr)':<16} {'min':>6} {'max':>6}")
        for t, row in zip(tallies, rows):
            print(f"  {t.name:<{w}} {t.games:>6}  {_shown(t.mean, t.stderr, places, 7)}  {row['min']:>6} "
                  f"{row['max']:>6}")
    if interrupted and same_games and len({t.games for t in tallies}) > 1:
        print(f"  (interrupted: the agents' means are of different numbers of games; game by game, the "
              f"differences pair the first {counted(min(t.games for t in tallies), 'game')}, which every agent "
              "played)")
    sections = [(tallies[0].name, paired)]
    if earlier is not None:
        other = f", agent seed {earlier.agent_seed}" if earlier.agent_seed else ""
        calls = f"{earlier.budget:,} calls per decision" if _takes_budget(earlier.agent) else "no budget"
        sections.append((f"{earlier.agent} of {earlier.path} ({calls}{other})", against))
    for whom, rows in sections:
        if rows:
            print(f"  game by game against {whom}, the mean difference (stderr):")
            places = _places(d["stderr"] for d in rows)
            for d in rows:
                print(f"  {d['agent']:<{w}} {'':>6}  {_shown(d['mean'], d['stderr'], places, 7, '+')}")
    if measured:
        head = "at the end of each game"
        labels = [f"{m['agent']}: {m['expr']}" if same_games else m["expr"] for m in measured]
        width = max(len(head), *(len(label) for label in labels))
        print(f"  {head:<{width}}  {'mean (stderr)':<16} {'min':>6} {'max':>6}")
        for m, label in zip(measured, labels):
            print(f"  {label:<{width}}  {_shown(m['mean'], m['stderr'], _places([m['stderr']]), 7)}  {m['min']:>6} "
                  f"{m['max']:>6}")
    if stopped:
        print(f"  {stopped} game{'s' if stopped != 1 else ''} stopped after {counted(max_moves, 'move')}, scored as "
              f"{'they' if stopped != 1 else 'it'} stood"
              + (" (the default limit: --max-moves N sets it)" if args.max_moves is None else "")
              + (": the wins and losses of a game not over are its score's there" if game.num_players > 1 else ""))
    for t in tallies:
        if t.cut:
            print(f"  {t.name}: {_cut(t.cut)}")
        if t.tied and t.tied * 2 >= t.decisions:
            print(f"  {t.name}: every legal move looked as good in {t.tied:,} of its {t.decisions:,} decisions, "
                  "which it then drew at random: its heuristic (or the score) does not tell those moves apart")
    return 130 if interrupted else 0


def _takes_budget(spec: str) -> bool:
    """Whether an --agents entry searches with a budget (random, osla and a policy take none)."""
    return spec.split(":")[0].strip() not in ("random", "osla") and not spec.strip().startswith(POLICY_AGENT)


def _games_played(played: list, args, names: list) -> str:
    """What an interrupted play had played: of each run (`names`: each agent alone when each
    agent plays every game, each pairing in a round robin), the options that play the rest of
    the run cut short, and the runs not begun."""
    runs = [f"{counted(n, 'game')} of {args.games:,}" for n in played]
    told = runs[0] if len(names) == 1 else "; ".join(f"{name}: {n}" for name, n in zip(names, runs))
    last = played[-1]
    if last < args.games:
        told += (f" (the rest: --first-game {args.first_game + last} --games {args.games - last}"
                 + (f", for {names[len(played) - 1]}" if len(names) > 1 else "") + ")")
    if len(played) < len(names):
        told += f"; not begun: {', '.join(names[len(played):])}"
    return told


def _json_se(x: float):
    """A standard error as --json gives it: null where there is none (one game)."""
    return None if math.isnan(x) else round(x, 4)


def _places(errors) -> int:
    """The decimal places of means with these standard errors: 2, or as many as show the least of
    them to two significant digits (a win rate of 0.512 (0.005) over 10,000 games), at most 4 (as
    --json rounds them)."""
    least = min((x for x in errors if x is not None and not math.isnan(x) and x > 0), default=None)
    return 2 if least is None else max(2, min(4, 1 - math.floor(math.log10(least))))


def _shown(mean: float, error, places: int, width: int = 0, sign: str = "") -> str:
    """A mean and its standard error (`-` where there is none: one game) as the text shows them."""
    return f"{mean:{sign}{width}.{places}f} ({'-' if error is None or math.isnan(error) else f'{error:.{places}f}'})"


def _difference(base: list, t: Tally) -> dict:
    """An agent's mean difference from base, game by game, with its standard error."""
    d = Tally(t.name, scores=[b - a for a, b in zip(base, t.scores)])
    return {"agent": t.name, "mean": round(d.mean, 4), "stderr": _json_se(d.stderr)}


def _measured(text: str, values: list) -> dict:
    """One --measure expression's values over the games, with their mean, standard error, min and max."""
    t = Tally(text, scores=values)
    return {"expr": text, "mean": round(t.mean, 4), "stderr": _json_se(t.stderr), "min": min(values),
            "max": max(values), "values": values}


STATS_DEPTH = 1_000
"""The deepest depth `stats` goes to without --depth: a game that can go on forever stops there."""


def cmd_stats(args) -> int:
    check_depth(args.depth)
    game = _load(args)
    _positive(samples=args.samples, max_states=args.max_states)
    depth = STATS_DEPTH if args.depth is None else args.depth
    bar = ProgressBar(None, "states measured")
    playouts = None
    layers = {}  # depth -> its states
    done_playouts = 0
    repeated: list = []  # (depth, the earlier depth whose states it has), when stats saw one

    def measured(d, done, n):
        layers[d] = n
        bar.update(sum(layers.values()) - n + done, f"depth {d}: {done:,} of {n:,}")
        return stop.is_set()

    def sampled(k):
        nonlocal playouts, done_playouts
        if playouts is None:
            bar.close()
            playouts = ProgressBar(args.samples, "random playouts", eta=True)
        playouts.update(k)
        done_playouts = k
        return stop.is_set()
    with first_interrupt_stops("stopping: the depths measured whole and the playouts done are shown") as stop:
        rows = stats(game, rng=random.Random(args.seed), depth=depth, samples=args.samples,
                     exact_limit=args.max_states, progress=measured, sampled=sampled,
                     repeats=lambda d, earlier: repeated.append((d, earlier)))
    for b in (bar, playouts):
        if b is not None:
            b.close()
    interrupted = stop.is_set()
    status = 130 if interrupted else 0
    cut = args.depth is None and bool(rows) and rows[-1].depth == depth and rows[-1].states > rows[-1].ended
    if args.json:
        print(json.dumps({"game": game.title, "set": settings_given(game, args.set), **started_json(args), "depths": [
            {"depth": r.depth, "exact": r.exact, "states": r.states, "decisions": r.decisions, "chance": r.chance,
             **({"moves_min": r.moves_min, "moves_mean": round(r.moves_mean, 12), "moves_max": r.moves_max}
                if r.decisions else dict.fromkeys(("moves_min", "moves_mean", "moves_max"))),  # none: null
             "ended": r.ended} for r in rows], "stopped": cut, "interrupted": interrupted,
            "samples": done_playouts,
            "repeats": {"depth": repeated[0][0], "earlier": repeated[0][1]} if repeated else None}))
        return status
    print(f"{titled(game, args.set)}: legal moves per decision and distinct states by depth")
    if game.splits_scored:
        print(f"  (states that differ only in the scored field '{game.scored_field}' counted once)")
    if interrupted:
        print(f"  interrupted ({interrupted_by()}): " + (f"after {done_playouts:,} of {args.samples:,} random playouts"
                                             if done_playouts else "the depths measured whole by then"))
    chance = any(r.chance for r in rows)  # a column of the states where chance moves, in a game with chance
    head = f" {'chance':>8}" if chance else ""
    print(f"  {'depth':>5} {'states':>12} {'decisions':>10}{head} "
          f"{'moves min':>10} {'mean':>8} {'max':>6} {'ended':>8}")
    for r in rows:
        mark = " " if r.exact else "~"
        moves = (f"{r.moves_min:>10} {r.moves_mean:>8.2f} {r.moves_max:>6}" if r.decisions else
                 f"{'-':>10} {'-':>8} {'-':>6}")  # chance moves and ends only
        print(f"  {r.depth:>5} {mark}{r.states:>11,} {r.decisions:>10,}{f' {r.chance:>8,}' if chance else ''} "
              f"{moves} {r.ended:>8,}")
    if not all(r.exact for r in rows):
        first = next(r.depth for r in rows if not r.exact)
        print(f"  ~ sampled from {done_playouts:,} random playouts: states seen, a lower bound (depth {first:,} "
              f"held more than --max-states {args.max_states:,} states to enumerate: a larger one goes deeper)")
    if cut:
        print(f"  stopped at depth {depth:,}: games go on longer than that (--depth N sets the depth)")
    for d, earlier in repeated:
        print(f"  the states at depth {d:,} are those at depth {earlier:,}, so the depths after repeat those "
              "after it: games can go round for ever")
    return status
