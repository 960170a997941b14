"""Warnings about a checked game: declarations nothing refers to, actions that never ran, playouts
that never ended or stopped at a dead end."""
from __future__ import annotations

from collections import Counter
from typing import Optional

from . import model as m
from . import types as T
from .check import Checker, bounded_collection, names_in, nodes_in, state_slots
from .diagnostics import Diagnostic, counted

_WHAT = {"param": "parameter", "const": "constant", "def": "function", "action": "action", "record": "record",
         "type": "enum"}


def unused(ck: Checker) -> list:
    """A warning for each parameter, constant, function, action, record or enum that is never used
    (of those the file declares: a file it uses may be shared by games that use other parts)."""
    used = {id(sym) for sym in ck.syms.values()}
    for sym in list(ck.syms.values()):  # an enum or tile type whose values are used is used
        if sym.kind in ("enumval", "const") and sym.type[0] in ("enum", "tile") and sym.type[1] in ck.globals:
            used.add(id(ck.globals[sym.type[1]]))
    out = []
    for sym in ck.globals.values():
        if sym.kind in _WHAT and sym.span.line and sym.span.file == ck.path and id(sym) not in used:
            what = "tile type" if sym.type[0] == "tile" and sym.kind == "type" else _WHAT[sym.kind]
            hint = "a def kept for the command line (--filter, --measure, --invariant) is used only there" \
                if sym.kind == "def" else None
            out.append(Diagnostic("unused", f"{what} '{sym.name}' is never used", sym.span, hint,
                                  severity="warning"))
    return out


def unread_lets(ck: Checker) -> list:
    """A warning for each name a `let` or a `var` binds that nothing reads (one beginning with `_`
    is meant so). A `let` inside a block names a new value for that block: `let total = total + x`
    in a `for` adds nothing to the total after it."""
    uses = Counter(id(sym) for sym in ck.syms.values() if sym.kind == "local")  # its binding counts once
    carried = {id(ident) for ident, _ in _carried(ck)}  # lets_in_loops tells of these
    out = []
    for let in nodes_in(ck.decls, m.Let):
        for ident in let.targets:
            sym = ck.syms.get(id(ident))
            if sym is not None and uses[id(sym)] == 1 and not ident.name.startswith("_") and id(ident) not in carried:
                out.append(Diagnostic("unused", f"'{ident.name}' is never read after this `let`", ident.span,
                                      "a `let` names a new value from there on, inside its block only: `let t = t + "
                                      "x` in a `for` makes a new t for that pass and leaves the t after the loop as "
                                      "it was; a total over a loop is a comprehension (`let t = sum(f(x) for x in "
                                      "xs)`) or a `var` changed with `+=` (`var t = 0` before the loop)",
                                      severity="warning"))
    read = {id(ck.syms[id(n)]) for n in nodes_in(ck.decls, m.Name) if id(n) in ck.syms}
    for v in nodes_in(ck.decls, m.Var):
        sym = ck.syms.get(id(v.target))
        if sym is not None and id(sym) not in read and not v.target.name.startswith("_"):
            out.append(Diagnostic("unused", f"'{v.target.name}' is never read after this `var`", v.target.span,
                                  "a `var` is gone when its block ends: a value to keep goes into a state field",
                                  severity="warning"))
    return out


def hidden_fields(ck: Checker) -> list:
    """A warning for each local name (bound by `let`, `var`, `choose`, `for`, `draw`, a
    parameter or a comprehension) named as a state field: where it is visible the field cannot be
    read, and `=` or `+=` on the name changes the local, not the field."""
    fields = {f.name for f in ck.fields}
    hiding = sorted({(sym.span, sym.name, isinstance(sym.decl, m.Var)) for sym in ck.syms.values()
                     if sym.kind == "local" and sym.name in fields}, key=lambda x: (x[0].line, x[0].col))
    return [Diagnostic("hides-field", f"'{name}' here is a new name that hides the state field '{name}' to the end "
                       "of its block", span, "the field cannot be read there" +
                       (f", and `{name} = ...` changes the `var`, not the field" if var else "") +
                       "; give this one another name", severity="warning") for span, name, var in hiding]


def lets_in_loops(ck: Checker) -> list:
    """A warning for each `let` inside a `for` that names anew a value the loop took from outside
    it and reads it (`let pos = pos + 1`): each pass makes its own, from the value before the
    loop, so nothing is carried from one pass to the next, which such a line usually means."""
    return [Diagnostic("loop-let", f"this `let` makes a new '{ident.name}' for one pass of the `for`: the next pass "
                       f"starts again from the '{ident.name}' of line {outer.span.line}", ident.span,
                       f"`var {ident.name} = ...` before the loop and `{ident.name} = ...` in it carry a value from "
                       "one pass to the next; a total over the loop is a comprehension (`sum(f(x) for x in xs)`)",
                       severity="warning")
            for ident, outer in _carried(ck)]


def draws_put_back(ck: Checker) -> list:
    """A warning at a `draw` from a `var` or state field holding a list or bag (a deck, not a die's
    faces, which are a range or a constant) that its chance block draws from again, in a `for` or
    by another `draw`, and never changes: every draw is from the whole collection, as if each card
    drawn were put back (a deck dealt wants `rest -= c` after `draw c in rest`)."""
    out = []
    for block in (d for d in ck.decls if isinstance(d, m.ChanceDecl)):
        changed = {id(sym) for st in nodes_in(block.body, (m.Assign, m.Update))
                   if (sym := ck.syms.get(id(st.target))) is not None}
        draws = [(dr, sym) for dr in nodes_in(block.body, m.Draw) if isinstance(dr.domain, m.Name)
                 and (sym := ck.syms.get(id(dr.domain))) is not None and sym.kind in ("local", "field")
                 and sym.type[0] in ("list", "bag") and id(sym) not in changed]
        loops, told = list(nodes_in(block.body, m.ForStmt)), set()
        for dr, sym in draws:
            again = sum(1 for _, other in draws if other is sym) > 1 or any(_within(dr.span, f.span) for f in loops)
            if again and id(sym) not in told:  # once a collection, at its first draw
                told.add(id(sym))
                out.append(Diagnostic(
                    "draw-put-back", f"each draw from '{sym.name}' is from all of it: nothing in this chance block "
                    f"takes out what was drawn, so it draws again as if each were put back", dr.span,
                    f"a deck dealt takes each card out: `{sym.name} -= {dr.targets[0].name}` after the draw (a die's "
                    "faces drawn again and again are a range or a constant)", severity="warning"))
    return out


def _carried(ck: Checker):
    """(the name a `let` in a `for` binds, the symbol outside the loop its value reads by that name)."""
    for loop in nodes_in(ck.decls, m.ForStmt):
        for let in nodes_in(loop.body, m.Let):
            for ident in let.targets:
                outer = next((sym for n in names_in(let.value) if n.id == ident.name
                              and (sym := ck.syms.get(id(n))) is not None and sym.kind == "local"
                              and not _within(sym.span, loop.span)), None)
                if outer is not None:
                    yield ident, outer


def _within(a, b) -> bool:
    """Whether span a lies inside span b."""
    return a.file == b.file and (b.line, b.col) <= (a.line, a.col) and \
        (a.end_line, a.end_col) <= (b.end_line, b.end_col)


def _literal(e) -> Optional[int]:
    """The number an int literal (or a minus sign before one) writes, else None."""
    if isinstance(e, m.Neg):
        inner = _literal(e.operand)
        return None if inner is None else -inner
    return e.value if isinstance(e, m.IntLit) else None


def reversed_ranges(ck: Checker) -> list:
    """A warning for each range written with two numbers, the first above the last (`25..15`): it is
    empty, as any range whose first number is above its last, but one written so is likely meant
    the other way round."""
    out = []
    for r in nodes_in(ck.decls, m.RangeLit):
        lo, hi = _literal(r.lo), _literal(r.hi)
        if lo is not None and hi is not None and lo > hi:
            out.append(Diagnostic("empty-range", f"the range {lo}..{hi} is empty: its first number is above its "
                                  "last", r.span, f"from the least: {hi}..{lo}", severity="warning"))
    return out


_SIDE_WORDS = {**dict.fromkeys(("n", "north", "top", "up", "t", "u"), 0),
               **dict.fromkeys(("e", "east", "right", "r"), 1),
               **dict.fromkeys(("s", "south", "bottom", "down", "b", "d"), 2),
               **dict.fromkeys(("w", "west", "left", "l"), 3)}
_SIDES = ("the top", "the right", "the bottom", "the left")


def sides_out_of_order(ck: Checker) -> list:
    """A warning for each enum of a tile set's sides whose four values are named as directions (N, E,
    S, W; up, right, down, left) in another order than the one the sides are taken in, clockwise
    from the top: `enum Side { N, S, E, W }` would make S the right side."""
    enums = {d.name.name: d for d in ck.decls if isinstance(d, m.EnumDecl)}
    out, seen = [], set()
    for d in ck.decls:
        e = enums.get(d.sides.name) if isinstance(d, m.TilesDecl) else None
        if e is None or e.name.name in seen or len(e.values) != 4:
            continue
        seen.add(e.name.name)
        names = [v.name for v in e.values]
        where = [_SIDE_WORDS.get(n.lower()) for n in names]
        if None in where or sorted(where) != [0, 1, 2, 3] or where == [0, 1, 2, 3]:
            continue
        wrong = next(i for i, w in enumerate(where) if w != i)
        clockwise = ", ".join(names[where.index(i)] for i in range(4))
        out.append(Diagnostic(
            "side-order", f"tile type '{d.name.name}' takes the sides of {e.name.name} clockwise from the top, so "
            f"{names[wrong]} is {_SIDES[wrong]} side", e.span,
            f"written clockwise from the top: enum {e.name.name} {{ {clockwise} }}", severity="warning"))
    return out


def unchecked_ranges(ck: Checker) -> list:
    """A warning for each range written inside a type that keeps no value in it (`list<0..5>` in
    a table, `map<Res, list<0..5>>`): only a state field's own range does, or the values' range
    of a state field or a `var` that is a collection (`map<Res, 0..5>`)."""
    fields = [f for d in ck.decls if isinstance(d, m.StateDecl) for f in d.fields] + list(nodes_in(ck.decls, m.Var))
    kept = {id(f.type) for f in fields if bounded_collection(f.type)}
    out = []
    for g in nodes_in(ck.decls, m.GenericType):
        for k, a in enumerate(g.args):
            if isinstance(a, m.RangeType) and not (id(g) in kept and k == len(g.args) - 1):
                out.append(Diagnostic("unchecked-range", f"a range inside {g.name.name}<...> here is not checked: "
                                      "its values may be any whole number", a.span,
                                      "a state field's range keeps its values in it (`wood: 0..5`, and so does "
                                      "`res: map<Res, 0..5>`); elsewhere write int, and a `require` or an "
                                      "invariant keeps the values in range", severity="warning"))
    return out


def unread_fields(ck: Checker, drops: Optional[dict] = None) -> list:
    """A warning for each state field that nothing reads (not the score, the end, a condition,
    another field's change, a label, the view, a heuristic or an invariant, nor its range where
    it dropped moves in validate's playouts, `drops`): each value it takes still makes a state of
    its own, so `solve` holds more states and searches tell fewer apart."""
    read = _fields_read(ck, ck.decls) | _ranges_read(ck, drops)
    return [Diagnostic("unused", f"state field '{sym.name}' is never read", sym.span,
                       "its changes still make states of their own (solve holds each, searches tell them apart); "
                       "without it the game has fewer states (a range that drops moves, as `wood -= 3` in 0..9 "
                       "makes a move cost wood, reads its field: validate's random playouts saw none here)",
                       severity="warning")
            for sym in ck.fields if id(sym) not in read and sym.span.line]


def _ranges_read(ck: Checker, drops: Optional[dict]) -> set:
    """The ids of the fields whose range dropped moves in validate's playouts (`drops`: (span, why)
    -> paths dropped): a change that would leave the range drops its move (`wood -= 2` where wood
    is 0..9 is how a move costs wood), so the range reads the field."""
    dropped = {span for span, why in (drops or {}) if "would leave its range" in why}
    return {id(ck.syms.get(id(st.target))) for kind in (m.Assign, m.Update, m.IndexAssign, m.IndexUpdate)
            for st in nodes_in(ck.decls, kind) if st.target.span in dropped}


def fields_for_the_view(ck: Checker, drops: Optional[dict] = None) -> list:
    """A warning for each state field that the view reads and nothing else does (a def the view
    calls counts as something else): each value it takes makes a state of its own, for a view."""
    shown = _fields_read(ck, tuple(d for d in ck.decls if isinstance(d, m.ViewDecl)))
    elsewhere = _fields_read(ck, tuple(d for d in ck.decls if not isinstance(d, m.ViewDecl))) | _ranges_read(ck, drops)
    return [Diagnostic("view-only", f"state field '{sym.name}' is read by the view alone", sym.span,
                       "where its value does not follow from the other fields', each value it takes makes a state of "
                       "its own (solve holds each, searches tell them apart), only to be shown; a view can work out "
                       "what it shows from the fields the rules read", severity="warning")
            for sym in ck.fields if id(sym) in shown and id(sym) not in elsewhere and sym.span.line]


def _fields_read(ck: Checker, decls: tuple) -> set:
    """The ids of the symbols the declarations read, but where a change of a field reads that field
    itself (a = a + 1), which is no read of it."""
    own: set = set()
    for kind in (m.Assign, m.Update, m.IndexAssign, m.IndexUpdate):
        for st in nodes_in(ck.decls, kind):
            target = ck.syms.get(id(st.target))
            own.update(id(n) for n in nodes_in(st.value, m.Name) if ck.syms.get(id(n)) is target)
    return {id(ck.syms[id(n)]) for n in nodes_in(decls, m.Name) if id(n) in ck.syms and id(n) not in own}


def lone_player_scores(ck: Checker) -> list:
    """A warning at `score for p` in a file that declares no `players` (its game has one player, so
    p is always that one: a `players` line forgotten, say), and at the first player named in a
    `score` without `for p` in a game of several (each gets that one return: `score if current == A
    then -1 else 1` makes them play together, where each was meant to have a score of its own)."""
    scores = [d for d in ck.decls if isinstance(d, m.ScoreDecl)]
    if not any(isinstance(d, m.PlayersDecl) for d in ck.decls):
        return [Diagnostic("one-player", f"`score for {d.player.name}` in a game of one player: the file declares "
                           f"no `players`, so {d.player.name} is always the one player", d.player.span,
                           "a game of several players names them, `players A, B`; one player's score needs no "
                           f"`for {d.player.name}`", severity="warning")
                for d in scores if d.player is not None]
    out = []
    for d in scores:
        if d.player is not None or len(ck.players) < 2:
            continue
        read = [n for n in names_in(d.value) if (sym := ck.syms.get(id(n))) is not None and sym.type == T.PLAYER
                and sym.kind in ("current", "enumval")]
        # reading every player by name (points[A] + points[B]) is a score they share
        if read and ({n.id for n in read} < set(ck.players) or any(n.id == "current" for n in read)):
            out.append(Diagnostic(
                "shared-score", f"`score` without `for p` gives the {len(ck.players)} players one and the same "
                f"return, and this one reads '{read[0].id}' as if it were one player's score: they all get it alike",
                read[0].span, "`score for p: EXPR` gives each player a return of their own (`score for p: if p == "
                "current then -1 else 1`); a game played together, all winning or losing as one, reads no player",
                severity="warning"))
    return out


def stale_labels(ck: Checker) -> list:
    """A warning for each action whose label shows a state field that the action, as its last
    change of it, sets to a constant: the label is written when the action is done, so it shows
    that constant on every move (`hold {pot}` after `pot = 0`). A statement after that change
    that may touch the field (an `if`, `optional` or `for` around a change of it, an action
    called) leaves the label free to show other values."""
    out = []
    for d in ck.decls:
        if not isinstance(d, m.ActionDecl) or d.label is None:
            continue
        shown = state_slots(ck, d.label)
        last: dict = {}  # slot -> the action's last top-level statement that writes it
        for st in d.body.stmts:
            sym = ck.syms.get(id(getattr(st, "target", None)))
            if sym is not None and sym.kind == "field" and sym.slot in shown:
                last[sym.slot] = (sym, st)
                continue
            calls = any(getattr(ck.syms.get(id(c.func)), "kind", None) == "action" for c in nodes_in(st, m.CallStmt))
            touched = state_slots(ck, st)
            last = {slot: v for slot, v in last.items() if not calls and slot not in touched}
        for sym, st in last.values():
            if isinstance(st, m.Assign) and _constant(ck, st.value):
                out.append(Diagnostic(
                    "stale-label", f"the label of '{d.name.name}' always shows the value the action gives "
                    f"'{sym.name}' at line {st.span.line}: a label is written when its action is done",
                    d.label.span, f"to show the value before the change, `let` a copy first "
                    f"(let was = {sym.name}) and write {{was}} in the label", severity="warning"))
    return out


def _constant(ck: Checker, e) -> bool:
    """Whether an expression names only constants, parameters and enum values."""
    return all(ck.syms.get(id(n)) is not None and ck.syms[id(n)].kind in ("const", "param", "enumval", "type")
               for n in names_in(e))


def unreached(ck: Checker, missing: set, playouts: int, tried: list = (), elsewhere: Optional[dict] = None,
              settings: Optional[dict] = None, drops: Optional[dict] = None, chance_only: bool = False,
              ended_at_start: bool = False, stopped: Optional[str] = None) -> list:
    """A warning for each action named in `missing`: something calls it, but it completed on no
    path of a move in the random playouts, nor in those with another value of a parameter named
    in `tried` (one changed at a time). `elsewhere` maps an action to the (name, value) of a
    parameter the user set (in `settings`) with another value of which it did run; `drops`,
    (span, why) -> how many paths a `require` or a field's range dropped in the playouts;
    `chance_only`: no action ran, yet chance did (its condition held wherever the game went);
    `ended_at_start`: the initial state is an end, so nothing ran; `stopped`: no action ran as each
    playout stopped where no move was legal after chance steps alone ("dead-end": the warning of
    that name says why; "dead ends are ends": the file declares them ends)."""
    also = f", nor with another value of {joined(tried, 'or')}" if tried else ""
    ran = f"never ran in {counted(playouts, 'random playout')}"
    out = []
    for sym in ck.globals.values():
        if sym.kind != "action" or not sym.span.line or sym.name not in missing:
            continue
        if ended_at_start:  # whatever else: nothing runs
            hint = _ended_at_start(tried, (elsewhere or {}).get(sym.name), "ran", settings)
        elif sym.name in (elsewhere or {}):
            name, value = elsewhere[sym.name]
            hint = (f"it ran with --set {name}={value} instead of {name}={settings[name]}, so it may be meant for "
                    f"other values of {name}; if it should run with {name}={settings[name]}, a `require` on its "
                    "way may never hold")
        elif stopped:
            hint = ("no player moved in them: each stopped where no move was legal, after chance steps alone"
                    + (" (the dead-end warning says why no move was)" if stopped == "dead-end" else
                       ", which the file declares ends (`dead ends are ends`)"))
        elif chance_only:
            hint = ("no player moved in them: a chance block applied in every state they reached (the first "
                    "whose condition holds applies, before any player moves), so its condition may always hold; in a "
                    "game where only chance moves, `turn { }` needs no action")
        elif inside := _inside(drops or {}, sym.decl.span):
            hint = f"no path through it ended a move in the states they reached{also}: {_dropped(inside, 'it')}"
        elif (fallback := _only_after_try(ck, sym.name)) is not None:
            hint = (f"it is called only in the `else` of the `try` at line {fallback.line}, which runs where the "
                    "`try`'s block has no way through: the block had one in every state they reached"
                    + (f" (and with each other value of {joined(tried, 'and')})" if tried else ""))
        else:
            hint = (f"no path through it ended a move in the states they reached{also}: a `require` on its way "
                    "may never hold" + ("" if tried else " with these parameter values"))
        out.append(Diagnostic("unreached", f"action '{sym.name}' {ran}", sym.span, hint, severity="warning"))
    return out


def _ended_at_start(tried: list, elsewhere: Optional[tuple], did: str, settings: Optional[dict]) -> str:
    """The hint where the initial state is an end: no move and no chance step is ever made."""
    return ("the initial state is already an end: `terminal` holds there" + ("" if tried else
            " with these parameter values") + ", so no move or chance step is ever made"
            + (f" (it {did} with --set {elsewhere[0]}={elsewhere[1]} instead of {elsewhere[0]}="
               f"{settings[elsewhere[0]]})" if elsewhere else ""))


def _only_after_try(ck: Checker, action: str) -> Optional[m.Span]:
    """The span of a `try` in whose `else` the action is called, where it is called nowhere else."""
    calls = [c for c in nodes_in(ck.decls, m.CallStmt) if c.func.name == action]
    tries = [t for t in nodes_in(ck.decls, m.TryStmt)
             if any(c.func.name == action for c in nodes_in(t.orelse, m.CallStmt))]
    inside = {id(c) for t in tries for c in nodes_in(t.orelse, m.CallStmt)}
    return tries[0].span if calls and tries and all(id(c) in inside for c in calls) else None


def unapplied(chances: list, triggers: list, missing: set, playouts: int, tried: list = (),
              elsewhere: Optional[dict] = None, settings: Optional[dict] = None, ended_at_start: bool = False) -> list:
    """A warning for each chance declaration whose index is in `missing` (it applied in none of
    the random playouts) and each trigger whose ("when", index) is (its condition held after none
    of their moves), nor in the playouts with another value of a parameter named in `tried`.
    `elsewhere` maps an index or ("when", index) to the (name, value) of a parameter the user set
    (in `settings`) with another value of which it did apply or fire."""
    also = f", nor with another value of {joined(tried, 'or')}" if tried else ""
    out = []
    for key, d in [*enumerate(chances), *((("when", i), d) for i, d in enumerate(triggers))]:
        if key not in missing:
            continue
        chance = not isinstance(key, tuple)
        did = "applied" if chance else "fired"
        if ended_at_start:
            hint = _ended_at_start(tried, (elsewhere or {}).get(key), did, settings)
        elif key in (elsewhere or {}):
            name, value = elsewhere[key]
            hint = (f"it {did} with --set {name}={value} instead of {name}={settings[name]}, so it may be meant for "
                    f"other values of {name}")
        elif chance:
            hint = f"its condition held in none of the states they reached{also}"
            if key:
                lines = ", ".join(str(c.span.line) for c in chances[:key])
                hint += (f", or an earlier chance block's held there too (line{'s' if key > 1 else ''} {lines}): the "
                         "first chance block whose condition holds applies")
        else:
            hint = f"its condition held after none of the moves they made{also}"
        what = "the chance block never applied" if chance else "the trigger never fired"
        out.append(Diagnostic("unreached", f"{what} in {counted(playouts, 'random playout')}", d.span, hint,
                              severity="warning"))
    return out


def endless(ck: Checker, ended: int, playouts: int, steps: int) -> list:
    """A warning at the terminal condition when none of the random playouts ended."""
    ends = [d for d in ck.decls if isinstance(d, m.TerminalDecl)]
    if ended or not playouts or not ends:
        return []
    what = f"none of {playouts:,} random playouts ended" if playouts != 1 else "the random playout did not end"
    return [Diagnostic("no-end", f"{what} within {steps:,} move{'s' if steps != 1 else ''}", ends[0].span,
                       "the terminal condition may never hold, or random play rarely reaches it (a puzzle, "
                       "say: `solve` finds whether it can); if the game is that long, `--steps N` plays "
                       "longer (and `play --max-moves N` stops games that go on)", severity="warning")]


def loop_cuts(cuts: Optional[dict]) -> list:
    """A warning at the condition of each `for` that only counts its repeats (see
    compile.repeat_condition) and that, in validate's playouts, came to the end of its range with
    its condition still holding: the steps stopped at the bound, not where the condition failed."""
    return [Diagnostic("loop-cut", f"this `for` came to the end of its range with its condition still "
                       f"holding in {counted(cut, 'run')} of {runs:,} in the random playouts: the steps "
                       "stopped at the range's bound, not where the condition failed", span,
                       "where the bound is only a limit to be safe, make it larger (a pass whose condition "
                       "fails costs next to nothing); where it is a rule of the game (at most N times), all "
                       "is well", severity="warning")
            for span, (runs, cut) in sorted((cuts or {}).items(), key=lambda x: (x[0].line, x[0].col)) if cut]


def partial_tables(ck: Checker) -> list:
    """A warning for a table keyed by an enum that has entries for most of its values but not all:
    reading a missing one fails while the rules run. (One with entries for half or fewer is taken
    to be partial on purpose.)"""
    out = []
    for d in ck.decls:
        t = ck.globals[d.name.name].type if isinstance(d, m.TableDecl) and d.name.name in ck.globals else None
        if t is None or t[0] != "map" or t[1][0] != "enum" or t[1][1] not in ck.enums:
            continue
        keys = {e.key.id for e in d.entries if isinstance(e.key, m.Name)}
        values = ck.enums[t[1][1]]
        missing = [v for v in values if v not in keys]
        if missing and len(missing) * 2 < len(values):
            name = d.name.name
            out.append(Diagnostic("partial-table", f"table '{name}' has no entry for {joined(missing, 'and')}",
                                  d.name.span, f"reading {name}[{missing[0]}] fails while the rules run; "
                                  f"get({name}, k, d) reads d where there is no entry", severity="warning"))
    return out


def dead_ends(ck: Checker, stuck: list, playouts: int, drops: Optional[dict] = None) -> list:
    """A warning at the terminal condition when random playouts stopped at a dead end: a state
    that is not terminal where no move is legal (`stuck`: the moves played before each; `drops`:
    (span, why) -> how many ways through the turn were dropped so at the first)."""
    ends = [d for d in ck.decls if isinstance(d, m.TerminalDecl)]
    if not stuck or not ends:
        return []
    many = "the random playout" if playouts == 1 else \
        f"{'all' if len(stuck) == playouts else len(stuck)} of {playouts:,} random playouts"
    if drops:
        hint = "if the game ends there, say so in `terminal` (or declare `dead ends are ends`); if not: at the " \
            "first of them, " + \
            _dropped(drops, "the turn")
    else:
        hint = "if the game ends there, say so in `terminal` (or declare `dead ends are ends`); if a move should " \
               "be legal there, a `require` may fail on every path, a `choose` have no value to take, or a value " \
               "may leave a field's range (which drops the move unless the field says `clamp`)"
    return [Diagnostic(
        "dead-end", f"{many} stopped where no move is legal and the game is not over (the first after "
        f"{counted(min(stuck), 'move')})", ends[0].span, hint, severity="warning")]


def _inside(drops: dict, span) -> dict:
    """The entries of `drops` whose place lies within span."""
    return {(at, why): n for (at, why), n in drops.items()
            if at.file == span.file and (span.line, span.col) <= (at.line, at.col) <= (span.end_line, span.end_col)}


def _dropped(drops: dict, through: str) -> str:
    """`3 ways through THROUGH were dropped at line L, column C, where ...; 1 at ...`: the three
    places of `drops` ((span, why) -> count) that dropped the most."""
    top = sorted(drops.items(), key=lambda kv: (-kv[1], kv[0][0].line, kv[0][0].col))[:3]
    places = [f"at line {span.line}, column {span.col}, {why}" for (span, why), _ in top]
    n = top[0][1]
    return (f"{counted(n, 'way')} through {through} {'was' if n == 1 else 'were'} dropped {places[0]}"
            + "".join(f"; {k:,} {where}" for (_, k), where in zip(top[1:], places[1:])))


def joined(names: list, word: str) -> str:
    """`a`, `a or b`, `a, b or c` (with `word` or, and so on)."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {word} {names[-1]}"
