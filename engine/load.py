"""From a path and `--set` values to a checked, compiled game."""
from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Optional

import attrs

from . import model as m
from . import types as T
from .check import Checker, check, nodes_in
from .compile import Compiler
from .diagnostics import Diagnostic, Forbidden, RuleErrors, RuleRuntimeError, UsageError, did_you_mean, similarity
from .game import CompiledGame, guard
from .parse import DECLARATIONS_HINT, parse_expr, parse_text
from .runtime import EnumValue

INVARIANT_SOURCE = "--invariant"
"""The file name of `--invariant` expressions in diagnostics; expression k is its line k."""


def _not_utf8(path: str, data: bytes, at: int) -> str:
    """Where a file stops being UTF-8 text, as file:line:col."""
    before = data[:at]
    line = before.count(b"\n") + 1
    col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
    return (f"{path}:{line}:{col}: not UTF-8 text (byte 0x{data[at]:02x}); rule files are UTF-8 "
            "(a binary file or another encoding?)")


USE_DEPTH_MOST = 100  # files in one chain of `use` (each read is a nested parse)


def _near_rule_file(p: Path) -> Optional[str]:
    """The rule file in p's folder whose name is closest to p's (`tiling.rule`, `tilling.rules`: by
    the names without the `.rules` all of them share, which would make any two alike), if one is close."""
    folder = p.parent
    stems = {f.stem: f for f in folder.glob("*.rules")} if folder.is_dir() else {}
    near = did_you_mean(p.stem, stems)
    return None if near is None else str(stems[near])


def _near_used_file(used: str, target: Path) -> Optional[str]:
    """The path to write in `use` for the rule file closest to the missing `target` (written `used`):
    one in its folder, or in the folder above where that is closer (a file used from a subfolder)."""
    ways = [(Path(used).parent, target.parent), (Path(used).parent / "..", target.parent.parent)]
    found = [(similarity(target.stem, Path(near).stem), str(written / Path(near).name))
             for written, folder in ways if (near := _near_rule_file(folder / target.name)) is not None]
    return max(found, key=lambda f: f[0])[1] if found else None


def read_rules(path: str, sources: Optional[dict] = None, chain: tuple = ()) -> tuple:
    """Parse a file and the files it `use`s; returns (decls, sources)."""
    sources = {} if sources is None else sources
    p = Path(path)
    if p.is_dir():
        raise UsageError(f"{path}: a directory, not a rule file "
                         f"(expected a file such as {path.rstrip('/')}/NAME.rules)")
    if not p.is_file():
        # a device or a pipe is read again for each --set tried, so only a regular file will do
        near = None if p.exists() else _near_rule_file(p)
        raise UsageError(f"{path}: not a regular file (a device or a pipe?); give the path of a rule file"
                         if p.exists() else f"{path}: no such rule file" + (f"; did you mean {near}?" if near else ""))
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(_not_utf8(path, p.read_bytes(), e.start)) from None
    except OSError as e:
        raise UsageError(f"{path}: cannot read the file ({e.strerror or e.__class__.__name__})") from None
    sources[path] = text
    try:
        rf = parse_text(text, path)
    except RuleErrors as e:
        first, *rest = e.diagnostics
        if p.suffix != ".rules" and first.hint in (None, DECLARATIONS_HINT):  # some other file, given by mistake?
            first = attrs.evolve(first, hint=f"{p.name} is not named NAME.rules: is it a rule file?")
        raise RuleErrors([first, *rest], sources)
    decls: list = []
    errors: list = []
    for d in rf.decls:
        if isinstance(d, m.Use):
            target = str(p.parent / d.path)
            if target in chain or target == path:
                errors.append(Diagnostic("cycle", f"'{d.path}' is already being read (use cycle)", d.span))
                continue
            if len(chain) + 1 >= USE_DEPTH_MOST:
                errors.append(Diagnostic(
                    "too-deep", f"'{d.path}' would make a chain of {len(chain) + 2} files each using the next; "
                    f"at most {USE_DEPTH_MOST} may", d.span))
                continue
            if not Path(target).exists():
                where = "" if Path(d.path).is_absolute() else f" next to {path}"
                near = _near_used_file(d.path, Path(target))
                errors.append(Diagnostic("missing-file", f"no rule file '{d.path}'{where}", d.span,
                                         f"did you mean '{near}'?" if near else None))
                continue
            try:
                used, _ = read_rules(target, sources, chain + (path,))
            except RuleErrors as e:
                errors.extend(e.diagnostics)
                continue
            except UsageError as e:  # a folder, a device, a file that cannot be read or is no UTF-8 text
                errors.append(Diagnostic("unreadable", str(e), d.span))
                continue
            decls.extend(x for x in used if not isinstance(x, (m.Game,)))
        else:
            decls.append(d)
    if errors:
        raise RuleErrors(errors, sources)
    return tuple(decls), sources


def check_file(path: str) -> tuple:
    """Parse and check; returns (checker, sources) or raises RuleErrors."""
    decls, sources = read_rules(path)
    title = _title(decls, path)
    try:
        ck = check(decls, path)
    except RecursionError:
        raise RuleErrors([_too_deep(path)], sources, title) from None
    if ck.errors:
        raise RuleErrors(ck.errors, sources, title)
    return ck, sources


def _title(decls, path: str) -> str:
    """The game's title: the file's `game "..."`, or else its name."""
    return next((d.title for d in decls if isinstance(d, m.Game)), Path(path).stem)


def param_values(ck: Checker, compiler: Compiler, settings: dict) -> None:
    """Convert and check `--set` values against each parameter's domain."""
    params = {d.name.name: d for d in ck.decls if isinstance(d, m.Param)}
    for name, raw in settings.items():
        if name not in params:
            near = did_you_mean(name, params)
            known = ", ".join(params) or "none"
            raise UsageError(f"--set {name}={raw}: no parameter '{name}'"
                             + (f"; did you mean '{near}'?" if near else f" (parameters: {known})"))
        d = params[name]
        t = ck.globals[name].type
        if t == T.INT:
            if not re.fullmatch(r"-?[0-9]+", raw):  # not 1_0, +4 or other digits than 0-9, which int() takes
                raise UsageError(f"--set {name}={raw}: '{name}' takes a whole number, written with the digits 0-9")
            v = int(raw)
        elif t == T.BOOL:
            if raw not in ("yes", "no", "true", "false"):
                raise UsageError(f"--set {name}={raw}: '{name}' takes yes or no (or true or false)")
            v = raw in ("yes", "true")
        elif t[0] == "enum":
            values = ck.enums.get(t[1], ())
            if raw not in values:
                near = did_you_mean(raw, values)
                raise UsageError(f"--set {name}={raw}: " + (f"did you mean {near}? " if near else "")
                                 + f"'{name}' takes one of {', '.join(values)}")
            v = compiler.enum_values[(t[1], raw)]
        elif t == T.STR:  # a set of strings: the string without its quotes (checked against the set below)
            v = raw
        else:
            raise UsageError(f"--set {name}={raw}: '{name}' cannot be set from the command line")
        compiler.params[name] = v
    for name, d in params.items():
        if name not in compiler.params:
            compiler.params[name] = compiler.expr(d.default)(compiler.blank_env())
        v = compiler.params[name]
        if d.domain is not None:
            env = compiler.blank_env()
            if isinstance(d.domain, m.RangeLit):  # its bounds, however many numbers lie between
                lo, hi = compiler.expr(d.domain.lo)(env), compiler.expr(d.domain.hi)(env)
                inside, shown = isinstance(v, int) and lo <= v <= hi, f"{lo}..{hi}"
            else:
                allowed = compiler.expr(d.domain)(env)
                inside, shown = v in allowed, "one of " + ", ".join(sorted(str(a) for a in allowed))
            if not inside:
                if name in settings:
                    raw = settings[name]
                    bare = raw[1:-1] if len(raw) > 1 and raw[0] == raw[-1] and raw[0] in "\"'" else None
                    raise UsageError(f"--set {name}={raw}: '{name}' must be {'in ' * (shown[0] != 'o')}{shown}"
                                     + (f"; without the quotes: --set {name}={bare}"
                                        if bare is not None and bare in allowed else ""))
                raise RuleErrors([Diagnostic("out-of-domain", f"default of '{name}' is not in {shown}",
                                             d.default.span)], {})


def other_settings(game: CompiledGame, settings: dict, most: int = 8, given: bool = False) -> list:
    """(name, value, of) for each other value (as `--set` text) of each parameter not in `settings`
    (with `given`, of each parameter in it) that takes yes or no, an enum value, or a whole number
    from a range or set; of a range of more than `most`, the numbers next to its value, its ends
    and its middle, each with `of` the range as text (None where every other value is tried)."""
    params = game.compiler.params
    out = []
    for d in game.checker.decls:
        name = d.name.name if isinstance(d, m.Param) else None
        if name is None or (name in settings) != given:
            continue
        values = _values_of(game, d)
        if values is None:
            continue
        v, of = params[name], None
        if isinstance(values, NumbersText) and len(values) > most:
            lo, hi, of = values.lo, values.hi, f"{values.lo}..{values.hi}"
            values = [str(x) for x in sorted({v - 1, v + 1, lo, (lo + hi) // 2, hi}) if lo <= x <= hi]
        out += [(name, x, of) for x in values if x != (("yes" if v else "no") if isinstance(v, bool) else str(v))]
    return out


def _values_of(game: CompiledGame, d: m.Param) -> Optional[list]:
    """Every value (as `--set` text) of a parameter that takes yes or no, an enum value, or a
    whole number from a range or a set of numbers; None for any other."""
    ck = game.checker
    t = ck.globals[d.name.name].type
    if t == T.BOOL:
        return ["no", "yes"]  # false before true, as numbers go up
    if t[0] == "enum":
        return list(ck.enums.get(t[1], ()))
    env = game.compiler.blank_env()
    if t == T.INT and isinstance(d.domain, m.RangeLit):  # 1..8: its numbers made as they are read
        return NumbersText(game.compiler.expr(d.domain.lo)(env), game.compiler.expr(d.domain.hi)(env))
    if t in (T.INT, T.STR) and isinstance(d.domain, m.SetLit):  # {8, 16, 32}, {"easy", "hard"}
        return [str(a) for a in sorted(game.compiler.expr(d.domain)(env))]
    return None


class NumbersText(Sequence):
    """The whole numbers lo..hi as `--set` text, made as they are read: a parameter's range may
    hold more numbers than memory (1..1000000000000)."""

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi

    def __len__(self):
        return max(0, self.hi - self.lo + 1)

    def __contains__(self, text):
        return isinstance(text, str) and bool(re.fullmatch(r"-?[0-9]+", text)) and self.lo <= int(text) <= self.hi

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        if not -n <= i < n:
            raise IndexError(i)
        return str(self.lo + (i % n))


ANY_NUMBER = 10 ** 18
"""The bound of the numbers a sweep may name for a parameter of any whole number."""


def sweep_values(game: CompiledGame, name: str, named: bool = False) -> list:
    """Every value (as `--set` text) of the parameter `name`; a usage error for a name that is no
    parameter, or one whose values are not a list of names or a range of whole numbers. With
    `named` (the sweep names its values), a parameter of any whole number gives the numbers up to
    ANY_NUMBER either side, for the values named to be taken from."""
    params = {d.name.name: d for d in game.checker.decls if isinstance(d, m.Param)}
    if "," in name and name not in params:
        first, other = name.split(",")[:2]
        raise UsageError(f"--sweep {name}: a --sweep names one parameter; for each combination of two parameters' "
                         f"values, name each: --sweep {first} --sweep {other}")
    if name not in params:
        near = did_you_mean(name, params)
        raise UsageError(f"--sweep {name}: the file has no parameter {name}"
                         + (f"; did you mean {near}?" if near else f" (its parameters: {', '.join(params) or 'none'})"))
    values = _values_of(game, params[name])
    whole = game.checker.globals[name].type == T.INT
    if values is None and whole and named:
        return NumbersText(-ANY_NUMBER, ANY_NUMBER)
    if values is None:
        raise UsageError(f"--sweep {name}: {name} takes any value; a parameter to sweep takes yes or no, one of "
                         "a set of names or numbers, or a whole number from a range such as 1..8"
                         + (f"; or name the numbers: --sweep {name}=A..B or {name}=V,W,..." if whole else ""))
    return values


SWEEP_MOST = 10_000
"""The most values a sweep of a whole range solves: past it, NAME=A..B chooses some."""


def range_ends(game: CompiledGame, settings: dict) -> list:
    """(name, value, which) for the least and the greatest value (as `--set` text) of each parameter
    not in `settings` that takes a whole number from a range or a set, but its own value (`which`: "the least
    of 1..8", say): a game must set up
    with them (`players ... first n` with an n past the names, say)."""
    params = game.compiler.params
    out = []
    for d in game.checker.decls:
        if isinstance(d, m.Param) and d.name.name not in settings and (
                isinstance(d.domain, m.RangeLit) or isinstance(d.domain, m.SetLit)
                and game.checker.globals[d.name.name].type == T.INT) and \
                (values := _values_of(game, d)) is not None and len(values) > 1:
            whole = f"{values[0]}..{values[-1]}" if isinstance(d.domain, m.RangeLit) else ", ".join(values)
            out += [(d.name.name, v, f"the {which} of {whole}")
                    for v, which in ((values[0], "least"), (values[-1], "greatest")) if v != str(params[d.name.name])]
    return out


def refuse_forbidden(ck: Checker, compiler: Compiler, settings: dict, path: str) -> None:
    """Refuse parameter values that a `forbid` declaration of the file rules out."""
    for d in ck.decls:
        if isinstance(d, m.ForbidDecl):
            with guard(d.cond.span, "the forbidden setting"):
                hit = compiler.expr(d.cond)(compiler.blank_env())
            if hit:
                given = " ".join(f"--set {k}={v}" for k, v in settings.items()) or "the default settings"
                raise Forbidden(f"{given}: {d.message} (forbidden at {d.span.file or path}:{d.span.line})")


def load_game(path: str, settings: Optional[dict] = None, drops: Optional[Counter] = None,
              forbid: bool = True) -> CompiledGame:
    """Read, check and compile a rule file with parameter settings (name -> text). With `drops`,
    the game counts there the paths that a `require` or a field's range drops (slower). With
    `forbid` false, settings a `forbid` of the file rules out are compiled all the same (to read
    the values of a parameter, say)."""
    ck, sources = check_file(path)
    compiler = Compiler(ck, {}, drops)
    title = _title(ck.decls, path)
    try:
        param_values(ck, compiler, dict(settings or {}))
        compiler.seat_players()
        if forbid:
            refuse_forbidden(ck, compiler, dict(settings or {}), path)
        for sym in list(ck.globals.values()):  # each constant now, so one that fails is named at its line
            if sym.kind == "const" and isinstance(sym.decl, (m.ConstDecl, m.TableDecl)):
                compiler.const_value(sym)
        try:
            game = CompiledGame(ck, compiler, title, path)
        except RuleErrors as e:  # an initial value outside its range: with which settings
            raise RuleErrors([attrs.evolve(d, message=d.message + (_setting_up(settings) if settings else ""))
                              for d in e.diagnostics], sources, title) from None
        game.rules_digest = rules_digest(sources.values(), names_aside=_read_only_aside(ck))
        game.rules_digests = (game.rules_digest, rules_digest(sources.values(), legacy=True))
        return game
    except RuleErrors as e:
        raise RuleErrors(e.diagnostics, sources, title)
    except UsageError as e:  # a --set the file does not take: the file itself was read (validate --json names it)
        e.title = title
        raise
    except RuleRuntimeError as e:
        # a parameter, constant or initial value that cannot be computed is a mistake in the file
        raise RuleErrors([Diagnostic("runtime", e.message + _setting_up(settings), e.span, e.hint)], sources, title)
    except RecursionError:
        raise RuleErrors([_too_deep(path)], sources, title) from None


def _setting_up(settings: Optional[dict]) -> str:
    """What a message of a failure while the game is set up adds: the --set values it had."""
    given = "".join(f" --set {k}={v}" for k, v in (settings or {}).items())
    return f" (while setting up the game{' with' if given else ''}{given})"


ASIDE_OF_A_SOLVE = ("heuristic", "view", "agent")
"""The declarations that cannot change what a solve finds."""


def _read_only_aside(ck) -> frozenset:
    """The names of the constants, tables and defs that nothing reads but the declarations that
    cannot change a solve (a heuristic, the view, an agent's settings), or that nothing reads."""
    kinds = (m.ConstDecl, m.TableDecl, m.DefDecl)
    declared = {id(d): d for d in ck.decls if isinstance(d, kinds)}
    reached: set = set()
    todo = [d for d in ck.decls if not isinstance(d, (*kinds, m.HeuristicDecl, m.ViewDecl, m.AgentDecl))]
    while todo:  # what the rules read, and what that reads in turn
        for n in nodes_in(todo.pop(), m.Name):
            sym = ck.syms.get(id(n))
            i = id(getattr(sym, "decl", None))
            if i in declared and i not in reached:
                reached.add(i)
                todo.append(declared[i])
    return frozenset(d.name.name for i, d in declared.items() if i not in reached)


def rules_digest(texts, legacy: bool = False, names_aside: frozenset = frozenset()) -> str:
    """A short digest of rule texts (a file and those it uses, in the order read) that a change to
    their comments, `source` notes or spacing, or to a declaration that cannot change a solve (a
    heuristic, the view, an agent's settings, and the constants, tables and defs named in
    `names_aside`, which only those read), leaves as it was: what a policy file was solved from.
    The `game` title (told apart on its own) and the `use` lines are left out too, so a file that
    uses another and adds a heuristic (and the weights `fit` prints for it) has the other's
    digest; `legacy`: the digest as policy files written before that have it, which kept all
    but the heuristic, view and agent declarations."""
    aside = ASIDE_OF_A_SOLVE if legacy else (*ASIDE_OF_A_SOLVE, "game", "use")

    def kept_decl(d: str) -> bool:
        named = re.match(r"(const|table|def)\s+(\w+)", d)  # one that only what is set aside reads
        return bool(d.split()) and d.split(None, 1)[0] not in aside and not (
            not legacy and named is not None and named.group(2) in names_aside)
    kept = []
    for t in texts:
        t = re.sub(r'\bsource\s+"[^"\n]*"|("[^"\n]*")|#[^\n]*', lambda c: c.group(1) or "", t)  # notes too
        # a declaration runs from its unindented first line to the next unindented line
        decls = re.split(r"\n(?=\S)", t)
        kept.append(" ".join(" ".join(d for d in decls if kept_decl(d)).split()))
    joined = "\n".join(kept) if legacy else " ".join(k for k in kept if k)
    return hashlib.sha256(joined.encode()).hexdigest()[:16]


def command_line_predicates(game: CompiledGame, texts, source: str = INVARIANT_SOURCE) -> list:
    """Parse, check and compile boolean expressions given on the command line (`--invariant`,
    `--filter`) in the scope of a state: (declaration, state -> bool) pairs. An `--invariant` may
    read old(...): its function's `step` is then true, and it takes the state before a step too,
    holds(s, before)."""
    return _command_line_expressions(game, texts, source, T.BOOL)


def command_line_measures(game: CompiledGame, texts, source: str = "--measure") -> list:
    """Whole-number expressions given on the command line (`--measure`), as for
    command_line_predicates: (declaration, state -> int) pairs."""
    return _command_line_expressions(game, texts, source, T.INT)


def file_text(path: str) -> dict:
    """{path: its text}, to show a rule's line under a diagnostic; {} when it cannot be read."""
    try:
        return {path: Path(path).read_text(encoding="utf-8-sig")}
    except (OSError, UnicodeDecodeError):
        return {}


def _command_line_expressions(game: CompiledGame, texts, source: str, want) -> list:
    # diagnostics point into the texts joined by newlines, as the file `source`
    decls, errors, line = [], [], 0
    for text in texts:
        try:
            cond = parse_expr(text, source, line_offset=line)
        except RuleErrors as e:
            errors.extend(e.diagnostics)
        else:
            decls.append(m.InvariantDecl(cond, None, cond.span))
        line += text.count("\n") + 1
    ck = game.checker
    known = len(ck.errors)
    try:
        for d in decls:
            if source == INVARIANT_SOURCE:  # old(...) allowed, as in the file's invariants
                ck.check_InvariantDecl(d)
            else:
                ck.top_level(d.cond, want, f"a {source} expression")
        if not errors and len(ck.errors) == known:
            ck.check_defs_as_called()  # the defs they call, with the types of these calls
    except RecursionError:
        raise RuleErrors([_too_deep(source)], {}) from None
    errors.extend(ck.errors[known:])
    del ck.errors[known:]
    if errors:  # shown with the expressions' text, and the rule file's (a def they call may be at fault)
        raise RuleErrors(errors, {**file_text(game.path), source: "\n".join(texts)})
    pad = [None] * (ck.nslots - game.nslots)  # slots for names the expressions bind

    def predicate(decl, holds):
        def holds_in(s, before=None):
            env = game.env(s) + pad
            if before is not None:
                env[ck.before_slot] = before
            with guard(decl.span, f"the {source} expression"):
                v = holds(env)
                return bool(v) if want == T.BOOL else v
        holds_in.step = id(decl) in ck.step_invariants  # reads old(...): holds_in(s, before) on each step
        return holds_in

    return [(d, predicate(d, game.compiler.expr(d.cond))) for d in decls]


def _too_deep(path: str) -> Diagnostic:
    """Each expression is at most MAX_DEPTH deep (parse.py), but defs calling defs add up."""
    return Diagnostic("too-deep", "the rules nest too deeply to be checked: deep expressions in defs that "
                      "call each other add up", m.Span(path, 1, 1, 1, 1),
                      "split long expressions with `let`, `const` or `def`")


def parse_settings(pairs) -> dict:
    """`--set NAME=VALUE` arguments as a dict of strings."""
    out = {}
    for p in pairs or ():
        if "=" not in p or not p.split("=", 1)[0]:
            raise UsageError(f"--set {p}: expected NAME=VALUE, e.g. --set players=4")
        k, v = (x.strip() for x in p.split("=", 1))
        if k in out and out[k] != v:
            raise UsageError(f"--set {k}={v}: {k} is already set to {out[k]} by an earlier --set")
        out[k] = v
    return out


def settings_given(game: CompiledGame, pairs) -> list:
    """The parameters set on the command line, as sorted `NAME=VALUE` texts, each value written
    one way (`yes` for `true`, `7` for `07`), so runs with one setting say it alike."""
    params = game.compiler.params
    return [f"{k}={setting_text(params.get(k, v))}" for k, v in sorted(parse_settings(pairs).items())]


def parameter_values(game: CompiledGame) -> dict:
    """Every parameter's value in this game, given or not, as JSON gives it: a number, true or
    false for yes or no, a name."""
    return {k: v if isinstance(v, (bool, int)) else setting_text(v) for k, v in game.compiler.params.items()}


def setting_text(v) -> str:
    """A parameter's value as `--set` writes it: yes or no, a number, a name."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    return v.name if isinstance(v, EnumValue) else str(v)


def titled(game, pairs) -> str:
    """The game's title, with the parameters set on the command line and the state it starts from
    if not its own: `Pig (target=10) from state.json`."""
    settings = settings_given(game, pairs)
    start = getattr(game, "started_from", None)
    return game.title + (f" ({', '.join(settings)})" if settings else "") + (f" from {start}" if start else "")
