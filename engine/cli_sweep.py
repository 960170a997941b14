"""solve --sweep NAME: one solve for each value of a parameter, a row each."""
from __future__ import annotations

import argparse
import io
import json
import re
import sys
from contextlib import redirect_stderr, redirect_stdout
from typing import Callable

from .check import names_in
from .diagnostics import Forbidden, RuleErrors, RuleRuntimeError, UsageError, counted
from .interrupt import interrupted_by
from .load import ANY_NUMBER, SWEEP_MOST, NumbersText, load_game, parse_settings, sweep_values, titled
from .progress import ProgressBar
from .runtime import number_text


def _as_json(value: str):
    """A swept value (as `--set` text) as JSON gives it: a whole number, true or false for yes or
    no, or the name of an enum value."""
    if value in ("yes", "no"):
        return value == "yes"
    return int(value) if value.lstrip("-").isdigit() else value


def sweep(args, solve_one: Callable[[argparse.Namespace], int]) -> int:
    """Run `solve_one` (the solve command) with each value of the parameter args.sweep (a list:
    with more than one parameter, each combination of their values) added to the --set values,
    its JSON read back, and print a row per run (or, with --json, one object holding each run's).
    A combination the file forbids is a row saying so; a run that fails shows its error on stderr
    after the settings, and the sweep then exits 1. A number past which the states outgrow
    --max-states ends a sweep of all of the last parameter's numbers (with the others' values
    the same): the larger ones are rows skipped (each would likely search as long for nothing);
    values the user named are each tried."""
    specs = [spec.partition("=") for spec in args.sweep]
    names = [name for name, _, _ in specs]
    for flag in ("plot", "policy"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag} takes one solve: it cannot go with --sweep")
    if not args.json:  # the table has a row per value (a column for the count of lines and each measure)
        for flag, what in (("moves", "the first moves"), ("show", "the states of the best line"),
                           ("lines", "the lines of best play (--lines 0 counts them in a column)")):
            if getattr(args, flag) not in (None, False, 0):
                raise UsageError(f"--{flag}: the table of --sweep has a row per value, without {what}; with "
                                 f"--json each run has them, or solve one value with "
                                 + " ".join(f"--set {name}=V" for name in names))
    twice = next((name for k, name in enumerate(names) if name in names[:k]), None)
    if twice is not None:
        raise UsageError(f"--sweep {twice} is given twice; a parameter is swept once, its values named together: "
                         f"--sweep {twice}=V,W,...")
    settings = parse_settings(args.set)
    for name in names:
        if name in settings:
            raise UsageError(f"--sweep {name}: {name} is set by --set {name}={settings[name]}; sweep it or set it")
    game = load_game(args.file, settings, forbid=False)  # the parameters' values, whatever their defaults
    game.started_from = getattr(args, "start", None)  # the title says so, as a single solve's does
    axes = []  # the values of each parameter swept, as --set takes them (with the first values of those before)
    combos: list = [()]
    left_out = []  # (the values before, the value named, the values it may take with them) not solved
    for k, (name, _, chosen) in enumerate(specs):
        after = next((n.id for n in names_in(_domain(game, name)) if n.id in names[k + 1:]), None)
        if after:
            raise UsageError(f"--sweep {name}: its values are worked out from {after}, swept after it; sweep {after} "
                             f"first: --sweep {after} --sweep {name}")
        per = {before: _values_with(args.file, settings, names, before, name) or sweep_values(game, name)
               for before in (combos if k and _reads_settings(game, name) else ())}  # its range read from them
        values = _chosen(name, chosen, _union(per.values())) if chosen and per else \
            _values(game, name, chosen) if not per else None
        for before, vs in per.items():
            picked = [v for v in values if v in vs] if values is not None else vs
            left_out += [(before, v, vs) for v in values or () if v not in vs]
            per[before] = picked
        for vs in (values or (), *per.values()):
            if len(vs) > SWEEP_MOST:
                raise UsageError(f"--sweep {name}: {len(vs):,} values ({vs[0]}..{vs[-1]}), more than "
                                 f"{SWEEP_MOST:,}; --sweep {name}=A..B solves those from A to B")
        axes.append(per[combos[0]] if per else values)
        combos = [(*before, v) for before in combos for v in per.get(before, values)]
        if len(combos) > SWEEP_MOST:
            raise UsageError(f"--sweep {' --sweep '.join(args.sweep)}: "
                             f"{' x '.join(f'{len(values):,}' for values in axes)} runs, more than {SWEEP_MOST:,}; "
                             "name fewer values of one: --sweep NAME=A..B or NAME=V,W,...")
    one = len(names) == 1
    bar = ProgressBar(len(combos), f"values of {names[0]}" if one else "runs", eta=True)
    runs, status, interrupted = [], 0, False
    usage: list = []  # (the settings, the message) of each run refused as a usage error
    # numbers of the last parameter to skip past too many states; values the user named are each solved
    numbers = all(combo[-1].lstrip("-").isdigit() for combo in combos) and not specs[-1][2]
    too_many = {}  # the others' values: the number of the last parameter whose states outgrew --max-states
    told = None  # the first combination whose states outgrew --max-states, its message shown in full
    no_end = False  # whether a run's message that no end can be reached was shown (once: each row says it)
    for combo in combos:
        if interrupted:
            break
        swept = _as_json(combo[0]) if one else [_as_json(v) for v in combo]
        if combo[:-1] in too_many:
            runs.append({"swept": swept, "skipped": f"{_named(names, (*combo[:-1], too_many[combo[:-1]]))} has "
                         f"more than {counted(args.max_states, 'state')}"})
            continue
        bar.update(len(runs), _named(names, combo))
        values = [f"{name}={value}" for name, value in zip(names, combo)]
        setting = " ".join(f"--set {v}" for v in values)
        run = argparse.Namespace(**{**vars(args), "set": [*(args.set or []), *values], "json": True, "sweep": None})
        out, err = io.StringIO(), io.StringIO()
        try:
            with redirect_stdout(out), redirect_stderr(err):
                code = solve_one(run)
        except KeyboardInterrupt:  # the rows solved by then are kept; the solve under way is lost
            interrupted = True
            continue
        except Forbidden as e:  # a combination the file forbids
            runs.append({"swept": swept, "forbidden": str(e)})
            continue
        except UsageError as e:  # another that cannot be solved: a --from state not of the game so set
            bar.close()
            usage.append((setting, str(e)))  # told after the runs: once, where every run was refused alike
            runs.append({"swept": swept, "error": f"error: {e}"})
            status = 1
            continue
        if code != 0:
            bar.close()
            failed = json.loads(out.getvalue() or "{}")  # what solve --json said of its failure
            if "max_states" in failed and told is not None:  # the message once, then a line for each other
                print(f"with {setting}: more than {counted(failed['max_states'], 'state')} too, as with "
                      f"{_named(names, told)}", file=sys.stderr)
            elif "no_end" in failed and no_end:  # the message once: the rows say it of the others
                pass
            else:
                no_end = no_end or "no_end" in failed
                print(f"with {setting}:\n{err.getvalue().rstrip()}", file=sys.stderr)
                told = combo if "max_states" in failed else told
            runs.append({"swept": swept, "error": err.getvalue().strip(),
                         **{k: v for k, v in failed.items() if k not in ("file", "error")}})
            status = 1
            if numbers and "max_states" in failed:
                too_many[combo[:-1]] = combo[-1]
            continue
        runs.append({"swept": swept, **json.loads(out.getvalue())})
    bar.close()
    if len(usage) == len(combos) and len({text for _, text in usage}) == 1:  # refused whatever the values
        status = 2
        print(f"error: {usage[0][1]}", file=sys.stderr)
        if not args.json:
            return status
    else:
        for setting, text in usage:
            print(f"with {setting}: error: {text}", file=sys.stderr)
    if args.json:
        start = {"from": game.started_from} if game.started_from else {}
        unsolved = {"not_values": [{"swept": [_as_json(v) for v in (*before, value)], "values": _listed(vs)}
                                   for before, value, vs in left_out]} if left_out else {}
        print(json.dumps({"game": game.title, **start, "sweep": names[0] if one else names, "runs": runs,
                          **unsolved, "interrupted": interrupted}))
    else:
        _print_table(game, args, names, combos, runs)
        _print_skipped(args, names, combos, runs, too_many)
        for before, value, vs in left_out:
            print(f"  not solved: {names[len(before)]}={value} with {_named(names, before)}, where "
                  f"{names[len(before)]} takes {_listed(vs)}")
        if interrupted:
            _print_interrupted(specs, axes, combos[len(runs)])
    return 130 if interrupted else status


def _values(game, name: str, chosen: str) -> list:
    """The values of the parameter `name` to sweep (those `chosen` names, if any) in `game`."""
    values = sweep_values(game, name, named=bool(chosen))
    return _chosen(name, chosen, values) if chosen else values


def _values_with(path: str, settings: dict, names: list, before: tuple, name: str) -> list:
    """Every value of the parameter `name` with those `before` it set; none where the game does not
    set up so (its runs say why)."""
    try:
        return sweep_values(load_game(path, {**settings, **dict(zip(names, before))}, forbid=False), name)
    except (RuleErrors, RuleRuntimeError):
        return []


def _union(lists) -> list:
    """The values of all of `lists`, each once, in the order of their numbers if all are numbers."""
    values = list(dict.fromkeys(v for vs in lists for v in vs))
    if not all(v.lstrip("-").isdigit() for v in values):
        return values
    numbers = sorted(int(v) for v in values)
    return NumbersText(numbers[0], numbers[-1]) if numbers[-1] - numbers[0] == len(numbers) - 1 else \
        [str(n) for n in numbers]


def _reads_settings(game, name: str) -> bool:
    """Whether the values the parameter `name` takes are worked out from a parameter or constant
    (`param trump in -1..suits - 1`), so may differ with another parameter's value."""
    return any(getattr(game.checker.globals.get(n.id), "kind", None) in ("param", "const")
               for n in names_in(_domain(game, name)))


def _domain(game, name: str):
    """The values a parameter is declared to take (`1..n` of `param k in 1..n`), if any."""
    return getattr(getattr(game.checker.globals.get(name), "decl", None), "domain", None)


def _named(names: list, combo: tuple) -> str:
    """The values of a run as NAME=V, one for each parameter swept."""
    return " ".join(f"{name}={value}" for name, value in zip(names, combo))


def _print_skipped(args, names: list, combos: list, runs: list, too_many: dict) -> None:
    """A line under the table for the numbers of the last parameter skipped with each of the
    others' values: the one whose states outgrew --max-states and the sweep that solves them."""
    last = names[-1]
    for others, number in too_many.items():
        skipped = [combo[-1] for combo, run in zip(combos, runs) if combo[:-1] == others and "skipped" in run]
        if not skipped:
            continue
        again = f"{skipped[0]}..{skipped[-1]}" if len(skipped) > 1 else skipped[0]
        where = "".join(f" --set {name}={value}" for name, value in zip(names, others))
        print(f"  skipped: {', '.join(skipped)}, as {_named(names, (*others, number))} has more than "
              f"{counted(args.max_states, 'state')}; --sweep {last}={again}{where} solves "
              f"{'them' if len(skipped) > 1 else 'it'} all the same (--max-states N lets solve hold more)")


def _print_interrupted(specs: list, axes: list, stopped: tuple) -> None:
    """The line under the table of a sweep stopped by Ctrl-C: the run under way and the sweep that
    solves the rest (with more than one parameter: from the first's value under way on)."""
    rest = axes[0][list(axes[0]).index(stopped[0]):]
    again = f"{rest[0]}..{rest[-1]}" if rest[0].lstrip("-").isdigit() and len(rest) > 1 else ",".join(rest)
    others = "".join(f" --sweep {name}{'=' if chosen else ''}{chosen}" for name, _, chosen in specs[1:])
    names = [name for name, _, _ in specs]
    print(f"  interrupted ({interrupted_by()}) while solving {_named(names, stopped)}: --sweep {names[0]}={again}"
          f"{others} solves the rest" + (f" (and again those of {names[0]}={stopped[0]} solved)"
                                         if len(specs) > 1 and stopped[1:] != tuple(a[0] for a in axes[1:]) else ""))


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
        twice = sorted({v for v in picked if picked.count(v) > 1}, key=picked.index)
        if twice:
            raise UsageError(f"--sweep {name}={chosen}: {', '.join(twice)} is named twice; a row is solved once for "
                             f"each value")
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


def _print_table(game, args, names: list, combos: list, runs: list) -> None:
    """One row per run: the values swept, the best score (or each player's value), with --lines 0 the
    count of the lines of best play, each --measure's value, the distinct states (or those alpha-beta
    searched), the seconds and the first move of the best line."""
    # the players of the run with the most (`players ... first n` with n swept), else the game's
    players = max((r.get("players") or [] for r in runs), key=len, default=[]) or game.player_names
    # one player without chance: how many terminal paths reach the best score (a puzzle's solutions)
    counted_paths = len(players) == 1 and not any(r.get("chance") for r in runs) and \
        any(r.get("outcomes") for r in runs)
    searched = getattr(args, "alpha_beta", False)  # alpha-beta counts the states it searched, not all there are
    keys = len(names)  # the columns of the values swept
    measures = list(args.measure or [])  # a column each, headed by its expression
    lines = args.lines is not None  # --lines 0: a column of the count of the lines of best play
    heads = [*names] + (["best score"] if len(players) == 1 else list(players)) + \
        (["paths to it"] if counted_paths else []) + (["lines of best play"] if lines else []) + measures + \
        ["states searched" if searched else "distinct states", "seconds", "first move"]
    rows = []
    for combo, r in zip(combos, runs):  # each value as --set takes it
        if "forbidden" in r:
            rows.append([*combo, "forbidden by the file"])
        elif "error" in r:
            rows.append([*combo, f"more than {counted(r['max_states'], 'state')}" if "max_states" in r else
                         "no end can be reached: no value" if r.get("no_end") else "failed: its error is on stderr"])
        elif "skipped" in r:
            rows.append([*combo, "skipped"])
        else:
            cut = r["method"] != "value iteration" and not r["complete"]
            mark = " (cut)" if cut else " (round)" if r.get("comes_round") else ""
            value = [f"{number_text(v)}{mark}" for v in r["value"]]
            value += ["-"] * (len(players) - len(value))  # players not seated with this value
            paths = [f"{sum(o['paths'] for o in r.get('outcomes', ()) if o['returns'] == r['value']):,}"
                     if r.get("outcomes") else "-"] if counted_paths else []
            count = r.get("best_lines", {}).get("count")  # null where best play goes round
            paths += [f"{count:,}" if count is not None else "round" if "best_lines" in r else "-"] if lines else []
            paths += [number_text(x['value']) for x in r.get("measures", ())] or ["-"] * len(measures)
            states = r["states_searched"] if searched else r["distinct_states"]
            first = r["best_line"][1] if len(r["best_line"]) > 1 else None  # [0] is the initial state
            move = "-" if first is None else "(chance)" if first.get("chance") else first["move"]
            rows.append([*combo, *value, *paths, f"{states:,}", f"{r['seconds']:.2f}", move])
    numbers = [*range(keys, keys + len(players)), *(len(heads) - 3 - k for k in range(1, len(measures) + 1))]
    for k in numbers:  # the values of a column to as many places, so their points line up
        _same_places([row for row in rows if len(row) == len(heads)], k)
    print(f"{titled(game, args.set)}: solved for each value of {' and '.join(names)}"
          + (f", to depth {args.depth} (cut: the "
             + ("score" if args.heuristic is None else f"heuristic {args.heuristic}") + " where the lines stop)"
             if args.depth is not None else "")
          + ("; round: best play never ends, going round a loop worth more than any end"
             if any(r.get("comes_round") for r in runs) else ""))
    widths = [max([len(h)] + [len(row[k]) for row in rows if k < len(row) and (k < keys or len(row) == len(heads))])
              for k, h in enumerate(heads)]
    last = len(heads) - 1  # the first move, a label: to the left, as the value swept

    def line(cells):
        return ("  " + "  ".join(c.rjust(w) if keys <= k < last else c.ljust(w)
                                 for k, (c, w) in enumerate(zip(cells, widths)))).rstrip()
    print(line(heads))
    for row in rows:
        if len(row) == len(heads):
            print(line(row))
        else:
            print("  " + "  ".join(c.ljust(w) for c, w in zip(row[:keys], widths)) + "  " + row[keys])


def _same_places(rows: list, k: int) -> None:
    """Pad the numbers of column k with spaces after them to as many decimal places as the one with
    most, so that their points line up (-2 above -2.7037) and each keeps the places it is written
    with (a shorter one is exact)."""
    numbers = [re.fullmatch(r"(-?\d+)(?:\.(\d+))?(.*)", row[k]) for row in rows]
    places = max((len(m.group(2) or "") for m in numbers if m), default=0)
    if places:
        for row, m in zip(rows, numbers):
            if m:
                shown = m.group(1) + (f".{m.group(2)}" if m.group(2) else "")
                row[k] = shown + " " * (places + 1 - len(shown) + len(m.group(1))) + m.group(3)
