"""The command line: validate, solve and check rule files (search, play and stats: cli_search.py)."""
from __future__ import annotations

import argparse
import functools
import importlib.metadata
import json
import math
import os
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Callable, Optional, Sequence

import attrs

from .diagnostics import (Diagnostic, Forbidden, RuleErrors, RuleRuntimeError, UsageError, clip, counted, did_you_mean,
                          similarity)
from .cli_fit import add_parser as add_fit_parser
from .cli_search import add_from, add_parsers, check_depth, check_heuristic, print_view, started_json
from .cli_sweep import sweep
from .lint import (dead_ends, draws_put_back, endless, fields_for_the_view, hidden_fields, joined, lets_in_loops,
                   lone_player_scores, loop_cuts, partial_tables, reversed_ranges, sides_out_of_order, stale_labels,
                   unapplied, unchecked_ranges, unread_fields, unread_lets, unreached, unused)
from .plots import check_plot_target, score_histogram
from .game import fraction_text
from .scored import could_be_scored, reads_scored
from .off_board import OffBoard
from .policy_file import PolicyFile
from .score_sums import ScoreSums
from .outputs import CannotWrite, NewFile
from .start_state import start_from
from .progress import ProgressBar
from .frame_room import with_room
from .interrupt import interrupted_by
from .load import (INVARIANT_SOURCE, command_line_measures, command_line_predicates, file_text, load_game,
                   other_settings, parameter_values, parse_settings, range_ends, read_rules, settings_given, titled)
from .runtime import number_text, plain_number
from search.alpha_beta import NotConstantSum, alpha_beta
from search.budget import draw, sample_outcome
from search.protocol import CHANCE
from search.solve import LINE_LIMIT, MAX_STATES, Cycle, Endless, TooManyStates, solve
from search.value_iteration import NoEnd, Trapped, iterate_values


class _Parser(argparse.ArgumentParser):
    """argparse that reports a usage error in one line and exits 2, and takes options as written
    only (`--dept` is no `--depth`: a mistyped option is named, not guessed)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, allow_abbrev=False, **kwargs)

    def error(self, message):
        bad = re.fullmatch(r"argument (?:\S+/)?(\S+): invalid (int|float) value: '(.*)'", message)
        if bad:  # as the engine's own checks of numbers say it: --games abc: expected a whole number
            flag, kind, value = bad.groups()
            raise UsageError(f"{flag} {value}: expected {'a whole number' if kind == 'int' else 'a number'}")
        if message == "the following arguments are required: --agents":
            raise UsageError(f"{self.prog}: --agents is required: the agents by seat, such as --agents mcts,random "
                             "(`--help` lists them)")
        raise UsageError(f"{self.prog}: {message}")

    def parse_known_args(self, args=None, namespace=None):
        """Positional arguments may come after options too (`validate A.rules --playouts 0 B.rules`)."""
        if self.__dict__.get("_mixing"):  # parse_known_intermixed_args calls this again
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(self._expressions_joined(args), namespace)
        finally:
            self._mixing = False


    def _expressions_joined(self, args):
        """args, with an option that takes an expression joined to one that starts with a minus
        (`--measure -spins` as `--measure=-spins`): argparse would take it for an option."""
        if args is None:
            return None
        takes = {o for a in self._actions if a.metavar == "EXPR" for o in a.option_strings}
        out = []
        for word in args:
            if out and out[-1] in takes and word.startswith("-") and word not in self._option_string_actions:
                out[-1] = f"{out[-1]}={word}"
            else:
                out.append(word)
        return out


class _Main(_Parser):
    """The top-level parser: names the commands when none or an unknown one is given, and the option
    likely meant when a command is given one it does not take."""

    commands: dict  # name: parser, set by build_parser

    parse_known_args = argparse.ArgumentParser.parse_known_args  # a parser of commands mixes nothing

    def parse_args(self, args=None, namespace=None):
        argv = sys.argv[1:] if args is None else list(args)
        names = ", ".join(self.commands)
        if not argv:
            self.error(f"expected a command, one of {names} (python -m engine COMMAND --help tells more)")
        first = argv[0]
        if first.startswith("-") and first not in ("-h", "--help", "--version"):
            self.error(f"expected a command before the options, one of {names}; got '{first}'")
        if first not in self.commands and (first.endswith(".rules") or os.path.exists(first)):
            self.error(f"expected a command before the file, one of {names}; for example "
                       f"python -m engine validate {first}")
        if not first.startswith("-") and first not in self.commands:
            near = did_you_mean(first, self.commands)
            self.error(f"no command '{first}'; " + (f"did you mean '{near}'? " if near else "")
                       + f"the commands are {names}")
        for k in range(len(argv) - 1):  # `play --show FILE`: the file is not the value --show may take
            if first == "play" and argv[k] == "--show" and (argv[k + 1].endswith(".rules")
                                                             or os.path.exists(argv[k + 1])):
                argv.insert(k + 1, "end")
                break
        parsed, extras = self.parse_known_args(argv, namespace)
        if extras:
            command = self.commands[parsed.command]
            options = [o for a in command._actions for o in a.option_strings if o.startswith("--")]
            word = extras[0].split("=", 1)[0]
            near = did_you_mean(word, options) if word.startswith("-") else None
            others = [name for name, c in self.commands.items()
                      if any(word in a.option_strings for a in c._actions)] if word.startswith("--") else []
            elsewhere = self._near_elsewhere(word, options, near) if word.startswith("--") and not others else None
            settings = [x for x in extras if re.fullmatch(r"\w+=.*", x)]
            command.error(f"unrecognized arguments: {' '.join(extras)}"
                          + (f"; {word} is an option of {joined(others, 'and')}" if others else
                             f"; did you mean {elsewhere[0]}? (an option of {joined(elsewhere[1], 'and')})"
                             if elsewhere else
                             f"; did you mean {near}?" if near else
                             "; each parameter takes a --set of its own: "
                             + " ".join(f"--set {x}" for x in settings) if settings and "--set" in options else ""))
        _given_once(self.commands[parsed.command], argv)
        return parsed

    def _near_elsewhere(self, word: str, options: list, near: Optional[str]) -> Optional[tuple]:
        """(an option of other commands closer to the mistyped `word` than `near`, the command's own
        likeliest, the commands that take it), if there is one: `validate --dept` is likely solve's
        --depth, not its own --set."""
        taken: dict = {}
        for name, c in self.commands.items():
            for o in (o for a in c._actions for o in a.option_strings if o.startswith("--") and o not in options):
                taken.setdefault(o, []).append(name)
        other = did_you_mean(word, taken)
        if other is None or near is not None and similarity(word, near) >= similarity(word, other):
            return None
        return other, taken[other]


def _given_once(command: argparse.ArgumentParser, argv: list) -> None:
    """A usage error for an option that takes one value given twice (`--depth 3 --depth 5` would
    quietly take 5); the options that gather values (`--set`) may repeat."""
    words = argv[:argv.index("--")] if "--" in argv else argv
    for action in command._actions:
        if not action.option_strings or action.nargs in (0, "?") or isinstance(action, argparse._AppendAction):
            continue  # a flag, or one whose value may be left out (--show [moves]), given twice means it once
        values = [w.split("=", 1)[1] if "=" in w else words[i + 1] if i + 1 < len(words) else ""
                  for i, w in enumerate(words) if w.split("=", 1)[0] in action.option_strings]
        if len(values) > 1:
            flag = action.option_strings[-1]
            command.error(f"{flag} given {len(values)} times ({', '.join(values)}): give it once")


def cmd_validate(args) -> int:
    if args.playouts < 0:
        raise UsageError(f"--playouts {args.playouts}: expected 0 or more (0: no random playouts)")
    if args.steps < 1:
        raise UsageError(f"--steps {args.steps}: expected a positive number")
    settings = parse_settings(args.set)
    failed = refused = False
    files = []  # what --json gives of each file
    for path in args.files:
        try:
            game = load_game(path, settings, Counter())  # counting why moves were dropped costs 1-2%
        except RuleErrors as e:
            users = [] if not any(d.code == "not-a-game" for d in e.diagnostics) else _users_of(path, args.files)
            if users:  # a file of declarations that games on the command line use: checked through them
                if not args.json:
                    print(f"{path}: no game, a part of {joined(users, 'and')}: checked with "
                          f"{'it' if len(users) == 1 else 'them'}")
                files.append({"file": path, "game": None, "ok": None, "part_of": users, "errors": [],
                              "warnings": []})
                continue
            _failing[0] = 1
            print(e.render(), file=sys.stderr)
            print(f"{path}: {counted(len(e.diagnostics), 'error')}", file=sys.stderr)
            files.append({"file": path, "game": e.title, "ok": False, "errors": [d.as_json() for d in e.diagnostics],
                          "warnings": []})
            failed = True
            continue
        except UsageError as e:  # a file missing, or a --set it does not take: the other files still checked
            _failing[0] = _failing[0] or 2
            several = len(args.files) > 1 and not str(e).startswith(path)
            print(f"error: {path}: {e}" if several else f"error: {e}", file=sys.stderr)
            files.append({"file": path, "game": getattr(e, "title", None), "ok": False, "refused": str(e),
                          "errors": [], "warnings": []})
            refused = True
            continue
        ck = game.checker
        simulated = _simulate(game, args.playouts, args.steps, settings)
        drops = game.compiler.drops  # what the playouts dropped: a field whose range dropped moves is read
        problems = (unused(ck) + unread_lets(ck) + lets_in_loops(ck) + hidden_fields(ck) + unread_fields(ck, drops)
                    + stale_labels(ck) + lone_player_scores(ck) + fields_for_the_view(ck, drops)
                    + partial_tables(ck) + draws_put_back(ck)
                    + reversed_ranges(ck) + unchecked_ranges(ck) + sides_out_of_order(ck)
                    + simulated)
        for d in sorted(problems, key=lambda d: (d.span.line, d.span.col)):
            print(d.render(game_sources(game)), file=sys.stderr)
        errors = [d for d in problems if d.severity == "error"]
        files.append({"file": path, "game": game.title, "ok": not errors,
                      "errors": [d.as_json() for d in sorted(errors, key=lambda d: (d.span.line, d.span.col))],
                      "warnings": [d.as_json() for d in sorted(problems, key=lambda d: (d.span.line, d.span.col))
                                   if d.severity != "error"]})
        if errors:
            print(f"{path}: {counted(len(errors), 'error')}", file=sys.stderr)
            failed = True
            continue
        warned = f", {counted(len(problems), 'warning')}" if problems else ""
        if not args.json:
            print(f"{path}: ok ({game.title}{warned})")
    for part in files:  # a part is as sound as the games that use it
        if "part_of" in part:
            part["ok"] = all(f["ok"] for f in files if f["file"] in part["part_of"])
    if args.json:
        print(json.dumps({"files": files}))
    return 1 if failed else 2 if refused else 0


def _users_of(path: str, files: list) -> list:
    """The other files of the command line that `use` the file at path (or use a file that does)."""
    users = []
    for other in files:
        if other == path:
            continue
        try:
            _, sources = read_rules(other)
            read = [Path(f) for f in sources if Path(f) != Path(other)]
        except UsageError:
            continue
        except RuleErrors:  # a game that does not parse still names what it uses
            try:
                text = Path(other).read_text(encoding="utf-8-sig")
            except (OSError, UnicodeDecodeError):
                continue
            read = [Path(other).parent / name for name in re.findall(r'^use\s+"([^"]+)"', text, re.M)]
        if any(f.resolve() == Path(path).resolve() for f in read):
            users.append(other)
    return users


def game_sources(game) -> dict:
    try:
        return {game.path: open(game.path, encoding="utf-8").read()}
    except OSError:
        return {}


HINT_PLAYOUTS = 4
"""Random playouts with each other value of a parameter the user set, to tell where an action
that never ran does run: the hint only needs one. An action meant for one faction of a game ran
in the first playout with it; 4 playouts with each of the 10 other values of two parameters cost
validate 20 s on a game whose 20 playouts take 9 s."""


RANGE_END_PLAYOUTS = 1
"""Random playouts at each end of a parameter's range the user did not set: a field whose range
holds the numbers of the default setting may not hold those of the greatest (a roll of `0..3` with
`param die in 1..6 = 3`). On the largest game here, whose turns run 1..100, one at 100 turns costs
about a sixth of the 20 playouts of its default 40 (2.2 s against 13 s, measured side by side)."""


def _simulate(game, playouts: int, steps: int, settings: dict) -> list:
    """Random playouts from the initial state: the rules, the view and the heuristics must run
    on every state without errors, and the invariants hold. An action that something calls but
    that never ran is a warning. Other values of the parameters the user set are tried first, one
    parameter changed at a time (`other_settings`): if the action ran with one, the warning says
    so. If not, it is no warning when it ran with another value of a parameter the user did not
    set. Those playouts must run without errors too. A game none of whose playouts ended is a
    warning too. No playouts (0) find nothing and warn of nothing."""
    if playouts == 0:
        return []
    looks = [look for look in (OffBoard.of(game), ScoreSums.of(game)) if look is not None]
    found, reached, ended, stuck = _tracked_playouts(game, playouts, steps, "", looked=looks)
    found = _with_check_hint(found, game.path, settings)
    for name, value, which in [] if found else range_ends(game, settings):  # the game must set up and play with them
        try:
            alt = load_game(game.path, {**settings, name: value})
        except Forbidden:  # a combination the file forbids
            continue
        except RuleErrors as e:  # it names the settings it was set up with
            return [_at_range_end(d, name, value, which) for d in e.diagnostics]
        found = _tracked_playouts(alt, min(playouts, RANGE_END_PLAYOUTS), steps, f"--set {name}={value}")[0]
        if found:
            return [_at_range_end(d, name, value, which)
                    for d in _with_check_hint(found, game.path, {**settings, name: value})]
    drops = dict(game.compiler.drops or {})  # (span, why) -> paths dropped so in those playouts
    chances = game.chance_decls
    # the names of the actions, the index of each chance declaration and ("when", index) of each
    # trigger, that never ran
    missing = ({sym.name for sym in game.checker.syms.values() if sym.kind == "action"} | set(range(len(chances)))
               | {("when", i) for i in range(len(game.trigger_decls))}) - reached
    tried, elsewhere, sampled = [], {}, {}  # sampled: name -> (its range, the values tried) where not all were
    for given in (True, False):
        for name, value, of in other_settings(game, settings, given=given):
            left = missing - elsewhere.keys()
            if found or not left:
                break
            try:
                alt = load_game(game.path, {**settings, name: value})
            except Forbidden:  # a combination the file forbids
                continue
            except RuleErrors as e:  # a constant that cannot be worked out with that value (named)
                found = list(e.diagnostics)
                break
            tries = min(playouts, HINT_PLAYOUTS) if given else playouts
            found, more, _, _ = _tracked_playouts(alt, tries, steps, f"--set {name}={value}", until=left)
            found = _with_check_hint(found, game.path, {**settings, name: value})
            if given:
                elsewhere.update((a, (name, value)) for a in more & left)
            else:
                tried += [name] if name not in tried else []
                sampled.setdefault(name, (of, []))[1].append(value)
                missing -= more
    tried = [name if sampled[name][0] is None else f"{name} ({', '.join(sampled[name][1])} of {sampled[name][0]})"
             for name in tried]
    actions = {sym.name for sym in game.checker.syms.values() if sym.kind == "action"}
    chance_only = bool(actions) and actions <= missing and any(i not in missing for i in range(len(chances)))
    # no player moved as every playout stopped where none could, not as chance applied everywhere
    stopped = chance_only and len(stuck) == playouts
    return found or (unreached(game.checker, missing, playouts, tried, elsewhere, settings, drops,
                               chance_only and not stopped, game.is_terminal(game.initial_state()),
                               "dead ends are ends" if stopped and game.dead_ends_end else "dead-end" if stopped
                               else None)
                     + unapplied(chances, game.trigger_decls, missing, playouts, tried, elsewhere, settings,
                                 game.is_terminal(game.initial_state()))
                     + endless(game.checker, ended, playouts, steps)
                     + loop_cuts(game.compiler.loop_cuts)
                     + [w for look in looks for w in look.warnings()]
                     + ([] if game.dead_ends_end else
                        dead_ends(game.checker, [n for n, _ in stuck], playouts,
                                  stuck and _why_stuck(game, settings, min(stuck, key=lambda x: x[0])[1]))))


def _at_range_end(d: Diagnostic, name: str, value: str, which: str) -> Diagnostic:
    """A problem met with an end of a parameter's range the user did not set, its hint saying why
    validate tried that value (`which` of the range it is)."""
    why = f"validate tries the least and the greatest value of each parameter not given with --set: {name}={value} " \
          f"is {which}"
    return attrs.evolve(d, hint=f"{d.hint}; {why}" if d.hint else why)


def _with_check_hint(found: list, path: str, settings: dict) -> list:
    """The problems random playouts found, each hinting at the check command that looks for a
    short line of moves to it."""
    return [d if "in the initial state" in d.message or d.code == "chance-run" else
            attrs.evolve(d, hint="; ".join(h for h in (d.hint, _check_line(path, settings)) if h)) for d in found]


def _check_line(path: str, settings: dict) -> str:
    """A hint: the check command that looks for a short line of moves to a rule failing (among random
    lines: a failure few of them reach may take more than its 200 examples)."""
    return (f"`python -m engine check {path}{_set_flags(settings)}` looks among random lines of play for a short "
            "one that leads here (`--examples 1000` looks at more)")


def _set_flags(settings: dict) -> str:
    """The parameters set, as the --set flags of a command pointed to."""
    return "".join(f" --set {k}={v}" for k, v in settings.items())


def _why_stuck(game, settings: dict, s) -> Counter:
    """(span, why) -> how many ways through the turn a `require` or a field's range dropped in
    state s, listed again by a copy of the game that counts them."""
    drops: Counter = Counter()
    load_game(game.path, settings, drops).legal_moves(s)
    return drops


def _tracked_playouts(game, playouts: int, steps: int, setting: str, until=None, looked: Sequence = ()) -> tuple:
    """The problems random playouts met (see _playouts), the names of the actions that ran, how
    many playouts ended, and (moves played, state) for each that stopped at a dead end; with
    `until`, the playouts stop once all of those actions have run; each of `looked` looks at each
    state (`look(state, moves before it)`)."""
    rng = random.Random(0)
    found: list = []
    bar = ProgressBar(playouts, f"random playouts{' with ' + setting if setting else ''}", eta=True)
    game.reached_actions = set()
    stuck: list = []
    try:
        ended = _playouts(game, playouts, steps, rng, found, bar, setting, until, stuck, looked)
    finally:
        bar.close()
        reached, game.reached_actions = game.reached_actions, None
    return found, reached, ended, stuck


LIST_AT_MOST = 300
"""validate lists the legal moves of each state it reaches and picks one at random; a state
whose turn has more complete paths than this gets a move from a random walk down the turn. So
with the outcomes of a chance block: listed, they are weighed (their weights must add up to 1).
Finding out that a turn is wider costs about as much as listing this many paths, and the walk
almost nothing. Measured on a game whose largest turns have over 100,000 paths, 20 playouts in
each of the 47 allowed settings of two of its parameters, with two seeds: the playouts took half
as long with 300 as with 1,000 (149 and 160 s against 307 and 295 s), and an action that few
paths reach was left unreached in about as many settings (17 and 10 against 14 and 14; with 100,
27). validate on its default settings took 4 s with 300, 8 s with 1,000, a minute with 20,000."""


def _playouts(game, playouts: int, steps: int, rng, found: list, bar, setting: str = "", until=None,
              stuck: Optional[list] = None, looked: Sequence = ()) -> int:
    """Play; append the first problem met to `found` and stop there (`setting`: the `--set`
    text of the parameter values, if not the ones validate was given). How many playouts
    ended (at a terminal state or a dead end) within `steps` moves; for each that stopped at a
    dead end (a state that is not terminal where no move is legal), the moves played before it
    and that state are appended to `stuck`."""
    also = f" with {setting}" if setting else ""
    ended = 0
    acting = any(sym.kind == "action" for sym in game.checker.syms.values())  # a long run of chance is no game's
    for n in range(playouts):
        if until is not None and until <= game.reached_actions:
            return ended
        s, before, chances, step = game.initial_state(), None, 0, 0  # chance steps in a row just before s
        try:
            for step in range(steps + 1):
                bar.update(n, f"move {step}")
                for decl in game.broken_invariants(s) + (game.broken_steps(before, s) if step else []):
                    where = ("in the initial state" if step == 0 else f"after {counted(step, 'random move')}") + also
                    found.append(Diagnostic("invariant", f"invariant does not hold {where}", decl.span,
                                            None if step else "the state as it starts: "
                                            + clip(json.dumps(game.state_json(s)), 300)))
                    return ended
                for look in looked:
                    look.look(s, step)
                game.view(s)  # the view and the heuristics must run on every state too
                for name in game.heuristics:
                    game.evaluate(s, name)
                if game.is_terminal(s):
                    game.returns(s)
                    ended += 1
                    break
                if game.current_player(s) == CHANCE:  # listed where it can be, to weigh them all
                    if chances == CHANCE_RUN_MOST and acting:
                        found.append(_chance_run(game, s, chances, n, step, also))
                        return ended
                    outcomes = game.chance_outcomes_within(s, LIST_AT_MOST)
                    outcome = sample_outcome(game, s, rng) if outcomes is None else \
                        outcomes[draw([w for _, w in outcomes], rng)][0]
                    s, before, chances = game.apply(s, outcome), s, chances + 1
                    continue
                chances = 0
                moves = game.legal_moves_within(s, LIST_AT_MOST)
                if moves is None:  # too many to list while the user waits: walk down the turn instead
                    move = game.sample_move(s, rng)
                elif moves:
                    move = rng.choice(moves)
                else:
                    move = None
                ended += move is None
                if move is None and stuck is not None:
                    stuck.append((step, s))
                if move is None or step == steps:
                    break
                s, before = game.apply(s, move), s
        except RuleRuntimeError as e:
            hint = e.hint
            if chances >= CHANCES_IN_A_ROW and game.current_player(s) == CHANCE:
                hint = (f"{hint}; " if hint else "") + f"here chance steps came {chances + 1} in a row: a " \
                    "`chance when COND` block runs again while COND holds: does the block make COND false?"
            where = "in the initial state" if step == 0 else "in a random playout"  # no line of moves to find
            found.append(Diagnostic("runtime", f"{e.message} ({where}{also})", e.span, hint))
            return ended
    return ended


CHANCE_RUN_MOST = 200
"""Chance steps in a row, in a game whose players have actions, after which validate stops: a chance
block that never turns its condition off (a roll that leaves its `to_roll` as it was) applies
forever, each roll slower than the one before where it adds to a collection (a user's dice bag:
over three minutes without a word)."""


def _chance_run(game, s, chances: int, playout: int, step: int, also: str) -> Diagnostic:
    """The warning that chance moved `chances` times in a row in state s's playout, named at the
    block that applies in s."""
    decl = game.chance_decl(s)
    return Diagnostic("chance-run", f"chance moved {chances} times in a row and no player moved (random playout "
                      f"{playout + 1}, after {counted(step, 'step')}{also}); validate stopped there", decl.span,
                      "a `chance when COND` block applies again while COND holds: does the block make COND "
                      "false (a roll that sets what is left to roll to 0)?", severity="warning")


def _solve_measures(args, game) -> list:
    """(text, declaration, state -> int) of each --measure of a solve, which goes to the end."""
    if not args.measure:
        return []
    if args.depth is not None or args.alpha_beta:
        raise UsageError("--measure: takes the best play of a whole solve, to the end of the game; "
                         + ("--depth N stops the lines short of it" if args.depth is not None else
                            "alpha-beta cuts off the moves it need not value"))
    try:
        return [(text, d, f) for text, (d, f) in zip(args.measure, command_line_measures(game, args.measure))]
    except RuleErrors as e:
        raise UsageError("--measure: the expression has errors\n" + e.render()) from None


def _measures_json(args, measured: tuple, places: int) -> dict:
    """What --json gains with --measure: `measures`, an {"expr", "value"} each."""
    return {"measures": [{"expr": text, "value": plain_number(v, places)}
                         for (text, _, _), v in zip(args.measured, measured)]} if args.measured else {}


def _print_measures(game, args, measured: tuple, round_: bool = False) -> None:
    """Each --measure's value at the end under best play; `round_`: best play never ends (a line that
    goes round counts 0, as value iteration values it)."""
    if args.measured:
        width = max(len(text) for text, _, _ in args.measured)
        print("  at the end of the game under the best play found"
              + (" (which comes round: a line that never ends counts 0)" if round_ else "")
              + (", expected (chance weighing the outcomes):" if game.chance_seen else ":"))
        for (text, _, _), v in zip(args.measured, measured):
            print(f"    {text:<{width}}  {number_text(v)}")


def _sweep_row(args) -> int:
    """One solve of a sweep: its report a row of the sweep's, not told whole (see _reported)."""
    try:
        return cmd_solve(args)
    except (RuleErrors, RuleRuntimeError) as e:  # told as main tells it, a row of its own
        return _report_failure(e, args)
    finally:
        _told[0] = None


CHANCES_IN_A_ROW = 3
"""Chance steps in a row before a runtime error that make validate ask whether a chance block
ever turns its condition off."""


def cmd_solve(args) -> int:
    if args.sweep:
        return sweep(args, _sweep_row)
    check_depth(args.depth)
    if args.max_states < 1:
        raise UsageError(f"--max-states {args.max_states}: expected a positive number")
    game, texts, extra = _with_invariants(args)
    if extra is None:
        return 2
    if args.skip_invariants:
        game.drop_invariants()
    args.measured = _solve_measures(args, game)
    # the scored totals stay in the state where a policy holds each state's own move and value (unless
    # the game comes round: see _solve), and where an invariant (of every state) or a measure reads them
    args.measuring = game.splits_scored and reads_scored(game.checker, [(d, f) for _, d, f in args.measured])
    reads = args.measuring or game.splits_scored and reads_scored(game.checker, extra)
    aside = game.scored_field if game.splits_scored and not reads else None
    if game.splits_scored and (args.policy is not None or reads):
        game.split_scored(False)
    if args.lines is not None:
        if args.lines < 0:
            raise UsageError(f"--lines {args.lines}: expected 0 (the count alone) or more")
        if args.depth is not None:
            raise UsageError(f"--lines {args.lines}: lists the lines of best play of a whole game without chance "
                             "(--depth cuts them short)")
    if args.alpha_beta:
        _alpha_beta_usage(args, game)
    if args.heuristic is not None:
        check_heuristic(game, args.heuristic, f"--heuristic {args.heuristic}")  # a misspelt name first
        if args.depth is None:
            raise UsageError(f"--heuristic {args.heuristic}: values the states where --depth N stops the lines; "
                             "without --depth every line goes to its end")
    plot = None
    if args.plot is not None:
        plot = check_plot_target(args.plot, "solve")
        if game.splits_scored and args.depth is None:
            raise UsageError(f"--plot: the totals of the scored field '{game.scored_field}' are set aside while the "
                             "game is solved, so the final scores of its paths are not counted (without `scored` "
                             "they are)")
    policy = PolicyFile(args.policy, game, EXACT_PLACES, {
        "game": game.title, "set": settings_given(game, args.set), "params": parameter_values(game),
        "rules": game.rules_digest, **started_json(args)}, may_set_aside=aside) if args.policy is not None else None
    broken = _first_broken(game, extra)
    visit, last_line = _noting_lines(_invariants_hold(game, broken, bool(extra)))
    try:
        return (_solve_alpha_beta if args.alpha_beta else _solve)(args, game, policy, visit, plot)
    except RuleRuntimeError as e:  # main prints it, and the moves that led there
        if last_line[0] is not None:
            e.moves = _labels(game, last_line[0]())
        raise
    except _Broken as e:
        e = _fewest_moves(game, e, args.max_states, broken)
        message = _print_broken(game, e, texts, args.alpha_beta)
        if args.json:
            print(json.dumps({"file": args.file, "error": message, "at": str(e.decl.span),
                              "moves": _labels(game, e.moves), "state": game.state_json(e.state),
                              **({"before": game.state_json(e.before)} if e.before is not None else {})}))
        return 1
    finally:
        if policy is not None:
            policy.abandon()


def _noting_lines(visit: Optional[Callable]) -> tuple:
    """visit, and a one-item list that holds the `line` of the last state it was told of: the
    moves to where a rule failed, as the solve went down them."""
    last = [None]

    def noting(s, line):
        last[0] = line
        if visit is not None:
            visit(s, line)
    noting.finish = lambda: last.__setitem__(0, None)  # solved: a rule failing after it was on no line
    noting.spent = getattr(visit, "spent", None)
    return noting, last


class _Broken(Exception):
    """An invariant that does not hold in a state solve went through."""

    def __init__(self, decl, moves: list, state, fewest: bool = False, before=None):
        super().__init__("invariant does not hold")
        self.decl, self.moves, self.state = decl, moves, state
        self.fewest = fewest  # no line of fewer moves breaks an invariant
        self.before = before  # an invariant that reads old(...): the state before the last step


def _first_broken(game, extra: list) -> Callable:
    """broken(s): the first invariant of the file, then of `extra` ((declaration, state -> bool)
    pairs, from --invariant), that does not hold in state s; None when all hold. broken(s, before)
    is the same for the invariants that read old(...), on the step from `before` to s."""
    states = [(decl, holds) for decl, holds in extra if not getattr(holds, "step", False)]
    steps = [(decl, holds) for decl, holds in extra if getattr(holds, "step", False)]

    def broken(s, before=None):
        if before is None:
            found = game.broken_invariants(s)
            return found[0] if found else next((decl for decl, holds in states if not holds(s)), None)
        found = game.broken_steps(before, s)
        return found[0] if found else next((decl for decl, holds in steps if not holds(s, before)), None)
    broken.steps = bool(game.step_invariants or steps)  # whether any invariant reads old(...)
    return broken


def _fewest_moves(game, e: _Broken, limit: int, broken: Callable) -> _Broken:
    """The broken invariant with the fewest moves from the initial state: every state fewer moves
    from it than e's line is checked, breadth first (chance outcomes too), equal keys once. The
    exhaustive solve meets states depth first, so its line may be longer. Past `limit` states
    the walk gives up and e stays as found."""
    layer, seen = [(game.initial_state(), [])], {game.key(game.initial_state())}
    for depth in range(len(e.moves)):
        after = []
        for s, line in layer:
            if (decl := broken(s)) is not None:
                return _Broken(decl, line, s, fewest=True)
            if depth + 1 == len(e.moves) and not broken.steps:
                continue
            for m, t in _steps(game, s):
                if broken.steps and (decl := broken(t, s)) is not None:
                    return _Broken(decl, line + [m], t, fewest=True, before=s)
                if depth + 1 < len(e.moves) and (k := game.key(t)) not in seen:
                    seen.add(k)
                    after.append((t, line + [m]))
            if len(seen) > limit:
                return e
        layer = after
    return _Broken(e.decl, e.moves, e.state, fewest=True, before=e.before)


def _invariants_hold(game, broken: Callable, extra: bool) -> Optional[Callable]:
    """What solve tells each state it goes through: the invariants must hold there (those of the
    file, and with `extra` those of --invariant, as `broken` finds them)."""
    if not game.invariants and not game.step_invariants and not extra:
        return None
    spent = [0.0]  # the seconds checking them took

    def visit(s, line):
        t0 = time.perf_counter()
        if (decl := broken(s)) is not None:
            raise _Broken(decl, line(), s)
        for m, t in _steps(game, s) if broken.steps else ():  # each step on from s
            if (decl := broken(t, s)) is not None:
                raise _Broken(decl, line() + [m], t, before=s)
        spent[0] += time.perf_counter() - t0
    visit.spent = spent
    return visit


INVARIANTS_SHARE = 0.25
"""The share of a solve's time the invariants took from which the text says so."""


def _print_invariants_time(visit, seconds: float) -> None:
    """Where checking the invariants in every state took a good part of a solve's time, say so."""
    spent = getattr(visit, "spent", None)
    if spent is not None and spent[0] >= max(0.5, INVARIANTS_SHARE * seconds):
        print(f"  checking the invariants in every state took {spent[0]:.2f} s of the {seconds:.2f} s "
              "(--skip-invariants leaves out the file's)")


def _steps(game, s) -> list:
    """(move or chance outcome, the state it leads to) for each step on from state s."""
    if game.is_terminal(s):
        return []
    ways = [m for m, _ in game.chance_outcomes(s)] if game.current_player(s) == CHANCE else game.legal_moves(s)
    return [(m, game.apply(s, m)) for m in ways]


def _print_broken(game, e: _Broken, texts: list, searched: bool = False) -> str:
    """An invariant that solve found broken (`searched`: solve --alpha-beta): where, the moves that
    lead there and the state, on stderr; returns the message."""
    start = getattr(game, "started_from", None)
    initial = "the initial state" if start is None else f"the state of --from {start}"
    where = f"after {counted(len(e.moves), 'move')}" if e.moves else f"in {initial}"
    if e.moves:
        where += "; no fewer moves break an invariant" if e.fewest else \
            "; a line the solve met (a shorter one was not looked for past --max-states states)"
    message = f"invariant does not hold {where} " + \
        ("(alpha-beta checks the states it searches)" if searched else "(solve goes through every state)")
    print(Diagnostic("invariant", message, e.decl.span).render({**game_sources(game),
                                                               INVARIANT_SOURCE: "\n".join(texts)}), file=sys.stderr)
    print(f"moves from {initial}" + (":" if e.moves else ": none"), file=sys.stderr)
    for i, label in enumerate(_labels(game, e.moves), 1):
        print(f"  {i}. {label}", file=sys.stderr)
    if e.before is not None:
        print(f"state before the last step: {json.dumps(game.state_json(e.before))}", file=sys.stderr)
    print(f"state: {json.dumps(game.state_json(e.state))}", file=sys.stderr)
    if game.declares_view:
        _print_as_viewed(game.view(e.state), file=sys.stderr)
    return message


def _labels(game, moves: list) -> list:
    """The labels of a line of moves from the initial state, the steps chance took marked
    `chance: ` as in the best line."""
    out, s = [], game.initial_state()
    for m in moves:
        out.append(("chance: " if game.current_player(s) == CHANCE else "") + game.describe(m))
        s = game.apply(s, m)
    return out


def _print_as_viewed(view: str, file=None) -> None:
    """A state of a failure through the file's view, under its JSON."""
    print("\n".join(["as the view shows it:"] + [f"  {row}" for row in view.splitlines()]), file=file)


def _solve(args, game, policy: Optional[PolicyFile], visit: Optional[Callable], plot: Optional[NewFile]) -> int:
    t0 = time.perf_counter()
    if args.depth is None:  # each state is asked for its moves once: the game need not remember them
        game.remember_states = False
    bar, values_bar = ProgressBar(args.depth, "moves deep"), ProgressBar(None, "states valued")

    def progress(depth, paths, states):
        values_bar.close()
        bar.update(depth, f"{paths:,} paths, {states:,} states")
    watch = None if args.heuristic is None else _ScaleWatch(game, args.heuristic)
    try:
        try:
            sol = solve(game, max_depth=args.depth, max_states=args.max_states, progress=progress,
                        valued=values_bar.update, rng=random.Random(args.seed),
                        decided=policy.decided if policy is not None else None, visit=visit,
                        leaf=None if watch is None else watch.leaf, lines=args.lines,
                        measures=[f for _, _, f in args.measured])
        finally:
            if watch is not None:
                watch.stop()
    except _Broken:
        bar.close()
        values_bar.close()
        raise
    except KeyboardInterrupt as e:
        e.so_far = _so_far(t0, values_bar.done, "states valued") if bar.done is None else \
            _so_far(t0, bar.done, "moves deep counting paths")
        raise
    except Cycle:
        values_bar.close()
        return _solve_by_iteration(args, game, t0, policy, visit)
    except TooManyStates as e:
        bar.close()
        values_bar.close()
        if policy is not None and policy.may_set_aside is not None and args.depth is None:
            # the totals the policy keeps in each state made too many: the states less them may be few enough
            print(f"  more than {counted(e.limit, 'state')} with the scored field '{policy.may_set_aside}' in each "
                  "(a policy holds each state's own value): solving again with it set aside, by value iteration",
                  file=sys.stderr)
            game.split_scored(True)
            policy.set_aside(f"whose totals made more than {counted(e.limit, 'state')}")
            return _solve_by_iteration(args, game, t0, policy, visit,
                                       f"the policy's states without the scored field '{policy.aside}'")
        return _too_many_states(args, game, e, "")
    except Endless as e:
        values_bar.close()
        if policy is not None and policy.may_set_aside is not None:  # the totals kept the game from coming round
            game.split_scored(True)
            policy.set_aside("which the game comes round with more in it")
            return _solve_by_iteration(args, game, t0, policy, visit)
        return _solve_failed(args, _endless(game, e, "as --measure reads it" if args.measuring else None))
    bar.close()
    values_bar.close()
    _no_lines_with_chance(args, game)
    getattr(visit, "finish", lambda: None)()
    seconds = time.perf_counter() - t0
    names = game.player_names
    out = {
        "game": game.title, "set": settings_given(game, args.set), **started_json(args),
        "method": "exhaustive",
        "paths_per_depth": sol.paths_per_depth,
        "distinct_states": sol.distinct_states,
        "terminal_paths": sol.terminal_paths,
        "dead_ends": sol.dead_ends,
        "complete": sol.complete,
        **({"heuristic": args.heuristic} if args.heuristic is not None else {}),
        "value": [plain_number(v, EXACT_PLACES) for v in sol.value],
        "players": list(names),
        "best_line": game.line_json(sol.best_line, views=args.show),
        "first_moves": _first_moves_json(game, sol.first_moves, lengths=sol.first_lengths),
        **_best_lines_json(game, sol.best_lines),
        "outcomes": [{"returns": [plain_number(v) for v in r], "paths": n}
                     for r, n in _best_first(sol.outcomes)],
        "chance": game.chance_seen,
        **_measures_json(args, sol.measured, EXACT_PLACES),
        "seconds": round(seconds, 3),
    }
    if game.num_players == 1:
        out["best_score"] = plain_number(sol.value[0], EXACT_PLACES)
    _name_policy(policy, out)
    if plot is not None:
        scores: dict = {}
        for r, n in sol.outcomes.items():
            scores[r[0]] = scores.get(r[0], 0) + n
        score_histogram(plot, scores, f"{game.title}: final scores of {sol.terminal_paths:,} terminal paths"
                        + (f" ({names[0]})" if game.num_players > 1 else ""))
        out["plot"] = plot.path
    if args.json:
        print(json.dumps(out))
        return _reported(0)
    done = "solved" if sol.complete else f"explored to depth {args.depth}"
    print(f"{titled(game, args.set)}: {done} in {seconds:.2f} s")
    print(f"  paths per depth: {_depths_text(sol.paths_per_depth)}")
    print(f"  distinct states: {sol.distinct_states:,}{_set_aside(game, args)}; terminal paths: "
          f"{sol.terminal_paths:,}")
    _print_outcomes(game, sol.outcomes)
    _print_dead_ends(game, sol.dead_ends)
    _print_value_and_line(game, sol.value, sol.best_line, cut=None if sol.complete else args.depth, seed=args.seed,
                          show=args.show, leaf=None if sol.complete else args.heuristic)
    _print_scale_note(watch)
    if args.moves:
        _print_first_moves(game, sol.first_moves, sol.best_line, sol.first_lengths)
    _print_measures(game, args, sol.measured)
    _print_best_lines(game, sol.best_lines)
    _print_invariants_time(visit, seconds)
    _print_policy(policy)
    return _reported(0)


def _no_lines_with_chance(args, game) -> None:
    """--lines of a game where the solve met chance (a file's chance blocks may never apply where it
    is set so): a usage error."""
    if args.lines is not None and game.chance_seen:
        raise UsageError(f"--lines {args.lines}: lists the lines of best play of a whole game without chance (with "
                         "chance, best play is a policy for every outcome, not lines: --policy writes it)")


def _goes_round(game) -> str:
    """Why the lines of best play of a game that comes round are not counted."""
    if game.splits_scored:
        return (f"best play can go round: a loop of moves that add nothing to '{game.scored_field}' keeps the "
                "value, so its lines need not end; where every move costs, the best lines are the shortest, and "
                "are counted")
    return ("best play can go round: a move keeps the value (as any move of a puzzle scored only for reaching its "
            "goal), so its lines need not end; a scored count of the moves (`spent -= 1` and `score spent`) makes "
            "the best lines the shortest, which are counted")


ROUND = "round"
"""The lines of best play of a game that comes round where best play can go round (_goes_round)."""


def _best_lines_json(game, best_lines) -> dict:
    """`best_lines` of solve --json: {"count", "lines", "at_value"} (with --lines; `best_lines` their
    count, the first lines and how many end at the value), the count null and `why` where best play
    goes round (ROUND)."""
    if best_lines == ROUND:
        return {"best_lines": {"count": None, "lines": [], "at_value": None, "why": _goes_round(game)}}
    if not best_lines:
        return {}
    total, lines, at_value = best_lines
    return {"best_lines": {"count": total, "lines": [[game.describe(m) for m in line] for line in lines],
                           "at_value": at_value}}


def _print_best_lines(game, best_lines) -> None:
    if best_lines == ROUND:
        print(f"  lines of best play: not counted: {_goes_round(game)}")
    elif best_lines:
        total, lines, at_value = best_lines
        print(f"  lines of best play: {total:,}"
              + ("" if at_value == total else f" ({at_value:,} of them end at the value above: with several players "
                 "a move as good for its mover may be worse for another, and these lines take each)")
              + ("" if not lines else f", the first {len(lines):,}:" if len(lines) < total else ":"))
        for k, line in enumerate(lines, 1):
            print(f"    {k}. " + ", ".join(game.describe(m) for m in line))


def _endless(game, e: Endless, held: Optional[str] = None) -> str:
    """Why a solve stopped at a line too long to follow (`e.line`, its moves; `held`: why the scored
    field stays in the state, where not as an invariant reads it or for several players)."""
    begins = f"(it begins {', '.join(game.describe(m) for m in e.line[:3])}, ...)"
    if e.deep:
        return (f"a line of play goes {len(e.line):,} moves deep {begins}, deeper than solve can follow (it nests "
                "a call for each move of a line); --depth N, with N below that, solves the first N moves")
    kept = ""
    if game.scored_field is not None and not game.splits_scored:
        why = held or ("as an invariant reads it" if game.num_players == 1 else "with several players")
        kept = (f"; the scored field '{game.scored_field}' stays in the state {why}, so a game that comes "
                "round makes a new state each time")
    elif game.scored_field is None and (count := _counting_field(game, e.line)) is not None:
        name, lo, hi = count
        kept = (f"; the field '{name}' counts {'up' if hi > lo else 'down'} all along it ({lo:,} to {hi:,}), so "
                "a game that comes round makes a new state each time" +
                (f": only the score reads it, so it can be declared `{name}: int = ... scored`, which solve sets "
                 "aside (language.md, `state`)" if game.num_players == 1 and could_be_scored(game.checker, name)
                 else ""))
    return (f"a line of play goes on for {len(e.line):,} moves without ending or coming back to a state it was in "
            f"{begins}, so the game may never end (solve follows lines of at most {LINE_LIMIT:,} moves unless "
            f"--depth N is given){kept}; --depth N solves the first N moves")


def _counting_field(game, line: list) -> Optional[tuple]:
    """(name, first value, last value) of a whole-number field that only goes up, or only down, along
    the moves of `line` from the initial state, taking a value for every few moves at least: a count
    that makes each state of a game that comes round a new one. None if there is none."""
    states = [game.initial_state()]
    for m in line:
        states.append(game.apply(states[-1], m))
    for i, name in enumerate(game.field_names):
        values = [s[i] for s in states]
        if not all(type(v) is int for v in values) or len(set(values)) * 4 < len(values):
            continue
        steps = [b - a for a, b in zip(values, values[1:])]
        if all(d >= 0 for d in steps) or all(d <= 0 for d in steps):
            return name, values[0], values[-1]
    return None


def _so_far(t0: float, done: Optional[int], unit: str) -> str:
    """How far a solve had got when it was interrupted: `, after 4.2 s: 120,000 states valued`."""
    return f", after {time.perf_counter() - t0:.1f} s" + ("" if not done else f": {done:,} {unit}")


def _alpha_beta_usage(args, game) -> None:
    """The usage errors of solve --alpha-beta: a game of two players, and none of the options that need
    every state or every path."""
    if game.num_players != 2:
        raise UsageError(f"--alpha-beta: searches a game of two players whose returns add up to the same at every "
                         f"end; {game.title} has {counted(game.num_players, 'player')} (solve without it values "
                         "any game)")
    for flag in ("policy", "lines", "plot"):
        if getattr(args, flag) is not None:
            raise UsageError(f"--{flag}: cannot go with --alpha-beta, which searches only the states that bear on "
                             "the value (solve without --alpha-beta takes it)")


def _solve_alpha_beta(args, game, policy: None, visit: Optional[Callable], plot: None) -> int:
    """solve --alpha-beta: the value, a best line and the first moves' values of a two-player game whose
    returns add up to the same total at every end."""
    t0 = time.perf_counter()
    game.remember_states = False  # a state searched again with other bounds lists its moves again
    bar = ProgressBar(None, "states searched")
    watch = None if args.heuristic is None else _ScaleWatch(game, args.heuristic, lead=True)
    try:
        try:
            found = alpha_beta(game, max_states=args.max_states, rng=random.Random(args.seed), valued=bar.update,
                               visit=visit, first_moves=args.moves, max_depth=args.depth,
                               leaf=None if watch is None else watch.leaf)
        finally:
            if watch is not None:
                watch.stop()
    except NotConstantSum as e:
        names = ", ".join(game.player_names)
        return _solve_failed(args, f"--alpha-beta: the returns ({names}) of two ends add up to different totals, "
                             f"{_returns_text(e.first)} and {_returns_text(e.other)}, so one player's gain is not "
                             "the other's loss, as alpha-beta takes it to be; solve without --alpha-beta values any "
                             "game")
    except Cycle:
        return _solve_failed(args, "--alpha-beta: a line of play comes back to a state it was in; solve without "
                             "--alpha-beta values such a game by value iteration")
    except TooManyStates as e:
        return _too_many_states(args, game, e, "", _alpha_beta_advice(args))
    except Endless as e:
        return _solve_failed(args, _endless(game, e))
    except KeyboardInterrupt as e:
        e.so_far = _so_far(t0, bar.done, "states searched")
        raise
    finally:
        bar.close()
    getattr(visit, "finish", lambda: None)()
    seconds = time.perf_counter() - t0
    if args.json:
        print(json.dumps({
            "game": game.title, "set": settings_given(game, args.set), **started_json(args), "method": "alpha-beta",
            "states_searched": found.states, "visits": found.visits, "complete": found.complete,
            **({"heuristic": args.heuristic} if args.heuristic is not None else {}),
            "value": [plain_number(v, EXACT_PLACES) for v in found.value], "players": list(game.player_names),
            "best_line": game.line_json(found.best_line, views=args.show),
            **({"first_moves": _first_moves_json(game, found.first_moves)} if args.moves else {}),
            "seconds": round(seconds, 3)}))
        return _reported(0)
    done = "solved" if found.complete else f"explored to depth {args.depth}"
    print(f"{titled(game, args.set)}: {done} by alpha-beta in {seconds:.2f} s")
    print(f"  states searched: {found.states:,} ({counted(found.visits, 'visit')}"
          f"{', some with other bounds' if found.visits > found.states else ''})")
    _print_value_and_line(game, found.value, found.best_line, cut=None if found.complete else args.depth,
                          seed=args.seed, show=args.show, leaf=None if found.complete else args.heuristic)
    _print_scale_note(watch)
    if args.moves:
        _print_first_moves(game, found.first_moves, found.best_line)
    _print_invariants_time(visit, seconds)
    return _reported(0)


def _returns_text(r: tuple) -> str:
    return "(" + ", ".join(number_text(x) for x in r) + ")"


OUTCOMES_SHOWN = 6
"""The final scores (or returns of the players) the text of a solve lists, the best first."""


def _best_first(outcomes: dict) -> list:
    """(returns, paths) of each returns vector, the best for the first player first (then for the
    second, ...)."""
    return sorted(outcomes.items(), key=lambda kv: tuple(-x for x in kv[0]))


def _print_outcomes(game, outcomes: dict) -> None:
    """How many terminal paths end with each final score (each returns vector), the best for the
    first player first: in a counting puzzle, the paths to the best score are the answer."""
    if not outcomes or game.chance_seen:  # with chance, a path is no equal share of the games: no count
        return
    ranked = _best_first(outcomes)
    one = game.num_players == 1

    def returns(r):
        return number_text(r[0]) if one else "(" + ", ".join(number_text(x) for x in r) + ")"
    shown = ", ".join(f"{returns(r)}: {n:,}" for r, n in ranked[:OUTCOMES_SHOWN])
    more = f", and {len(ranked) - OUTCOMES_SHOWN:,} more" if len(ranked) > OUTCOMES_SHOWN else ""
    head = "final scores" if one else f"returns ({', '.join(game.player_names)})"
    print(f"  terminal paths by {head}, the best first: {shown}{more}")


def _set_aside(game, args) -> str:
    """What the text says after the distinct states where the scored field's totals are set aside."""
    if game.splits_scored and args.depth is None:
        return f" (states that differ only in the scored field '{game.scored_field}' counted once)"
    if game.scored_field is not None and args.depth is not None:  # the depth keeps the totals (docs/commands.md)
        return f" (states that differ in the scored field '{game.scored_field}' counted apart: --depth keeps it)"
    return ""


def _first_moves_json(game, first: tuple, places: Optional[int] = None, lengths: tuple = ()) -> list:
    """Each way on from the initial state: its move, the state after it, the values after it (to
    `places`, as the value's; EXACT_PLACES without), its probability, and (`lengths`, of a whole
    solve) the moves to the end along best play."""
    root = game.initial_state()
    return [{"move": str(m), "state": game.state_json(game.apply(root, m)),
             "value": [None if math.isinf(v) else plain_number(v, places or EXACT_PLACES) for v in values],
             **({"probability": plain_number(p, EXACT_PLACES)} if p is not None else {}),
             **({"moves_to_end": plain_number(n, EXACT_PLACES)} if n is not None else {})}
            for (m, values, p), n in zip(first, lengths or [None] * len(first))]


def _print_first_moves(game, first: tuple, line: list, lengths: tuple = ()) -> None:
    """The value after each move (or chance outcome) of the initial state, the mover's best
    first, and of moves as good the one the best line takes (`line`) first, marked; with the
    `lengths` of a whole solve, where they are whole numbers and not all the same, the moves after
    which best play ends."""
    if not first:
        print("  the game has no moves from its initial state")
        return
    chance = first[0][2] is not None
    taken = None if chance or not line else line[0][0]
    print(f"  the {'chance outcomes' if chance else 'moves'} of the initial state, each with the value after it"
          + (" (* the best line's)" if taken is not None else "") + ":")
    mover = max(game.current_player(game.initial_state()), 0)
    # stable: as listed, of values as good (rounded, as sums of chances differ in their last bits)
    # the moves to the end where they tell the moves apart (the quickest of winning moves): whole numbers, not all one
    ends = dict(zip((id(f) for f in first), lengths)) if not chance and len(set(lengths)) > 1 and all(
        float(n).is_integer() for n in lengths) else {}
    order = first if chance else sorted(first, key=lambda f: (-round(f[1][mover], 9), f[0] != taken))
    for f in order[:MOVES_SHOWN]:
        m, values, p = f
        value = ("no end can be reached after it" if math.isinf(values[0]) else number_text(values[0])
                 if game.num_players == 1 else ", ".join(f"{n} {number_text(v)}" for n, v in zip(game.player_names,
                                                                                                   values)))
        mark = " *" if m == taken else ""
        end = f" (best play ends after {counted(int(ends[id(f)]), 'move')})" if id(f) in ends else ""
        print(f"    {game.describe(m)}{f' (chance {fraction_text(p)})' if chance else ''}: {value}{end}{mark}")
    if len(order) > MOVES_SHOWN:
        rest = order[MOVES_SHOWN:]
        print(f"    ... {len(rest):,} more " + (f"outcomes (chance {fraction_text(sum(p for _, _, p in rest))} in all)"
                                                 if chance else "moves, none better") + "; --json lists them all")


MOVES_SHOWN = 30
"""The first moves (the best) or chance outcomes the text of `solve --moves` lists (--json lists
them all)."""

DEPTHS_SHOWN = (10, 4, 24)
"""Depths the text of a solve lists first and last when there are more than the third (--json
lists them all)."""


def _depths_text(paths: list) -> str:
    """The paths per depth, the middle of a long list left out: a game of 200 moves would
    print 200 numbers of up to 60 digits."""
    first, last, most = DEPTHS_SHOWN
    if len(paths) <= most:
        return ", ".join(f"{n:,}" for n in paths)
    return (", ".join(f"{n:,}" for n in paths[:first]) + f", ... ({len(paths) - first - last:,} depths left out; "
            "--json lists them all), " + ", ".join(f"{n:,}" for n in paths[-last:]))


def _print_dead_ends(game, n: int) -> None:
    """Say how many states are dead ends: not terminal, yet with no legal move (as a question,
    unless the file says `dead ends are ends`)."""
    if n and game.dead_ends_end:
        print(f"  dead ends: {counted(n, 'state')} where no move is legal, each an end (`dead ends are ends`)")
    elif n:
        print(f"  dead ends: {counted(n, 'state')} not terminal but with no legal move, each valued by the score "
              "as if the game ended there (is an end rule missing? `validate` warns of those its random games "
              "stop at; `dead ends are ends` says they are meant)")


def _name_policy(policy: Optional[PolicyFile], out: dict) -> None:
    """Give --policy's file its name, and say so in the JSON; a policy of no state (no player ever
    moves: chance takes every step) is not written, its file null."""
    if policy is not None:
        if policy.states:
            policy.finish()
        else:
            policy.abandon()
        out["policy"] = {"file": policy.path if policy.states else None, "states": policy.states,
                         **({"scored_aside": policy.aside} if policy.aside is not None else {})}


def _print_policy(policy: Optional[PolicyFile]) -> None:
    if policy is not None and not policy.states:
        print(f"  policy: no state where a player moves (chance takes every step), so {policy.path} is not written")
    elif policy is not None:
        print(f"  policy: the best move in each of {counted(policy.states, 'state')} where a player moves, "
              f"one JSON line each, in {policy.path}"
              + ("" if policy.aside is None else f" (without the scored field '{policy.aside}', {policy.aside_why}: "
                 "the values are of what is still to come)"))


EXACT_PLACES = 12
"""Places of the values an exhaustive solve prints in JSON and --policy: sums of products of
weights, exact but for the float's last bits (the text rounds to 4)."""


class _ScaleWatch:
    """With --depth and --heuristic, where the lines stop valued by the heuristic and the ends met
    before by the score: the highest value of the heuristic for each player (with `lead`, as
    alpha-beta takes it: the player's lead over the other, about the ends' total), and the returns
    of the ends (seen through the game's `returns` until `stop`)."""

    def __init__(self, game, heuristic: str, lead: bool = False):
        self.game, self.heuristic, self.lead = game, heuristic, lead
        self.top: list = [None] * game.num_players
        self.ends: list = [set() for _ in range(game.num_players)]
        self.total = None  # the sum of the returns of the first end met
        returns = type(game).returns

        def seen(s):
            r = returns(game, s)
            for p, x in enumerate(r):
                self.ends[p].add(round(x, 9))
            self.total = sum(r) if self.total is None else self.total
            return r
        game.returns = seen

    def stop(self) -> None:
        self.game.__dict__.pop("returns", None)

    def leaf(self, s) -> list:
        values = [self.game.evaluate(s, self.heuristic, p) for p in range(self.game.num_players)]
        tops = [values[0] - values[1], values[1] - values[0]] if self.lead else values
        self.top = [v if t is None or v > t else t for v, t in zip(tops, self.top)]
        return values

    def note(self) -> Optional[str]:
        """Where the game is one of wins, draws and losses (2 or 3 returns of a player at the ends met)
        and the heuristic valued a state where the lines stop above the best end for a player: that
        state outranked every end."""
        for p, (top, ends) in enumerate(zip(self.top, self.ends)):
            if self.lead and top is not None and self.total is not None:
                top = (top + self.total) / 2
            if top is not None and 2 <= len(ends) <= 3 and top > max(ends):
                name = self.game.player_names[p]
                return (f"the heuristic {self.heuristic} values a state where the lines stop at {number_text(top)} "
                        f"for {name}, above the {number_text(max(ends))} of the best end met (by the score; its ends "
                        f"give {', '.join(map(number_text, sorted(ends)))}): such a state outranks every end, the "
                        "best too. A heuristic within the score's range there (or a score scaled up to the "
                        "heuristic's) ranks them as the game does")
        return None


def _print_scale_note(watch: Optional[_ScaleWatch]) -> None:
    note = None if watch is None else watch.note()
    if note is not None:
        print(f"  note: {note}")


def _print_value_and_line(game, value: tuple, line: list, again: bool = False, cut: Optional[int] = None,
                          seed: int = 0, show: bool = False, leaf: Optional[str] = None) -> None:
    """The value under best play (a best score for one player) and the best line, its chance
    outcomes drawn with the seed, with how it ends when it stops short of the end: (again) back
    at a state it was in, (cut) after that many moves, where the score of the unfinished game
    stands in for its end (or the heuristic `leaf`'s value), or cut at LINE_LIMIT moves. With
    `show`, the initial state and the state after each step through the file's view."""
    where = "" if cut is None else f" after {cut:,} moves"
    if game.num_players == 1:
        print(f"  best {'score' if leaf is None else 'value of ' + leaf}{where}: {number_text(value[0])}")
    else:
        print(f"  value{'' if leaf is None else ' of ' + leaf}{where}: "
              + ", ".join(f"{n} {number_text(v)}" for n, v in zip(game.player_names, value)))
    if not line and game.is_terminal(game.initial_state()):
        print("  the initial state is already an end: `terminal` holds there, so no move is made")
    chance = game.chance_steps(line)
    before = [game.initial_state()] + [s for _, s in line[:-1]]
    drawn = any(by_chance and len(game.chance_outcomes(s)) > 1 for s, by_chance in zip(before, chance))
    print("  best line" + (f" (chance outcomes drawn by weight with --seed {seed}: one way the game may go):"
                           if drawn else f" ({counted(len(line), 'move')}):"))
    if show:
        print_view(game, game.initial_state())
    steps = [(f"{'chance: ' if by_chance else ''}{game.describe(mv)}", s) for (mv, s), by_chance in zip(line, chance)]
    k = 0
    while k < len(steps):
        label, s = steps[k]
        same = 1  # the steps from here that repeat this one: the same label, to the same state
        while k + same < len(steps) and steps[k + same][0] == label and steps[k + same][1] == s:
            same += 1
        print(f"    {label}")
        if show:
            print_view(game, s)
        if same > 2:
            print(f"    (the same step {same - 1:,} more times)")
            k += same
        else:
            k += 1
    last = line[-1][1] if line else game.initial_state()
    if again:
        print("    and round again: the line comes back to a state it was in, so best play never ends there, "
              "which is worth 0 to every player (where every end scores below 0, going round is best: a score "
              "shifted up, or an end the game comes to, makes ending worth more)")
    elif len(line) >= LINE_LIMIT and not game.is_terminal(last):
        print(f"    and on: the line is shown to its first {LINE_LIMIT:,} moves")
    if cut is not None and not game.is_terminal(last):
        print("    then the lines stop: " + ("the score" if leaf is None else f"the heuristic {leaf}")
              + " of a game not over stands in for its end")


SPREAD_SAMPLE = 100_000
"""The states found last that a solve past its limit looks at for the fields that vary most."""


def _alpha_beta_advice(args) -> str:
    """What may let `solve --alpha-beta` search fewer states."""
    tips = (["--depth N (N at least the longest line of the game) searches depth by depth, trying first the move "
             "best a depth less, which can cut off far more"] if args.depth is None else []) + \
        (["without --moves only the value is searched, not each first move's exact value, which can take many "
          "times more states"] if args.moves else [])
    return "".join(f"; with --alpha-beta, {tip}" for tip in tips)


def _too_many_states(args, game, e: TooManyStates, why: str, advice: str = "", round_: bool = False) -> int:
    """Exit 1 for a game with more states than solve may hold, with the fields that vary most
    among the states found last and the ways on (and `advice` after those). `round_`: the game
    comes back to its states, which alpha-beta searches only to a depth."""
    message = (f"{why}more than {counted(e.limit, 'state')} and not solved yet; solve holds each one in memory, "
               f"so it stopped here. `python -m engine stats {args.file}{_set_flags(parse_settings(args.set))}` "
               "shows how the states grow with depth, --depth N solves the first N moves and --max-states N lets "
               "solve hold more; "
               + ("`search` and `play` look for good lines" if game.num_players == 1 else
                  "`play` pits search agents against each other") + " in a game too big to solve"
               + ("; for two players whose returns add up to the same, --alpha-beta searches far fewer states"
                  + (" (a game that comes back to its states to a depth: --alpha-beta --depth N, with --heuristic H "
                     "valuing where the lines stop)" if round_ else "")
                  if game.num_players == 2 and not getattr(args, "alpha_beta", False) else "") + advice)
    spread = game.fields_spread(e.keys, sample=SPREAD_SAMPLE)  # a state is its own key
    if spread:
        looked = min(len(e.keys), SPREAD_SAMPLE)
        message += (f"\n  the fields with the most values in the {len(e.keys):,} states found last"
                    + (f" ({looked:,} of them looked at)" if looked < len(e.keys) else "") + ": "
                    + ", ".join(f"{name} {counted(n, 'value')}" + (f" ({lo:,}..{hi:,})" if lo is not None else "")
                                for name, n, lo, hi in spread)
                    + "; if one of them takes ever new values (a number that grows without bound, say), a range "
                    "type with `clamp`, or an end the game reaches first, keeps the states finite; if not, the "
                    "game is simply this large")
        totals = [name for name, *_ in spread if game.num_players == 1 and game.scored_field is None
                  and could_be_scored(game.checker, name)]
        if totals:  # a total only the score reads: states that differ only in it have the same future
            message += (f"; only the score reads '{totals[0]}', so it can be declared `{totals[0]}: int = ... "
                        "scored`, which solve sets aside, holding once the states that differ only in it "
                        "(language.md, `state`)")
    return _solve_failed(args, message, max_states=e.limit)


def _solve_failed(args, message: str, **more) -> int:
    """Exit 1 for a solve that could not finish: the message on stderr, and with --json an object
    on stdout too, {"file", "error"} and what `more` adds, so a script reading it learns why
    (`max_states`: it stopped at that limit of states; `no_end`: no end can be reached)."""
    print(f"error: {args.file}: {message}", file=sys.stderr)
    if args.json:
        print(json.dumps({"file": args.file, "error": message, **more}))
    return _reported(1)


def _solve_by_iteration(args, game, t0: float, policy: Optional[PolicyFile], visit: Optional[Callable],
                        why: str = "the game can come back to a state it was in") -> int:
    """solve for a game that can come back to a state: value iteration over all its states."""
    if args.plot is not None:
        raise UsageError("--plot: the game can come back to a state it was in, so it has no count of paths to plot")
    _no_lines_with_chance(args, game)  # the first reason, where chance moved before the game came round
    if args.lines is not None and game.num_players > 1:
        raise UsageError(f"--lines {args.lines}: the game can come back to a state it was in; the lines of best play "
                         "of such a game are counted for one player (a puzzle's shortest solutions), not several")
    found, sweeps = ProgressBar(None, "states found"), ProgressBar(None, "sweeps")

    def swept(k, change):
        found.close()
        sweeps.update(k, f"largest change {change:.1e}")
    if policy is not None:
        policy.restart(places=9)  # the exhaustive solve's lines stop at the state that came back
    try:
        fp = iterate_values(game, max_states=args.max_states, found=found.update, swept=swept,
                            rng=random.Random(args.seed), decided=policy.decided if policy is not None else None,
                            visit=visit, measures=tuple(f for _, _, f in args.measured), lines=args.lines)
    except _Broken:
        found.close()
        raise
    except KeyboardInterrupt as e:
        e.so_far = _so_far(t0, found.done, "states found") if sweeps.done is None else \
            _so_far(t0, sweeps.done, "sweeps of value iteration")
        raise
    except TooManyStates as e:
        found.close()
        return _too_many_states(args, game, e, "the game can come back to a state it was in, so value iteration "
                                               "holds every state it can reach; ", round_=True)
    except NoEnd as e:
        found.close()
        start = getattr(args, "start", None)
        return _solve_failed(args, "no end of the game can be reached from "
                             + ("the initial state" if start is None else f"the state of --from {start}") + " (of the "
                             f"{counted(e.states, 'state')} it leads to, none is an end), so the scored field "
                             f"'{game.scored_field}' is never scored: the game has no value", no_end=True)
    except Trapped as e:
        return _solve_failed(args, f"from {counted(e.trapped, 'state')} of the {e.states:,} no end can be reached, and "
                             f"every step there takes from the scored field '{game.scored_field}', so they are worth "
                             "less than any number; best play cannot keep out of them (a chance step may lead "
                             "there): the game has no value; --depth N solves the first N moves")
    sweeps.close()
    getattr(visit, "finish", lambda: None)()
    if not fp.converged:
        f, grows = game.scored_field, ""
        if game.splits_scored:
            grows = (f" (a loop of moves that adds to the scored field '{f}' is worth more each time round"
                     + (f", or from {counted(fp.stuck, 'state')} of the {fp.distinct_states:,} no end can be "
                        "reached, so what it adds there never stops" if fp.stuck else "")
                     + (f"; solve takes the largest score: a count to keep low is taken away, `{f} -= 1` and "
                        f"`score {f}`" if game.num_players == 1 else "") + ")")
        return _solve_failed(args, f"the values still changed by {fp.change:.1e} after {fp.part_sweeps:,} sweeps of "
                             f"value iteration, so they are no fixed point{grows}; --depth N solves the first N moves")
    _no_lines_with_chance(args, game)
    best_lines = None if args.lines is None else ROUND if fp.best_lines is None else (*fp.best_lines,
                                                                                        fp.best_lines[0])
    seconds = time.perf_counter() - t0
    value = [plain_number(v, 9) for v in fp.value]  # a fixed point is exact to about 1e-12
    out = {"game": game.title, "set": settings_given(game, args.set), **started_json(args), "method": "value iteration",
           "distinct_states": fp.distinct_states, "dead_ends": fp.dead_ends, "sweeps": fp.sweeps, "value": value,
           "players": list(game.player_names), **({"best_score": value[0]} if game.num_players == 1 else {}),
           "best_line": game.line_json(fp.best_line, views=args.show),
           "first_moves": _first_moves_json(game, fp.first_moves, 9), "trapped": fp.trapped, "chance": game.chance_seen,
           "comes_round": fp.comes_back,
           **_best_lines_json(game, best_lines), **_measures_json(args, fp.measured, 9),
           "seconds": round(seconds, 3)}
    _name_policy(policy, out)
    if args.json:
        print(json.dumps(out))
        return _reported(0)
    print(f"{titled(game, args.set)}: solved by value iteration in {seconds:.2f} s ({why}; "
          + (f"each step is worth what it adds to the scored field '{game.scored_field}')"
             if game.splits_scored else "a line that never ends is worth 0)"))
    print(f"  distinct states: {fp.distinct_states:,}{_set_aside(game, args)}; sweeps: {fp.sweeps:,}")
    if fp.trapped:
        print(f"  from {counted(fp.trapped, 'state')} no end can be reached, and every step there takes from "
              f"'{game.scored_field}': worth less than any number, they are kept out of")
    _print_dead_ends(game, fp.dead_ends)
    _print_value_and_line(game, fp.value, fp.best_line, fp.comes_back, seed=args.seed, show=args.show)
    if args.moves:
        _print_first_moves(game, fp.first_moves, fp.best_line)
    _print_measures(game, args, fp.measured, fp.comes_back)
    _print_best_lines(game, best_lines)
    _print_invariants_time(visit, seconds)
    _print_policy(policy)
    return _reported(0)


def _with_invariants(args) -> tuple:
    """The game, the --invariant texts and their (declaration, state -> bool) pairs; the pairs are
    None once the errors of a text that does not check are printed (a usage error, with a caret)."""
    game = load_game(args.file, parse_settings(args.set))
    start_from(game, getattr(args, "start", None))
    texts = args.invariant or []
    try:
        return game, texts, command_line_predicates(game, texts)
    except RuleErrors as e:
        print(e.render(), file=sys.stderr)
        _json_error(args, e.render())
        return game, texts, None


def _check_setup(file: str, given: Optional[list], texts: list) -> tuple:
    """The game and the --invariant predicates of a check, made again in each process that
    `--jobs` starts afresh where the platform does not fork."""
    game = load_game(file, parse_settings(given))
    return game, command_line_predicates(game, texts)


def cmd_check(args) -> int:
    from .properties import BUILT_IN, check_in_parts  # Hypothesis takes a while to import; only check needs it
    for flag, n in (("--examples", args.examples), ("--steps", args.steps), ("--jobs", args.jobs)):
        if n < 1:
            raise UsageError(f"{flag} {n}: expected a positive number")
    game, texts, extra = _with_invariants(args)
    if extra is None:
        return 2
    bar = ProgressBar(args.examples, "examples", eta=True)
    done = [0, 0]  # examples and steps checked so far

    def progress(n, k):
        done[:] = n, k
        bar.update(n, f"{k:,} moves")
    try:
        r = check_in_parts(game, jobs=args.jobs, examples=args.examples, seed=args.seed, steps=args.steps,
                           extra_invariants=extra, progress=progress,
                           rebuild=functools.partial(_check_setup, args.file, args.set, texts))
    except KeyboardInterrupt:
        bar.close()
        n, k = done
        if args.json:
            print(json.dumps({"file": args.file, "game": game.title, "set": settings_given(game, args.set),
                              "seed": args.seed, "ok": True, "examples": n, "steps": k, "failure": None,
                              "interrupted": True}))
        else:
            print(f"{args.file}: interrupted ({interrupted_by()}) after {counted(n, 'example')} of {args.examples:,} "
                  f"({counted(k, 'step')}): no failure in those")
        return 130
    bar.close()
    f = r.failure
    if args.json:
        out = {"file": args.file, "game": game.title, "set": settings_given(game, args.set), "seed": args.seed,
               "ok": f is None, "examples": r.examples, "steps": r.steps,
               "invariants": r.invariants, "properties": len(BUILT_IN), "failure": f and {
                   "code": f.code, "message": f.message, "hint": f.hint, "at": f.span and str(f.span),
                   "moves": list(f.moves), "fewest": f.fewest, "state": f.state,
                   **({"before": f.before} if f.before is not None else {}),
                   **({"view": f.view} if f.view is not None else {})}, "every_line": r.every_line,
               "dead_ends": r.dead_ends, "interrupted": False}
        print(json.dumps(out))
    elif f is None:
        print(f"{args.file}: ok ({counted(r.examples, 'example')}, {counted(r.steps, 'step')}, "
              f"{counted(r.invariants, 'invariant')} + {len(BUILT_IN)} built-in properties)")
        if r.every_line:
            print(f"  no failure on any line of play of at most {counted(args.steps, 'move')}: Hypothesis ran out "
                  f"of new lines to try, so every line was checked ({r.examples:,} played of the {args.examples:,} "
                  "examples asked)")
        else:
            print("  no failure on these lines of play: a sample of the game's lines, not all of them (`solve` "
                  "checks the invariants in every state of a game small enough)")
        if r.dead_ends and not game.dead_ends_end:
            print(f"  {r.dead_ends:,} of the lines stopped at a dead end, a state that is not terminal where no move "
                  "is legal (is an end rule missing? `validate` warns of those its random games stop at)")
    else:
        print(f"{args.file}: check failed " + (f"after {counted(len(f.moves), 'move')}" if f.moves else
                                               "in the initial state"))
        sources = {**game_sources(game), INVARIANT_SOURCE: "\n".join(texts)}
        print(Diagnostic(f.code, f.message, f.span, f.hint).render(sources) if f.span
              else f"{args.file}: error[{f.code}]: {f.message}")
        print("moves from the initial state" + (": none" if not f.moves else
                                                  " (no line of fewer moves breaks a rule or property):" if f.fewest
                                                  else " (a short line; one of fewer moves may break it too):"))
        for i, label in enumerate(f.moves, 1):
            print(f"  {i}. {label}")
        for name, x in (("state before the last step", f.before), ("state", f.state)):
            if x is not None or name == "state":
                print(f"{name}: {x if isinstance(x, str) else json.dumps(x)}")
        if f.view is not None:
            _print_as_viewed(f.view)
    return 0 if f is None else 1


def build_parser() -> argparse.ArgumentParser:
    p = _Main(prog="python -m engine", description="Check, solve and explore board games written as rule files.")
    p.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = p.add_subparsers(dest="command", parser_class=_Parser, required=True, metavar="COMMAND")
    v = sub.add_parser("validate", help="check rule files and report every error")
    v.add_argument("files", nargs="+", metavar="FILE")
    v.add_argument("--set", action="append", metavar="K=V", help="set a parameter (repeatable)")
    v.add_argument("--playouts", type=int, default=20, help="random playouts to run (default 20; 0: none)")
    v.add_argument("--steps", type=int, default=1000, help="step limit per playout (default 1000)")
    v.add_argument("--json", action="store_true", help="print each file's errors and warnings as one JSON object")
    v.set_defaults(run=cmd_validate)
    s = sub.add_parser("solve", help="explore the whole game: path counts, optimum, best line")
    s.add_argument("file", metavar="FILE")
    s.add_argument("--set", action="append", metavar="K=V", help="set a parameter (repeatable)")
    s.add_argument("--depth", type=int, default=None, metavar="N", help="stop after N moves")
    s.add_argument("--seed", type=int, default=0, metavar="S",
                   help="draws the chance outcomes along the best line (default 0)")
    s.add_argument("--max-states", type=int, default=MAX_STATES, metavar="N",
                   help=f"stop with an error past N states, each held in memory (default {MAX_STATES:,})")
    s.add_argument("--json", action="store_true", help="print one JSON object")
    s.add_argument("--plot", metavar="FILE.png", help="draw how many terminal paths end with each score")
    s.add_argument("--sweep", metavar="NAME", action="append",
                   help="solve once for each value of the parameter NAME, a row each (NAME=A..B or NAME=V,W: "
                        "those values only); given again, for each combination of the parameters' values")
    s.add_argument("--policy", metavar="FILE.jsonl",
                   help="write the best move in every state where a player moves, one JSON object a line")
    s.add_argument("--measure", action="append", metavar="EXPR",
                   help="a whole-number expression of the rules language: its expected value at the end of the "
                        "game under the best play found (repeatable)")
    s.add_argument("--heuristic", metavar="H",
                   help="with --depth N: value the states where the lines stop by the file's heuristic H "
                        "instead of the score")
    s.add_argument("--show", action="store_true",
                   help="print the states along the best line through the file's view (--json: a view in each step)")
    s.add_argument("--invariant", action="append", metavar="EXPR",
                   help="one more invariant, checked in every state the solve goes through (repeatable)")
    s.add_argument("--skip-invariants", action="store_true",
                   help="do not check the file's invariants in every state (check tests them; an --invariant "
                        "is still checked)")
    s.add_argument("--moves", action="store_true",
                   help="print the value after each move (or chance outcome) of the initial state")
    s.add_argument("--lines", type=int, metavar="N",
                   help="count the lines of best play and print the first N (every solution of a puzzle)")
    s.add_argument("--alpha-beta", action="store_true",
                   help="two players whose returns add up to the same at every end: the value and a best line "
                        "by alpha-beta (with --moves the first moves' values too), without counting paths or "
                        "states (often much faster)")
    add_from(s)
    s.set_defaults(run=cmd_solve)
    c = sub.add_parser("check", help="play lines chosen by Hypothesis; check invariants and built-in properties")
    c.add_argument("file", metavar="FILE")
    c.add_argument("--set", action="append", metavar="K=V", help="set a parameter (repeatable)")
    c.add_argument("--examples", type=int, default=200, help="lines of play to try (default 200)")
    c.add_argument("--seed", type=int, default=0, help="seed for Hypothesis (default 0)")
    c.add_argument("--steps", type=int, default=1000, help="moves per line at most (default 1000)")
    c.add_argument("--invariant", action="append", metavar="EXPR", help="one more invariant (repeatable)")
    c.add_argument("--jobs", type=int, default=1,
                   help="processes sharing the examples, each with a seed of its own (default 1)")
    c.add_argument("--json", action="store_true", help="print one JSON object")
    c.set_defaults(run=cmd_check)
    add_parsers(sub)
    add_fit_parser(sub)
    p.commands = dict(sub.choices)
    return p


def _version() -> str:
    """The installed package's version."""
    try:
        return importlib.metadata.version("boardgame-rules")
    except importlib.metadata.PackageNotFoundError:
        return "(not installed: pip install -e . gives its version)"


def _check_hint(args) -> Optional[str]:
    """For a rule failing while a command ran: the check command that looks for a short line to it."""
    if args is None or not isinstance(getattr(args, "file", None), str) or args.run is cmd_check or \
            getattr(args, "start", None) is not None:  # check starts from the file's initial state only
        return None
    return _check_line(args.file, parse_settings(args.set))


def _json_error(args, text: str, argv=None, **more) -> None:
    """With --json, an error's object on stdout too, {"file", "error"}, as a solve that cannot
    finish prints: a script reading the output learns why there is no result. Before the command
    line is read (args None), --json among the words of `argv` asks for it."""
    if args is None:
        words = sys.argv[1:] if argv is None else [str(a) for a in argv]
        if "--json" in words:
            files = [w for w in words if w.endswith(".rules")]
            print(json.dumps({"file": files[0] if files else None, "error": text, **more}))
    elif getattr(args, "json", False):
        print(json.dumps({"file": getattr(args, "file", None), "error": text, **more}))


def _writing_stdout_failed() -> bool:
    """Whether standard output can no longer be written (a full disk under `> out.json`)."""
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return False


_failing: list = [None]  # the status of the error being told, in case telling it fails (a closed pipe)
_told: list = [None]  # the status of a report told whole, before what the run held is freed


def _reported(status: int) -> int:
    """status, noted as that of a report told whole: a Ctrl-C or SIGTERM while the states a solve
    held are freed (seconds, for millions) is then no interrupt of it."""
    _told[0] = status
    return status


def main(argv=None) -> int:
    """The command line: the exit status. Output cut short by a closed pipe (`| head`) is a run
    that could not write its output (1), or, where an error was being told, that error's status."""
    _failing[0] = _told[0] = None
    try:
        return _main(argv)
    except BrokenPipeError:
        for stream in (sys.stdout, sys.stderr):  # what is left in their buffers goes nowhere, at exit too
            try:
                os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
            except (OSError, ValueError, AttributeError):  # a stream without a descriptor (tests capture them)
                pass
        sys.stdout, sys.stderr = open(os.devnull, "w"), open(os.devnull, "w")
        return _failing[0] or 1


def _report_failure(e, args) -> int:
    """Tell a rule error, or a rule that failed while running, on stderr (with --json, as an
    object on stdout too): the moves that led there, the state it failed in; status 1."""
    if isinstance(e, RuleErrors):
        print(e.render(), file=sys.stderr)
        _json_error(args, e.render(), diagnostics=[d.as_json() for d in e.diagnostics])
        return 1
    moves = getattr(e, "moves", None)  # the line a solve was on
    in_game = getattr(e, "in_game", None)  # a game of `play`: (its number from 0, its steps, what it did)
    if moves is None and in_game is not None:
        moves = in_game[1]
    at_start = moves is not None and not moves  # no line of moves leads there: the check command finds none
    hint = "; ".join(h for h in (e.hint, None if at_start else _check_hint(args)) if h) or None
    found = Diagnostic("runtime", e.message, e.span, hint)
    text = found.render(file_text(e.span.file))
    print(text, file=sys.stderr)
    state = getattr(e, "state_text", None)  # the state a search met the failure in
    _json_error(args, text, diagnostics=[found.as_json()], **({} if moves is None else {"moves": list(moves)}),
                **({} if in_game is None else {"in_game": in_game[0] + 1}),
                **({} if state is None else {"state": json.loads(state)}))
    start = getattr(args, "start", None)
    initial = "the initial state" if start is None else f"the state of --from {start}"
    if in_game is None and moves is not None:
        print(f"moves from {initial}, as the solve went down them:" if moves else f"in {initial}",
              file=sys.stderr)
    elif in_game is not None:
        g, _, doing = in_game
        where = f"{doing}; the steps from {initial}:" if moves else \
            f"in {initial}" if doing == "in the initial state" else f"{doing}, in {initial}"
        print(f"in game {g + 1} of the run, {where}", file=sys.stderr)
    elif start is not None:
        print(f"the run started from {initial}", file=sys.stderr)
    for k, label in enumerate(moves or (), 1):
        print(f"  {k}. {label}", file=sys.stderr)
    if state is not None:
        searched = in_game is not None and in_game[2].endswith("chose a move")  # a state of its search, ahead
        print(f"the state it failed in{' (one its search looked ahead to)' if searched else ''}: "
              f"{clip(state, 2000)}", file=sys.stderr)
    return 1


def _main(argv) -> int:
    args = None
    try:
        args = build_parser().parse_args(argv)
        status = with_room(args.run, args)  # one block of frame stack for the whole command
        sys.stdout.flush()  # here, so that a failing write (a full disk) is told, not a traceback at exit
        return status
    except CannotWrite as e:
        _failing[0] = 1
        print(f"error: {e}", file=sys.stderr)
        _json_error(args, str(e), argv)
        return 1
    except UsageError as e:
        _failing[0] = 2
        print(f"error: {e}", file=sys.stderr)
        _json_error(args, str(e), argv)
        return 2
    except (RuleErrors, RuleRuntimeError) as e:
        return _report_failure(e, args)
    except RecursionError:  # the last resort: each place known to go deep says why itself
        _failing[0] = 1
        text = "the run went deeper than the stack allows: a chain of steps or of calls too long to follow (a " \
               "search following thousands of chance steps one after another, say)"
        print(f"error: {text}", file=sys.stderr)
        _json_error(args, text, argv)
        return 1
    except KeyboardInterrupt as e:
        if _told[0] is not None:  # the report was out: the interrupt came as the run's memory was freed
            return _told[0]
        _failing[0] = 130
        so_far = getattr(e, "so_far", "")
        print(f"interrupted ({interrupted_by()}){so_far}", file=sys.stderr)
        _json_error(args, f"interrupted ({interrupted_by()}) before there was anything to report{so_far}", argv,
                    interrupted=True)
        return 130
    except OSError as e:
        if e.filename is not None or not _writing_stdout_failed():
            raise
        print(f"error: the output could not be written ({e.strerror})", file=sys.stderr)
        sys.stdout = open(os.devnull, "w")  # what is left in its buffer would fail again at exit
        return 1
