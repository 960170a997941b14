"""Runtime values: enum values, records, bags, frozen maps, grids; text and JSON views."""
from __future__ import annotations

import bisect
from collections import Counter
from itertools import combinations, count, product
from math import comb, prod
from typing import Optional


class EnumValue:
    """One value of an enum (or a player), ordered by declaration. Values are interned, one
    object per (enum, name, index) in a process, so equality is identity (fast, and in C)."""

    __slots__ = ("enum", "name", "index")
    _interned: dict = {}

    def __new__(cls, enum: str, name: str, index: int):
        key = (enum, name, index)
        v = cls._interned.get(key)
        if v is None:
            v = cls._interned[key] = object.__new__(cls)
            v.enum, v.name, v.index = enum, name, index
        return v

    def __lt__(self, other):
        return self.index < other.index

    def __le__(self, other):
        return self.index <= other.index

    def __gt__(self, other):
        return self.index > other.index

    def __ge__(self, other):
        return self.index >= other.index

    def __repr__(self):
        return self.name

    def __reduce__(self):
        return (EnumValue, (self.enum, self.name, self.index))

    def __hash__(self):
        return self.index  # not hash(name): string hashes change from one process to the next


class Record(tuple):
    """Base of record values: a tuple whose class knows its field names."""

    __slots__ = ()
    _fields: tuple = ()
    _index: dict = {}  # field name -> position
    _name = "record"

    def __repr__(self):
        return f"{self._name}({', '.join(format_value(v) for v in self)})"

    def __reduce__(self):
        return _record, (self._name, self._fields, tuple(self))


_RECORD_CLASSES: dict = {}  # (name, fields) -> class


def record_class(name: str, fields: tuple) -> type:
    """The tuple subclass for records of this name and these fields (built with type(), no code
    text), one per name and fields, so records unpickled or made by another load share it."""
    key = (name, tuple(fields))
    cls = _RECORD_CLASSES.get(key)
    if cls is None:
        cls = _RECORD_CLASSES[key] = type(name, (Record,), {
            "__slots__": (), "_fields": key[1], "_name": name, "_index": {f: i for i, f in enumerate(fields)}})
    return cls


def _record(name: str, fields: tuple, values: tuple) -> Record:
    """A record rebuilt from its parts (what pickle calls)."""
    return record_class(name, fields)(values)


def field_of(record, name: str):
    """A record's field by name, for a record whose type the checker does not know (a def
    parameter); KeyError or AttributeError when it has none."""
    return record[record._index[name]]


Cell = record_class("cell", ("row", "col"))


class Bag:
    """An immutable multiset kept as a sorted tuple; hashable, equal by contents."""

    __slots__ = ("items", "_hash")

    def __init__(self, items=()):
        self.items = tuple(sorted(items))
        self._hash = None

    @classmethod
    def _sorted(cls, items: tuple) -> "Bag":
        b = object.__new__(cls)
        b.items = items
        b._hash = None
        return b

    def __hash__(self):
        if self._hash is None:
            self._hash = hash(self.items)
        return self._hash

    def __eq__(self, other):
        return isinstance(other, Bag) and self.items == other.items

    def __lt__(self, other):
        return self.items < other.items

    def __iter__(self):
        return iter(self.items)

    def __len__(self):
        return len(self.items)

    def __contains__(self, x):
        i = bisect.bisect_left(self.items, x)
        return i < len(self.items) and self.items[i] == x

    def count(self, x) -> int:
        return bisect.bisect_right(self.items, x) - bisect.bisect_left(self.items, x)

    def add(self, x) -> "Bag":
        items = self.items
        i = bisect.bisect_right(items, x)
        return Bag._sorted(items[:i] + (x,) + items[i:])

    def remove(self, x) -> "Bag | None":
        """The bag without one copy of x, or None if x is not in it."""
        items = self.items
        i = bisect.bisect_left(items, x)
        if i == len(items) or items[i] != x:
            return None
        return Bag._sorted(items[:i] + items[i + 1:])

    def union(self, other: "Bag") -> "Bag":
        return Bag(self.items + other.items)

    def difference(self, other: "Bag") -> "Bag":
        """Multiset difference: each copy in other removes at most one copy here."""
        out = list(self.items)
        for x in other.items:
            i = bisect.bisect_left(out, x)
            if i < len(out) and out[i] == x:
                del out[i]
        return Bag._sorted(tuple(out))

    def __repr__(self):
        return "bag[" + ", ".join(format_value(v) for v in self.items) + "]"


_serials = count()


class FrozenMap(dict):
    """An immutable, hashable dict (never mutated after construction).

    A map made by `set` remembers the serial number of the map it was made from and the key
    set, not the map itself (which it would keep alive): `set_from` tells whether it is that
    map with one entry set, so a move can keep one entry instead of a copy of a large map."""

    __slots__ = ("_hash", "_serial", "_base_serial", "_key_set")

    def __hash__(self):
        try:
            return self._hash
        except AttributeError:
            self._hash = hash(frozenset(self.items()))
            return self._hash

    def set(self, k, v) -> "FrozenMap":
        new = FrozenMap(self)
        dict.__setitem__(new, k, v)
        new._base_serial, new._key_set = self.serial(), k
        return new

    def without(self, k) -> "FrozenMap":
        """The map without the entry of key k (itself, if it has none)."""
        if k not in self:
            return self
        new = FrozenMap(self)
        dict.__delitem__(new, k)
        return new

    def serial(self) -> int:
        """A number no other map of this process has (given when first asked for)."""
        try:
            return self._serial
        except AttributeError:
            self._serial = next(_serials)
            return self._serial

    def set_from(self, base: "FrozenMap") -> bool:
        """Whether this map is base.set(k, v) for some k (`key_set`) and v."""
        made_from = getattr(self, "_base_serial", None)
        return made_from is not None and made_from == getattr(base, "_serial", None)

    def key_set(self):
        """The key `set` set in making this map."""
        return self._key_set

    def __reduce__(self):
        # serial numbers and hashes belong to one process: another rebuilds them
        return FrozenMap, (dict(self),)

    def __setitem__(self, k, v):
        raise TypeError("FrozenMap is immutable")

    def __repr__(self):
        return "{" + ", ".join(f"{format_value(k)}: {format_value(v)}" for k, v in sorted(self.items(), key=_sort_key)) + "}"


def components(grid, cells) -> tuple:
    """The groups of `cells` on `grid` that neighbour one another, each a set, in the order of
    their first cell; cells off the grid are left out."""
    left = {c for c in cells if grid.contains(c)}
    out = []
    for start in sorted(left):
        if start not in left:
            continue
        left.discard(start)
        group, todo = [start], [start]
        while todo:
            for n in grid.neighbours(todo.pop()):
                if n in left:
                    left.discard(n)
                    group.append(n)
                    todo.append(n)
        out.append(frozenset(group))
    return tuple(out)


class Grid:
    """A square grid of cells (row, col) with 4-neighbour adjacency."""

    __slots__ = ("rows", "cols", "cells")

    def __init__(self, rows: int, cols: int):
        self.rows, self.cols = rows, cols
        self.cells = tuple(Cell((r, c)) for r in range(rows) for c in range(cols))

    def neighbours(self, cell) -> tuple:
        r, c = cell
        out = []
        for dr, dc in ((-1, 0), (0, 1), (1, 0), (0, -1)):
            if 0 <= r + dr < self.rows and 0 <= c + dc < self.cols:
                out.append(Cell((r + dr, c + dc)))
        return tuple(out)

    def contains(self, cell) -> bool:
        return 0 <= cell[0] < self.rows and 0 <= cell[1] < self.cols

    def lines(self, k: int) -> tuple:
        """Every straight run of k cells: rows, columns and both diagonals."""
        if k <= 1:
            return tuple((c,) for c in self.cells) if k == 1 else ()
        out = []
        for r in range(self.rows):
            for c in range(self.cols):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                    if 0 <= end_r < self.rows and 0 <= end_c < self.cols:
                        out.append(tuple(Cell((r + dr * i, c + dc * i)) for i in range(k)))
        return tuple(out)

    def __repr__(self):
        return f"grid({self.rows} x {self.cols})"

    def __eq__(self, other):
        return isinstance(other, Grid) and (self.rows, self.cols) == (other.rows, other.cols)

    def __hash__(self):
        return hash((self.rows, self.cols))


class HexGrid:
    """Pointy-topped hexes at coordinates (row, col), given cell by cell.

    In the "even-r" layout the even rows are shifted half a hex to the right, in
    "odd-r" the odd rows (offset coordinates); in "axial" each row is shifted half a
    hex right of the one above, so that a square of cells is a rhombus (Red Blob
    Games' names). Neighbours are the six hexes around a cell that are in the grid,
    clockwise from the north-east.
    """

    __slots__ = ("layout", "cells", "_set", "_near")

    LAYOUTS = ("even-r", "odd-r", "axial")

    def __init__(self, cells, layout: str):
        self.layout = layout
        self.cells = tuple(sorted(set(Cell(tuple(c)) for c in cells)))
        self._set = frozenset(self.cells)
        self._near = {c: self._ring(c) for c in self.cells}

    def _axial(self, cell) -> tuple:
        r, c = cell
        if self.layout == "axial":
            return c, r
        return (c - (r + (r & 1)) // 2 if self.layout == "even-r" else c - (r - (r & 1)) // 2, r)

    def _cell(self, qr: tuple):
        q, r = qr
        if self.layout == "axial":
            return Cell((r, q))
        return Cell((r, q + (r + (r & 1)) // 2 if self.layout == "even-r" else q + (r - (r & 1)) // 2))

    # axial steps clockwise from the north-east: NE, E, SE, SW, W, NW
    STEPS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))

    def _ring(self, cell) -> tuple:
        """The cells of the grid around cell (which need not be in the grid), clockwise from the NE."""
        q, r = self._axial(cell)
        return tuple(n for n in (self._cell((q + dq, r + dr)) for dq, dr in self.STEPS) if n in self._set)

    def neighbours(self, cell) -> tuple:
        near = self._near.get(cell)
        return near if near is not None else self._ring(cell)

    def contains(self, cell) -> bool:
        return cell in self._set

    def lines(self, k: int) -> tuple:
        """Every straight run of k hexes of the grid, along each of the three axes."""
        if k <= 1:
            return tuple((c,) for c in self.cells) if k == 1 else ()
        out = []
        for start in self.cells:
            q, r = self._axial(start)
            for dq, dr in self.STEPS[1:4]:  # E, SE, SW: each line once
                run = tuple(self._cell((q + dq * i, r + dr * i)) for i in range(k))
                if all(c in self._set for c in run):
                    out.append(run)
        return tuple(out)

    def __repr__(self):
        return f"hex_grid({len(self.cells)} cells, {self.layout})"

    def __eq__(self, other):
        return isinstance(other, HexGrid) and (self.layout, self.cells) == (other.layout, other.cells)

    def __hash__(self):
        return hash((self.layout, self.cells))


class Graph:
    """Nodes joined by undirected edges, each edge a pair (a, b) or a set {a, b}. Its nodes are
    those the edges name and `nodes` (which may have no edge), in order, and so are the
    neighbours of each."""

    __slots__ = ("nodes", "_near", "edges")

    def __init__(self, edges, nodes=()):
        near: dict = {n: set() for n in nodes}
        for e in edges:
            a, b = sorted(e) if isinstance(e, frozenset) else e  # a set has no order of its own
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
        for a, ns in near.items():
            ns.discard(a)  # an edge from a node to itself joins it to nothing new
        self.nodes = tuple(sorted(near))
        self._near = {a: tuple(sorted(ns)) for a, ns in near.items()}
        self.edges = frozenset(frozenset((a, b)) for a, ns in near.items() for b in ns)

    def neighbours(self, node) -> tuple:
        return self._near.get(node, ())

    def contains(self, node) -> bool:
        return node in self._near

    def distance(self, a, b) -> Optional[int]:
        """The fewest edges on a path from a to b (0 from a node to itself); None without one."""
        if a not in self._near or b not in self._near:
            return None
        seen, layer, d = {a}, [a], 0
        while layer:
            if b in layer:
                return d
            layer = [n for x in layer for n in self._near[x] if n not in seen and not seen.add(n)]
            d += 1
        return None

    def __repr__(self):
        return f"graph({len(self.nodes)} nodes, {len(self.edges)} edges)"

    def __eq__(self, other):
        return isinstance(other, Graph) and self.edges == other.edges and self.nodes == other.nodes

    def __hash__(self):
        return hash(self.edges)


RANGE_MOST = 10_000_000
"""The most numbers a range written in the rules may hold (a list of them is made)."""


SELECTIONS_MOST = 1_000_000
"""The most selections pairs(), up_to(), combinations() and sub_bags() may make (each is a list made)."""

SELECTED_MOST = 50_000_000
"""The most elements those selections may hold in all, counting each as large as the largest."""


def selections(name: str, items, k: int = 0) -> int:
    """How many selections the built-in `name` makes of the items (with k for up_to and combinations),
    counted without making them."""
    if name == "sub_bags":
        return prod(n + 1 for n in Counter(items).values())
    n = len(items) if name != "up_to" else len(set(items))
    if name == "pairs":
        return comb(n, 2)
    if name == "combinations":
        return comb(n, k) if k >= 0 else 0
    return sum(comb(n, i) for i in range(min(k, n) + 1))


def pairs(items) -> tuple:
    """All pairs by position (i < j): equal elements still give separate pairs."""
    return tuple(combinations(tuple(items), 2))


def up_to(k: int, items) -> tuple:
    """Every selection of at most k distinct elements, smallest first."""
    seq = tuple(dict.fromkeys(items))
    return tuple(c for n in range(k + 1) for c in combinations(seq, n))


def combos(k: int, items) -> tuple:
    """Every selection of k elements by position, in the order of the items (equal elements
    still give separate selections, as in `pairs`)."""
    return tuple(combinations(tuple(items), k)) if k >= 0 else ()


def sub_bags(items) -> tuple:
    """Every sub-multiset of the items (as many copies of each as it holds, or fewer), as bags:
    the fewest items first, then in the order of their sorted items; the empty bag included."""
    counts = Counter(items)
    keys = sorted(counts)
    out = [Bag._sorted(tuple(x for x, n in zip(keys, ns) for _ in range(n)))
           for ns in product(*(range(counts[x] + 1) for x in keys))]
    out.sort(key=lambda b: (len(b.items), b.items))
    return tuple(out)


def _sort_key(v):
    return (str(type(v)), v) if not isinstance(v, tuple) else ("tuple", v)


def _ordered(coll) -> list:
    """Sorted if the items can be ordered, else by their text; sets (which `<` orders only as
    subsets) by their own items in order, so {1} comes before {1, 2} and {1, 2} before {2}."""
    try:
        if any(isinstance(x, frozenset) for x in coll):
            return sorted(coll, key=_ordered)
        return sorted(coll)
    except TypeError:
        return sorted(coll, key=repr)


def format_value(v) -> str:
    """A value as it appears in labels and messages."""
    if type(v) is int:
        return str(v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, Record):
        if type(v) is Cell:
            return f"({v[0]}, {v[1]})"
        return repr(v)
    if isinstance(v, frozenset):
        return "{" + ", ".join(format_value(x) for x in _ordered(v)) + "}"
    if isinstance(v, tuple):
        return "[" + ", ".join(format_value(x) for x in v) + "]"
    return repr(v) if not isinstance(v, str) else v


def to_json(v, t: Optional[tuple] = None, records: Optional[dict] = None):
    """A value as JSON: records as objects, bags and sets as sorted lists, maps keyed by names
    (strings, enum values, players) as objects and other maps as lists of [key, value] pairs.
    With its type `t` (and `records`, each record type's (field, type) pairs) a map is written by
    its key type, so an empty map has the shape it has once it holds entries; without, by its keys."""
    if isinstance(v, bool) or v is None or isinstance(v, (int, float, str)):
        return v
    if isinstance(v, EnumValue):
        return v.name
    head = t[0] if t else None
    if isinstance(v, Record):
        if type(v) is Cell:
            return [v[0], v[1]]
        types = dict(records.get(t[1], ())) if head == "record" and records else {}
        return {f: to_json(x, types.get(f), records) for f, x in zip(v._fields, v)}
    inner = t[1] if head in ("list", "set", "bag") else None
    if isinstance(v, Bag):
        return [to_json(x, inner, records) for x in v.items]
    if isinstance(v, frozenset):
        return [to_json(x, inner, records) for x in _ordered(v)]
    if isinstance(v, tuple):
        parts = t[1] if head == "tuple" else [inner] * len(v)
        return [to_json(x, p, records) for x, p in zip(v, parts)]
    if isinstance(v, FrozenMap):
        items = [(k, v[k]) for k in _ordered(v)]
        key, value = (t[1], t[2]) if head == "map" else (None, None)
        if key is not None and key[0] != "any":
            by_name = key[0] in ("str", "enum")
        else:
            by_name = all(isinstance(k, (str, EnumValue)) for k, _ in items)
        if by_name:
            return {format_value(k): to_json(x, value, records) for k, x in items}
        return [[to_json(k, key, records), to_json(x, value, records)] for k, x in items]
    if isinstance(v, Graph):  # its edges, each once, in order
        return [[to_json(a), to_json(b)] for a in v.nodes for b in v.neighbours(a) if a < b]
    return format_value(v)


def tail(k: int, xs: tuple) -> tuple:
    """The last k elements of the list xs: all of it when k is past its length, none for k <= 0."""
    return xs[max(0, len(xs) - k):] if k > 0 else xs[:0]


def plain_number(v: float, places: int = 4):
    """A float as printed in output: an int when whole, else rounded to `places` places."""
    v = round(v, places)
    return int(v) if float(v).is_integer() else v


def number_text(v: float, places: int = 4) -> str:
    """A number as a report's text shows it: as plain_number, but with all `places` places written
    where rounding dropped digits, so 0.539975 is 0.5400 (not 0.54, as if exact to two places) and
    2.99999 is 3.0000, while 0.9 and 3 are themselves."""
    shown = plain_number(v, places)
    return str(shown) if abs(v - shown) <= 1e-9 * max(1.0, abs(v)) else f"{v:.{places}f}"
