"""Tiles with labelled sides and connection groups, their symmetries, and boards of square tiles.

A tile has one label (or None) per side, sides numbered clockwise from the top, and groups of
sides joined inside the tile. A board is a map from cells to tiles; cells off the grid may hold
tiles too (fixed border pieces). Side k of a square tile faces the neighbour in direction
STEPS[k]; two tiles are joined across a shared edge when both facing sides carry the same label.
"""
from __future__ import annotations

import functools
import operator

from .runtime import Cell, FrozenMap

STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # up, right, down, left: sides 0..3 of a square tile


class Tile:
    """One orientation of a tile: name, side values, labels per side, connection groups."""

    __slots__ = ("name", "sides", "labels", "codes", "groups", "key", "edges", "_hash", "_orientations",
                 "_rotations", "_text", "_group_at")

    def __init__(self, name: str, sides: tuple, labels: tuple, groups):
        self.name, self.sides, self.labels = name, sides, labels
        self.groups = tuple(sorted(tuple(sorted(g)) for g in groups))
        self.codes = tuple(-1 if x is None else x.index for x in labels)  # labels as ints, -1 for none
        self.key = (name, self.codes, self.groups)
        self.edges = FrozenMap({s: x for s, x in zip(sides, labels) if x is not None})
        self._hash = hash(self.key)
        self._orientations = self._rotations = None  # made when first asked for: a board asks again and again
        self._text = f"{name} [{' '.join('_' if x is None else x.name for x in labels)}]"  # labels of moves show it
        if _turns_to_same_labels(labels, self.groups):  # the groups tell this orientation from another
            self._text += " " + " ".join("{" + " ".join(sides[k].name for k in g) + "}" for g in self.groups)
        self._group_at = tuple(next((g for g in self.groups if k in g), ()) for k in range(len(labels)))

    def __eq__(self, other):
        return self is other or (isinstance(other, Tile) and self.key == other.key)

    def __hash__(self):
        return self._hash

    def __lt__(self, other):
        return self.key < other.key

    def __repr__(self):
        return self._text

    def __reduce__(self):
        return (Tile, (self.name, self.sides, self.labels, self.groups))

    def turned(self, rotate: int, mirror: bool) -> "Tile":
        """This tile mirrored left to right (if asked), then turned clockwise `rotate` sides."""
        n = len(self.labels)

        def where(k):
            return ((-k if mirror else k) + rotate) % n
        labels = [None] * n
        for k, x in enumerate(self.labels):
            labels[where(k)] = x
        return Tile(self.name, self.sides, tuple(labels), [[where(k) for k in g] for g in self.groups])

    def orientations(self) -> tuple:
        """The distinct rotations, then the distinct mirrored rotations not already seen."""
        if self._orientations is None:
            n = len(self.labels)
            seen = {}
            for mirror in (False, True):
                for r in range(n):
                    t = self.turned(r, mirror)
                    seen.setdefault(t.key, t)
            self._orientations = tuple(seen.values())
        return self._orientations

    def rotations(self) -> tuple:
        if self._rotations is None:
            self._rotations = tuple({t.key: t for t in (self.turned(r, False) for r in range(len(self.labels)))}
                                    .values())
        return self._rotations

    def group_of(self, side: int):
        """The connection group holding `side`, () for a side in none."""
        return self._group_at[side]


@functools.lru_cache(maxsize=4096)
def _turns_to_same_labels(labels: tuple, groups: tuple) -> bool:
    """Whether a turn or mirror image of a tile with these labels and groups has the same labels
    but other groups (a tile of four roads joined in two pairs, turned a quarter): its name and
    labels then do not tell which orientation it is."""
    n = len(labels)
    for mirror in (False, True):
        for r in range(n):
            def where(k):
                return ((-k if mirror else k) + r) % n
            turned = [None] * n
            for k, x in enumerate(labels):
                turned[where(k)] = x
            if tuple(turned) == labels and tuple(sorted(tuple(sorted(where(k) for k in g)) for g in groups)) != groups:
                return True
    return False


_AROUND: dict = {}  # cell -> its neighbours through sides 0..3, made once per cell


def _around(cell) -> tuple:
    """The neighbour cells of `cell` through sides 0..3 (a board has many tiles, each read often)."""
    found = _AROUND.get(cell)
    if found is None:
        r, c = cell
        found = _AROUND[cell] = tuple(Cell((r + dr, c + dc)) for dr, dc in STEPS)
    return found


def _facing(board, cell, k):
    """(neighbour cell, the neighbour's tile or None, the neighbour's side facing `cell`)."""
    nc = _around(cell)[k]
    return nc, board.get(nc), (k + 2) % 4


def clashes(board, cell, tile) -> int:
    """Sides of `tile` at `cell` that face a labelled side with a different label."""
    n = 0
    for k, x in enumerate(tile.codes):
        if x >= 0:
            _, t, o = _facing(board, cell, k)
            if t is not None and t.codes[o] >= 0 and t.codes[o] != x:
                n += 1
    return n


def matches(board, cell, tile) -> int:
    """Sides of `tile` at `cell` that face a side with the same label."""
    n = 0
    for k, x in enumerate(tile.codes):
        if x >= 0:
            _, t, o = _facing(board, cell, k)
            if t is not None and t.codes[o] == x:
                n += 1
    return n


def _last_call(fn):
    """fn that keeps its last result, for arguments that are the very same objects (by identity):
    a turn or a score reads one board many times, and boards do not change."""
    last: list = [(), None]

    @functools.wraps(fn)
    def cached(*args):
        if len(last[0]) == len(args) and all(map(operator.is_, last[0], args)):
            return last[1]
        found = fn(*args)
        last[:] = args, found
        return found
    return cached


@_last_call
def _frontier(board, grid) -> dict:
    """The empty cells of the grid that a labelled side faces: cell -> the labels facing its
    sides 0..3 (-1 where none does)."""
    found: dict = {}
    for cell, t in board.items():
        around = _around(cell)
        for o, x in enumerate(t.codes):
            if x >= 0:
                c = around[o]
                if c not in board and grid.contains(c):
                    facing = found.get(c)
                    if facing is None:
                        facing = found[c] = [-1, -1, -1, -1]
                    facing[(o + 2) % 4] = x
    return found


def places(board, grid, tile) -> tuple:
    """The free cells of the grid where `tile` fits: no side faces a labelled side with another
    label, and at least one side faces the same label. Row by row."""
    out = []
    for c, facing in _frontier(board, grid).items():
        joined = False
        for x, y in zip(tile.codes, facing):
            if x >= 0 and y >= 0:
                if x != y:
                    break
                joined = True
        else:
            if joined:
                out.append(c)
    return tuple(sorted(out))


@_last_call
def _ends(board, grid) -> tuple:
    """(open ends, loose ends) of the board: labelled sides of tiles on the grid that face a cell
    of the grid without the same label, and those of them that face an empty cell."""
    inside = grid.contains
    n_open = n_loose = 0
    for cell, tile in board.items():
        if inside(cell):
            around = _around(cell)
            for k, x in enumerate(tile.codes):
                if x >= 0:
                    nc = around[k]
                    if inside(nc):
                        t = board.get(nc)
                        if t is None:
                            n_open += 1
                            n_loose += 1
                        elif t.codes[(k + 2) % 4] != x:
                            n_open += 1
    return n_open, n_loose


def open_ends(board, grid) -> int:
    """Labelled sides of tiles on the grid that face a cell of the grid without the same label
    (an empty cell, a blank side or another label); sides facing off the grid are not counted."""
    return _ends(board, grid)[0]


def loose_ends(board, grid) -> int:
    """Labelled sides of tiles on the grid that face an empty cell of the grid: the open ends
    that a tile drawn later may still join or close."""
    return _ends(board, grid)[1]


@_last_call
def _pieces(board) -> list:
    """Pieces (cell, group) of the board's tiles and the joins between them across edges, as
    (piece, piece, label) with the label both facing sides carry."""
    joins = []
    for cell, tile in board.items():
        for k in (1, 2):  # right and down: every shared edge once
            x = tile.codes[k]
            if x < 0:
                continue
            nc, t, o = _facing(board, cell, k)
            if t is not None and t.codes[o] == x:
                joins.append(((cell, tile.group_of(k)), (nc, t.group_of(o)), x))
    return joins


@_last_call
def networks(board) -> tuple:
    """The connected networks of the board, each as the set of cells it passes through; a tile
    whose groups are apart (an overpass) may be in two networks. Ordered by their first cell."""
    parent = {}

    def find(p):
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p
    for cell, tile in board.items():
        for g in tile.groups:
            parent[(cell, g)] = (cell, g)
    for a, b, _ in _pieces(board):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
    nets: dict = {}
    for p in parent:
        nets.setdefault(find(p), set()).add(p[0])
    return tuple(sorted((frozenset(s) for s in nets.values()), key=lambda s: min(s)))


def longest_trail(board, grid, label) -> int:
    """The most spaces on one trail along joins of `label` between tiles on the grid: a trail
    uses each join at most once and counts a space every time it passes it (joins + 1); 1 if some
    tile has the label but no join does, 0 if none has it."""
    adj: dict = {}
    edges = [(a, b) for a, b, x in _pieces(board) if x == label.index and grid.contains(a[0]) and grid.contains(b[0])]
    for i, (a, b) in enumerate(edges):
        adj.setdefault(a, []).append((i, b))
        adj.setdefault(b, []).append((i, a))
    if not edges:
        return int(any(label in t.labels for c, t in board.items() if grid.contains(c)))
    return max(_walk(adj, start, 0) for start in _trail_starts(adj)) + 1


def _walk(adj: dict, node, used: int) -> int:
    """The most joins a trail from node can add to the joins in the bit set `used`."""
    best = 0
    for i, nxt in adj[node]:
        if not used >> i & 1:
            n = 1 + _walk(adj, nxt, used | 1 << i)
            if n > best:
                best = n
    return best


def _trail_starts(adj: dict) -> list:
    """Where a longest trail of the graph may start: its pieces of odd degree, and one piece of
    each part in which every degree is even. A trail that ends at a piece of even degree leaves
    a join there unused and could go on along it; a closed trail that is longest uses every join
    of its part (any join left would lead off it), so every degree there is even."""
    starts, seen = [], set()
    for first in adj:
        if first in seen:
            continue
        part, todo = [], [first]
        seen.add(first)
        while todo:
            p = todo.pop()
            part.append(p)
            for _, q in adj[p]:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        odd = [p for p in part if len(adj[p]) % 2]
        starts += odd or [first]
    return starts
