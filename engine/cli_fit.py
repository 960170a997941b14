"""The fit command: weights for a value heuristic, fitted to the final scores of played games."""
from __future__ import annotations

import json
import math
import random

from .cli_search import (ALGORITHM_OPTIONS, _algorithm_options, _common, _load, _options, check_agents_fit,
                         OR_POLICY, check_heuristic, check_options_apply, unfit_is_a_usage_error)
from .diagnostics import UsageError, counted
from .outputs import new_file
from .policy_file import POLICY_AGENT, policy_agent
from .interrupt import first_interrupt_stops, interrupted_by
from .load import parameter_values, settings_given, titled
from .progress import ProgressBar
from search.agents import make_agent
from search.fit import fit_groups
from search.play import play


def add_parser(sub):
    f = sub.add_parser("fit", help="fit weights of heuristics (the features) to the final score of played games")
    _common(f)
    f.add_argument("--features", required=True, metavar="H[,H...]", help="heuristics of the rule file to weigh")
    f.add_argument("--by", metavar="H", help="a heuristic with whole values (a round, say): one fit per value")
    f.add_argument("--agent", metavar="A", help=f"the agent that plays the games (default {PLAYING['agent']})")
    f.add_argument("--games", type=int, help=f"games to play (default {PLAYING['games']})")
    f.add_argument("--budget", type=int, help=f"forward-model calls per decision (default {PLAYING['budget']})")
    f.add_argument("--record", metavar="FILE.jsonl", help="write each decision's features and final score here")
    f.add_argument("--from", dest="sources", action="append", metavar="FILE.jsonl",
                   help="fit rows recorded earlier instead of playing (repeatable)")
    f.add_argument("--scale", type=int, default=100, help="the weights are printed times this, rounded (default 100)")
    _algorithm_options(f)
    f.set_defaults(run=cmd_fit)


PLAYING = {"agent": "mcts", "games": 100, "budget": 1000}
"""The options that say how the games to fit are played, with their defaults."""


def _playing_options(args) -> None:
    """Fill in the defaults of the playing options; with --from, where nothing is played, any of
    them given is a usage error rather than ignored."""
    if args.sources:
        for opt in list(PLAYING) + list(ALGORITHM_OPTIONS):
            if getattr(args, opt, None) is not None:
                raise UsageError(f"--{opt}: nothing is played with --from (the rows come from "
                                 f"{', '.join(args.sources)}), so it would be ignored; leave it out")
    for opt, default in PLAYING.items():
        if getattr(args, opt) is None:
            setattr(args, opt, default)


def _names(given: str, game, flag: str) -> list:
    names = [h.strip() for h in given.split(",")]
    for h in names:
        check_heuristic(game, h, f"{flag} {given}")
    twice = sorted({h for h in names if names.count(h) > 1})
    if twice:
        raise UsageError(f"{flag} {given}: {', '.join(twice)} given twice (a weight each would be printed twice)")
    return names


def _played(args, game, features: list) -> tuple:
    """Rows {game, group, features, final} of every decision in args.games games, and after a
    Ctrl-C the games played (else None)."""
    if args.agent.startswith(POLICY_AGENT):  # best play, by a policy solve wrote
        agent = policy_agent(args.agent, game, parameter_values(game), getattr(args, "start", None), "--agent")
    else:
        try:
            agent = make_agent(args.agent, _options(args, game, args.agent))
        except ValueError as e:
            raise UsageError(f"--agent {args.agent}: {e}{OR_POLICY if 'expected one of' in str(e) else ''}") from None
    check_options_apply(args, [args.agent])
    check_agents_fit(game, [args.agent], f"--agent {args.agent}", args.file)
    rows: list = []
    start = [0]

    def decided(g, s):
        p = max(game.current_player(s), 0)
        rows.append({"game": g + 1, "player": p, "group": None if args.by is None else game.evaluate(s, args.by, p),
                     "features": {h: game.evaluate(s, h, p) for h in features}})

    def show(g, s):
        returns = game.returns(s)
        for r in rows[start[0]:]:
            r["final"] = returns[r.pop("player")]
        start[0] = len(rows)
    bar = ProgressBar(args.games, "games", eta=True)
    played = [0]

    def progress(done, total):
        played[0] = done
        bar.update(done)
    with first_interrupt_stops("stopping once the game under way has ended") as stop, \
            unfit_is_a_usage_error(f"--agent {args.agent}"):
        play(game, [(args.agent, agent)], games=args.games, budget=args.budget, rng=random.Random(args.seed),
             progress=progress, show=show, decided=decided, stop=stop.is_set)
    bar.close()
    return rows, played[0] if stop.is_set() else None


def _stored(paths: list, features: list) -> list:
    rows = []
    for path in paths:
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except OSError as e:
            raise UsageError(f"--from {path}: {e.strerror}") from None
        for i, line in enumerate(lines, 1):
            if not line.strip():  # files joined with a blank line between them
                continue
            rows.append(_row(path, i, line, features))
    return rows


def _row(path: str, i: int, line: str, features: list) -> dict:
    """Line i of a file `fit --record` wrote, its features and final score as numbers."""
    where = f"{path}:{i}:1: not a row recorded by fit with these features"
    try:
        row = json.loads(line)
    except ValueError as e:
        raise UsageError(f"{where} (not JSON: {e.msg} at column {e.colno})") from None
    if not isinstance(row, dict) or not isinstance(row.get("features"), dict) or "final" not in row:
        raise UsageError(f'{where} (expected an object with "features" and "final")') from None
    missing = [h for h in features if h not in row["features"]]
    if missing:
        raise UsageError(f"{where} (no {', '.join(missing)} among its features: "
                         f"{', '.join(row['features']) or 'none'})")
    values = {h: row["features"][h] for h in features} | {"final": row["final"]}
    wrong = [k for k, v in values.items() if isinstance(v, bool) or not isinstance(v, (int, float))]
    if wrong:
        raise UsageError(f"{where} ({wrong[0]} is {json.dumps(values[wrong[0]])}, not a number)")
    row["features"] = {h: float(row["features"][h]) for h in features}
    row["final"] = float(row["final"])
    return row


def cmd_fit(args) -> int:
    _playing_options(args)
    if args.scale < 1:
        raise UsageError(f"--scale {args.scale}: expected a positive number (the weights are printed times it)")
    twice = sorted({f for f in args.sources or () if args.sources.count(f) > 1})
    if twice:
        raise UsageError(f"--from {', '.join(twice)}: given twice, so its rows would count twice")
    game = _load(args)
    features = _names(args.features, game, "--features")
    if args.by is not None:
        _names(args.by, game, "--by")
    record = new_file("--record", args.record, (".jsonl",), "fit")
    rows, interrupted = (_stored(args.sources, features), None) if args.sources else _played(args, game, features)
    status = 130 if interrupted is not None else 0
    if record is not None:
        record.write_all(lambda f: f.writelines(json.dumps(r) + "\n" for r in rows))
    if not rows:
        hold = "holds" if len(args.sources or ()) == 1 else "hold"
        raise UsageError("no decisions to fit: " + (f"{', '.join(args.sources)} {hold} no rows" if args.sources
                                                     else "no game reached a decision"))
    groups = {r.get("group") for r in rows}
    if args.by is not None and args.sources and None in groups:
        raise UsageError(f"--by {args.by}: the rows of {', '.join(args.sources)} were recorded without --by, so they "
                         f"have no {args.by} to group them by; record them again with --by {args.by}, or fit them "
                         "without it")
    if args.by is not None and any(g is None or g != int(g) or g < 0 for g in groups):
        raise UsageError(f"--by {args.by}: expected whole values of 0 or more, got {sorted(groups, key=str)}")
    # without --by, one fit of every row, whatever groups they were recorded with
    fits = fit_groups([(None if args.by is None else int(r["group"]), [r["features"][h] for h in features],
                        r["final"]) for r in rows])
    out = {g: {"n": f.n, "r2": None if math.isnan(f.r2) else round(f.r2, 4), "rmse": round(f.rmse, 4),
               "bias": f.bias, "weights": dict(zip(features, f.weights))} for g, f in fits.items()}
    if args.json:
        print(json.dumps({"game": game.title, "set": settings_given(game, args.set), "rows": len(rows), "by": args.by,
                          "fits": [{"group": g, **v} for g, v in out.items()], "interrupted": interrupted is not None}))
        return status
    print(f"{titled(game, args.set)}: {len(rows)} decisions fitted"
          + (f", one fit per value of {args.by}" if args.by else ""))
    if interrupted is not None:
        print(f"  interrupted ({interrupted_by()}) after {counted(interrupted, 'game')} of {args.games:,}: "
              "the decisions of those")
    games = {}  # each game played: its decisions' features and final scores
    for r in rows if not args.sources else ():
        games.setdefault(r["game"], []).append((tuple(r["features"].values()), r["final"]))
    if len(games) > 1 and len({tuple(g) for g in games.values()}) == 1:
        print(f"  the {len(games):,} games played were one game over and over (neither the agent nor the game "
              "draws anything), so the fit is of that game's decisions; an agent that draws, as mcts or random do, "
              "plays games that differ")
    width = max(len(h) for h in features + ["bias"])
    for g, v in out.items():
        r2 = "undefined (the score never varies)" if v["r2"] is None else f"{v['r2']:.3f}"
        print(f"  {'' if g is None else f'{args.by} {g}: '}{v['n']} rows, R^2 {r2}, "
              f"rms error {v['rmse']:.2f}")
        for h in features + ["bias"]:
            print(f"    {h:<{width}} {v['bias'] if h == 'bias' else v['weights'][h]:10.4f}")
    print(f"as constants (times {args.scale}, rounded)" + (f", indexed by {args.by}:" if args.by else ":"))
    for h in features + ["bias"]:
        def scaled(g):
            return round(args.scale * (out[g]["bias"] if h == "bias" else out[g]["weights"][h])) if g in out else 0
        value = scaled(None) if args.by is None else [scaled(g) for g in range(max(fits) + 1)]
        print(f"const w_{h} = {value}")
    if args.by is not None:
        print(f"# {args.by} 0..{max(fits)}: the values met at decisions; the end is none (a heuristic values it as "
              f"the score does: `if END then SCORE else ...`), nor is any {args.by} past {max(fits)}")
    return status
