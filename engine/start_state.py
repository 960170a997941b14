"""`--from FILE.json`: a state written as the engine writes states in JSON (`state_json`), read
back as the state a command starts from instead of the file's initial one."""
from __future__ import annotations

import json
import sys
from typing import Optional

from . import model as m
from . import runtime as rt
from . import types as T
from .check import bounded_collection, nodes_in
from .diagnostics import UsageError, clip
from .load import file_text
from .off_board import OffBoard


def start_from(game, path: Optional[str]) -> None:
    """Make the state in `path` (see read_start) the game's initial state; nothing for None. A state
    that breaks one of the file's invariants is refused."""
    if path is None:
        return
    s = read_start(game, path)
    broken = game.broken_invariants(s)
    if broken:
        span = broken[0].span
        source = file_text(span.file).get(span.file, "").splitlines()
        text = source[span.line - 1].strip() if span.line <= len(source) else ""
        raise UsageError(f"--from {path}: the state breaks the invariant at {span}" + (f": {text}" if text else ""))
    look = OffBoard.of(game)  # a cell the rules' grids lack, which the initial state does not hold either: a slip?
    if look is not None:
        look.look(s, 0)
        for name, (cell, _, _) in look.found.items():
            print(f"warning: --from {path}: field '{name}' holds the cell {rt.format_value(cell)}, on none of the "
                  f"file's grids ({', '.join(look.grids)}) and not in the initial state", file=sys.stderr)
    game.start_at(s)
    game.started_from = path


def read_start(game, path: str):
    """The state in the JSON file `path`: a state object as `solve --json`, `--policy` and `check`
    print one (`{"field": value, ..., "to_move": P}`), or an object holding one under `state` (a
    step of a best line, a line of a policy). Every field must be given, with a value of its type
    (and range), but a scored total, which starts at its initial value where it is left out (as a
    policy that sets it aside leaves it); `to_move` too where there are several players. A usage
    error says what is wrong."""
    flag = f"--from {path}"
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise UsageError(f"{flag}: cannot read the file ({e.strerror})") from None
    except ValueError as e:
        several = "; one state a file: give one line of a policy file (or one step of a best line)" \
            if "Extra data" in str(e) else ""
        raise UsageError(f"{flag}: not JSON ({e}){several}") from None
    if isinstance(data, dict) and isinstance(data.get("state"), dict):
        data = data["state"]
    if not isinstance(data, dict):
        raise UsageError(f"{flag}: expected an object of the state's fields, as solve --json prints one")
    ck, c = game.checker, game.compiler
    names = [f.name for f in ck.fields]
    extra = sorted(set(data) - set(names) - {"to_move"} - ({"fired"} if game.once_lines else set()))
    missing = [n for n in names if n not in data and n != game.scored_field]
    if extra or missing:
        raise UsageError(f"{flag}: " + "; ".join(
            ([f"no field {', '.join(extra)} in {game.title}"] if extra else [])
            + ([f"the field{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                 f"{'are' if len(missing) > 1 else 'is'} missing"] if missing else []))
            + f" (its fields: {', '.join(names)})")
    reader = _Reader(c, ck, flag)
    env = c.blank_env()
    values = []
    kept, keys_kept = _shapes_kept(ck)
    for f in ck.fields:
        if f.name not in data:  # the scored total: from its initial value
            values.append(c.expr(f.decl.init)(env))
            continue
        v = reader.value(data[f.name], f.type, f.name)
        t = f.decl.type
        if isinstance(t, m.RangeType):
            lo, hi = (c.expr(b)(env) for b in (t.lo, t.hi))
            if not lo <= v <= hi:
                raise UsageError(f"{flag}: field {f.name}: {v} is outside its range {lo}..{hi}")
        elif bounded_collection(t):
            lo, hi = (c.expr(b)(env) for b in (t.args[-1].lo, t.args[-1].hi))
            held = v.values() if isinstance(v, dict) else v.items if isinstance(v, rt.Bag) else v
            outside = [x for x in held if not lo <= x <= hi]
            if outside:
                raise UsageError(f"{flag}: field {f.name}: {outside[0]} is outside the range {lo}..{hi} of its values")
        if f.name in kept and len(v) != len(first := c.expr(f.decl.init)(env)):
            raise UsageError(f"{flag}: field {f.name}: a list of {len(v)}, where the game's has {len(first)} from the "
                             "start (the rules set it an element at a time, so its length never changes)")
        if f.name in keys_kept and (gone := [k for k in c.expr(f.decl.init)(env) if k not in v]):
            raise UsageError(f"{flag}: field {f.name}: no entry for {rt.format_value(gone[0])}, which the game's map "
                             "holds from the start (the rules set its entries and take none away)")
        values.append(v)
    mover = 0
    if game.num_players == 1 and data.get("to_move") not in (None, *game.player_names):
        raise UsageError(f"{flag}: to_move: a game of one player has no player to name, got "
                         f"{clip(json.dumps(data['to_move']), 60)} (leave it out)")
    if game.num_players > 1:
        who = data.get("to_move")
        if who not in game.player_names:
            raise UsageError(f"{flag}: to_move: expected the player to move, one of {', '.join(game.player_names)}, "
                             + ("but it is missing" if "to_move" not in data else f"got {clip(json.dumps(who), 60)}"))
        mover = game.player_names.index(who)
    return tuple(values) + (mover, _fired(game, data, flag))


def _shapes_kept(ck) -> tuple:
    """(the list fields whose length no statement changes, the map fields no statement takes an
    entry from), by name: each set only an element or an entry at a time (`board[i] = v`,
    `hand[c] -= 1`), never whole, added to or taken from (a map may gain entries by `+=`)."""
    changed, taken = set(), set()
    for kind in (m.Assign, m.Update, m.Replace):
        for st in nodes_in(tuple(ck.decls), kind):
            if id(st.target) in ck.syms:
                name = ck.syms[id(st.target)].name
                changed.add(name)
                if not isinstance(st, m.Update) or st.op != "+=":
                    taken.add(name)
    return ({f.name for f in ck.fields if f.type[0] == "list"} - changed,
            {f.name for f in ck.fields if f.type[0] == "map"} - taken)


def _fired(game, data: dict, flag: str) -> int:
    """The bits of the `once` triggers the state says have fired (`fired`: their lines), which a file
    with such triggers must say: a state can tell it no other way."""
    lines = game.once_lines
    if not lines:
        return 0
    named = ", ".join(str(line) for line in lines.values())
    if "fired" not in data:
        lines_of = f"line{'s' if len(lines) > 1 else ''} {named}"
        raise UsageError(f"{flag}: fired is missing: the file's `when ... once` triggers ({lines_of}) run once a game, "
                         "so a state says which have fired, as the engine writes states: \"fired\": [LINE, ...], "
                         "or [] for none")
    given = data["fired"]
    if not isinstance(given, list) or not all(type(x) is int and x in lines.values() for x in given) \
            or len(set(given)) < len(given):
        raise UsageError(f"{flag}: fired: expected a list of the lines of `when ... once` triggers that have fired, "
                         f"each once (of {named}), got {clip(json.dumps(given), 60)}")
    return sum(1 << i for i, line in lines.items() if line in given)


class _Reader:
    """JSON values read back by their types, as runtime.to_json wrote them."""

    def __init__(self, compiler, checker, flag: str):
        self.c, self.ck, self.flag = compiler, checker, flag
        self._tiles: dict = {}

    def fail(self, where: str, want: str, got):
        raise UsageError(f"{self.flag}: field {where}: expected {want}, got {clip(json.dumps(got), 60)}")

    def value(self, v, t: tuple, where: str):
        head = t[0]
        if t == T.BOOL:
            return v if isinstance(v, bool) else self.fail(where, "true or false", v)
        if t == T.INT:
            return v if isinstance(v, int) and not isinstance(v, bool) else self.fail(where, "a whole number", v)
        if t == T.STR:
            return v if isinstance(v, str) else self.fail(where, "a string", v)
        if head == "enum":
            value = self.c.enum_values.get((t[1], v)) if isinstance(v, str) else None
            names = ", ".join(n for (e, n) in self.c.enum_values if e == t[1])
            return value if value is not None else self.fail(where, f"one of {names}", v)
        if head == "record":
            return self.record(v, t[1], where)
        if head == "tile":
            return self.tile(v, t[1], where)
        if head in T.COLLECTIONS or head == "tuple":
            if not isinstance(v, list):
                self.fail(where, f"a list of {T.show(t[1]) if head != 'tuple' else 'values'}", v)
            if head == "tuple":
                if len(v) != len(t[1]):
                    self.fail(where, f"{len(t[1])} values", v)
                return tuple(self.value(x, u, f"{where}[{i}]") for i, (x, u) in enumerate(zip(v, t[1])))
            items = [self.value(x, t[1], f"{where}[{i}]") for i, x in enumerate(v)]
            if head == "set" and len(set(items)) < len(items):
                self.fail(where, "a set, each value once", v)
            return tuple(items) if head == "list" else frozenset(items) if head == "set" else rt.Bag(items)
        if head == "map":
            if isinstance(v, dict):
                pairs = list(v.items())
            elif isinstance(v, list) and all(isinstance(p, list) and len(p) == 2 for p in v):
                pairs = [tuple(p) for p in v]
            else:
                return self.fail(where, "a map: an object, or a list of [key, value] pairs", v)
            entries = [(self.value(k, t[1], f"{where} key"), self.value(x, t[2], f"{where}[{k}]")) for k, x in pairs]
            if len({k for k, _ in entries}) < len(entries):
                self.fail(where, "a map, each key once", v)
            return rt.FrozenMap(entries)
        raise UsageError(f"{self.flag}: field {where}: a value of type {T.show(t)} cannot be read from JSON")

    def record(self, v, name: str, where: str):
        cls = self.c.record_classes[name]
        if cls is rt.Cell:
            if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) for x in v)):
                self.fail(where, "a cell, [row, column]", v)
            return rt.Cell(tuple(v))
        fields = self.ck.records[name]
        if not isinstance(v, dict) or set(v) != {f for f, _ in fields}:
            self.fail(where, f"a {name}: an object of {', '.join(f for f, _ in fields)}", v)
        return cls(tuple(self.value(v[f], u, f"{where}.{f}") for f, u in fields))

    def tile(self, v, name: str, where: str):
        """A tile as JSON writes it, its name and labels (`curve_highway [_ road road _]`)."""
        if name not in self._tiles:
            found: dict = {}
            for sym in self.ck.globals.values():
                if sym.kind == "const" and sym.type == ("tile", name):
                    for o in self.c.const_value(sym).orientations():
                        found.setdefault(rt.format_value(o), o)
            self._tiles[name] = found
        tile = self._tiles[name].get(v) if isinstance(v, str) else None
        if tile is not None:
            return tile
        named = [t for t in self._tiles[name] if isinstance(v, str) and t.split(" [")[0] == v.split(" [")[0]]
        return self.fail(where, f"one of the orientations {', '.join(map(repr, named))}" if named else
                         f"a {name} as JSON writes it, such as {next(iter(self._tiles[name]), '?')!r}", v)
