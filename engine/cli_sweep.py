"""solve --sweep NAME: one solve for each value of a parameter, a row each."""
from __future__ import annotations

import argparse
import io
import json
import re
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Callable

from .diagnostics import Forbidden, RuleErrors, RuleRuntimeError, UsageError, counted
from .interrupt import interrupted_by
from .load import ANY_NUMBER, SWEEP_MOST, NumbersText, load_game, parse_settings, sweep_values, titled
from .progress import ProgressBar
from .runtime import plain_number


def _as_json(value: str):
    """A swept value (as `--set` text) as JSON gives it: a whole number, true or false for yes or
    no, or the name of an enum value."""
    if value in ("yes", "no"):
        return value == "yes"
    return int(value) if value.lstrip("-").isdigit() else value


def sweep(args, solve_one: Callable[[argparse.Namespace], int]) -> int:
    """Run `solve_one` (the solve command) with each value of the parameter args.sweep added to
    the --set values, its JSON read back, and print a row per value (or, with --json, one object
    holding each run's). A value the file forbids is a row saying so; a run that fails shows
    its error on stderr after the setting, and the sweep then exits 1. A number past which the
    states outgrow --max-states ends a sweep of all of a parameter's numbers: the larger ones are
    rows skipped (each would likely search as long for nothing); values the user named are each
    tried."""
    name, _, chosen = args.sweep.partition("=")
    for flag in ("plot", "policy"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} takes one solve: it cannot go with --sweep")
    if not args.json:  # the table has a row per value; --json gives each run whole
        for flag, what in (("moves", "the first moves"), ("show", "the states of the best line"),
                           ("lines", "the lines of best play")):
            if getattr(args, flag) is not None and getattr(args, flag) is not False:  # --lines 0 counts
                raise UsageError(f"--{flag}: the table of --sweep has a row per value, without {what}; with "
                                 f"--json each run has them, or solve one value with --set {name}=V")
    settings = parse_settings(args.set)
    if name in settings:
        raise UsageError(f"--sweep {name}: {name} is set by --set {name}={settings[name]}; sweep it or set it")
    game = load_game(args.file, settings, forbid=False)  # the parameter's values, whatever its default
    game.started_from = getattr(args, "start", None)  # the title says so, as a single solve's does
    values = sweep_values(game, name, named=bool(chosen))
    if chosen:
        values = _chosen(name, chosen, values)
    if len(values) > SWEEP_MOST:
        raise UsageError(f"--sweep {name}: {len(values):,} values ({values[0]}..{values[-1]}), more than "
                         f"{SWEEP_MOST:,}; --sweep {name}=A..B solves those from A to B")
    bar = ProgressBar(len(values), f"values of {name}", eta=True)
    runs, status, interrupted = [], 0, False
    numbers = all(v.lstrip("-").isdigit() for v in values)
    too_many = None  # the number whose states outgrew --max-states
    told = None  # the first value whose states outgrew --max-states, its message shown in full
    for i, value in enumerate(values):
        if interrupted:
            break
        if too_many is not None and not chosen:  # values the user named are each solved
            runs.append({"swept": _as_json(value), "skipped": f"{name}={too_many} has more than "
                         f"{counted(args.max_states, 'state')}"})
            continue
        bar.update(i, f"{name}={value}")
        one = argparse.Namespace(**{**vars(args), "set": [*(args.set or []), f"{name}={value}"], "json": True,
                                    "sweep": None})
        out, err = io.StringIO(), io.StringIO()
        try:
            with redirect_stdout(out), redirect_stderr(err):
                code = solve_one(one)
        except KeyboardInterrupt:  # the rows solved by then are kept; the solve under way is lost
            interrupted = True
            continue
        except Forbidden as e:  # a combination the file forbids
            runs.append({"swept": _as_json(value), "forbidden": str(e)})
            continue
        except UsageError as e:  # another that cannot be solved: a --from state not of the game so set
            bar.close()
            print(f"with --set {name}={value}: error: {e}", file=sys.stderr)
            runs.append({"swept": _as_json(value), "error": f"error: {e}"})
            status = 1
            continue
        except (RuleErrors, RuleRuntimeError):
            bar.close()
            print(f"with --set {name}={value}:", file=sys.stderr)
            raise
        if code != 0:
            bar.close()
            failed = json.loads(out.getvalue() or "{}")  # what solve --json said of its failure
            if "max_states" in failed and told is not None:  # the message once, then a line for each other
                print(f"with --set {name}={value}: more than {counted(failed['max_states'], 'state')} too, as with "
                      f"{name}={told}", file=sys.stderr)
            else:
                print(f"with --set {name}={value}:\n{err.getvalue().rstrip()}", file=sys.stderr)
                told = value if "max_states" in failed else told
            runs.append({"swept": _as_json(value), "error": err.getvalue().strip(),
                         **{k: v for k, v in failed.items() if k not in ("file", "error")}})
            status = 1
            if numbers and "max_states" in failed:
                too_many = value
            continue
        runs.append({"swept": _as_json(value), **json.loads(out.getvalue())})
    bar.close()
    if args.json:
        start = {"from": game.started_from} if game.started_from else {}
        print(json.dumps({"game": game.title, **start, "sweep": name, "runs": runs, "interrupted": interrupted}))
    else:
        _print_table(game, args, name, values, runs)
        skipped = [v for v, r in zip(values, runs) if "skipped" in r]
        if skipped:
            again = f"{skipped[0]}..{skipped[-1]} solves them" if len(skipped) > 1 else f"{skipped[0]} solves it"
            print(f"  skipped: {', '.join(skipped)}, as {name}={too_many} has more than "
                  f"{counted(args.max_states, 'state')}; "
                  f"--sweep {name}={again} all the same (--max-states N lets solve hold more)")
        if interrupted:
            rest = values[len(runs):]
            by = interrupted_by()
            again = f"{rest[0]}..{rest[-1]}" if rest[0].lstrip("-").isdigit() and len(rest) > 1 else ",".join(rest)
            print(f"  interrupted ({by}) while solving {name}={rest[0]}: --sweep {name}={again} solves the rest")
    return 130 if interrupted else status


def _chosen(name: str, chosen: str, values: list) -> list:
    """The values of `--sweep NAME=A..B` (whole numbers from A to B) or `NAME=V,W,...`, each one
    the parameter takes, in the order of its values."""
    if ".." in chosen:
        lo, _, hi = chosen.partition("..")
        try:
            lo, hi = int(lo), int(hi)
        except ValueError:
            raise UsageError(f"--sweep {name}={chosen}: expected whole numbers A..B") from None
        if lo > hi:
            raise UsageError(f"--sweep {name}={chosen}: {lo} is above {hi}; the range is written from the least, "
                             f"{name}={hi}..{lo}")
        numbers = [int(v) for v in values if v.lstrip("-").isdigit()] if not isinstance(values, NumbersText) else ()
        least, most = (values.lo, values.hi) if isinstance(values, NumbersText) else \
            (min(numbers), max(numbers)) if numbers else (lo, hi)
        outside = [str(v) for v in (lo, hi) if not least <= v <= most]
        if outside and (least <= hi and lo <= most):  # a range wholly outside is told below
            raise UsageError(f"--sweep {name}={chosen}: {' and '.join(outside)} "
                             f"{'is not a value' if len(outside) == 1 else 'are not values'} of {name}; its values: "
                             f"{_listed(values)}")
        part = NumbersText(max(lo, values.lo), min(hi, values.hi)) if isinstance(values, NumbersText) else values
        if len(part) > SWEEP_MOST:
            raise UsageError(f"--sweep {name}={chosen}: {len(part):,} values, more than {SWEEP_MOST:,}; name fewer")
        picked = [v for v in part if v.lstrip("-").isdigit() and lo <= int(v) <= hi]  # a range's part A..B alone
    else:
        picked = [v.strip() for v in chosen.split(",")]
        wrong = [v for v in picked if v not in values]
        if wrong:
            raise UsageError(f"--sweep {name}={chosen}: {', '.join(wrong)} is not a value of {name}; its values: "
                             f"{_listed(values)}")
        picked = sorted(set(picked), key=int) if isinstance(values, NumbersText) else \
            [v for v in values if v in picked]
    if not picked:
        raise UsageError(f"--sweep {name}={chosen}: none of the values of {name} ({_listed(values)})")
    return picked


def _listed(values) -> str:
    """A parameter's values as a message names them."""
    if isinstance(values, NumbersText):
        return "any whole number" if values.hi == ANY_NUMBER else f"{values[0]}..{values[-1]}"
    return ", ".join(values)


def _print_table(game, args, name: str, values: list, runs: list) -> None:
    """One row per value: the value (or each player's), the distinct states (or those alpha-beta
    searched), the seconds and the first move of the best line."""
    # the players of the run with the most (`players ... first n` with n swept), else the game's
    players = max((r.get("players") or [] for r in runs), key=len, default=[]) or game.player_names
    # one player without chance: how many terminal paths reach the best score (a puzzle's solutions)
    counted_paths = len(players) == 1 and not game.chance_decls and any(r.get("outcomes") for r in runs)
    searched = getattr(args, "alpha_beta", False)  # alpha-beta counts the states it searched, not all there are
    heads = [name] + (["best score"] if len(players) == 1 else list(players)) + \
        (["paths to it"] if counted_paths else []) + ["states searched" if searched else "distinct states", "seconds",
                                                      "first move"]
    rows = []
    for swept, r in zip(values, runs):  # each value as --set takes it
        if "forbidden" in r:
            rows.append([swept, "forbidden by the file"])
        elif "error" in r:
            rows.append([swept, f"more than {counted(r['max_states'], 'state')}" if "max_states" in r else
                         "failed: its error is on stderr"])
        elif "skipped" in r:
            rows.append([swept, "skipped"])
        else:
            cut = r["method"] != "value iteration" and not r["complete"]
            value = [f"{plain_number(v)}" + (" (cut)" if cut else "") for v in r["value"]]
            value += ["-"] * (len(players) - len(value))  # players not seated with this value
            paths = [f"{sum(o['paths'] for o in r.get('outcomes', ()) if o['returns'] == r['value']):,}"
                     if r.get("outcomes") else "-"] if counted_paths else []
            states = r["states_searched"] if searched else r["distinct_states"]
            first = r["best_line"][1] if len(r["best_line"]) > 1 else None  # [0] is the initial state
            move = "-" if first is None else "(chance)" if first.get("chance") else first["move"]
            rows.append([swept, *value, *paths, f"{states:,}", f"{r['seconds']:.2f}", move])
    for k in range(1, 1 + len(players)):  # the values of a column to as many places, so their points line up
        _same_places([row for row in rows if len(row) == len(heads)], k)
    print(f"{titled(game, args.set)}: solved for each value of {name}"
          + (f", to depth {args.depth} (cut: the "
             + ("score" if args.heuristic is None else f"heuristic {args.heuristic}") + " where the lines stop)"
             if args.depth is not None else ""))
    widths = [max([len(h)] + [len(row[k]) for row in rows if k < len(row) and (k == 0 or len(row) == len(heads))])
              for k, h in enumerate(heads)]
    last = len(heads) - 1  # the first move, a label: to the left, as the value swept

    def line(cells):
        return ("  " + "  ".join(c.rjust(w) if 0 < k < last else c.ljust(w)
                                 for k, (c, w) in enumerate(zip(cells, widths)))).rstrip()
    print(line(heads))
    for row in rows:
        if len(row) == len(heads):
            print(line(row))
        else:
            print("  " + row[0].ljust(widths[0]) + "  " + row[1])


def _same_places(rows: list, k: int) -> None:
    """Write the numbers of column k with as many decimal places as the one with most (-0.0240
    beside -0.0124), zeros added."""
    numbers = [re.fullmatch(r"(-?\d+)(?:\.(\d+))?(.*)", row[k]) for row in rows]
    places = max((len(m.group(2) or "") for m in numbers if m), default=0)
    if places:
        for row, m in zip(rows, numbers):
            if m:
                row[k] = f"{m.group(1)}.{(m.group(2) or '').ljust(places, '0')}{m.group(3)}"
