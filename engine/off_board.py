"""validate's look for cells off the board: a state field that holds a cell on none of the file's
grids. `cell(r, c)` makes any cell, so a neighbour worked out by hand (`cell(c.row + 1, c.col)`)
without a bound lands off the board silently, and the game then counts moves that hang off it."""
from __future__ import annotations

from typing import Optional

from . import runtime as rt
from . import types as T
from .diagnostics import Diagnostic, counted
from .runtime import format_value


class OffBoard:
    """Looks at each state of validate's playouts for a cell outside every grid constant of the
    file, in the fields that can hold cells; one warning a field, at its first such cell."""

    def __init__(self, game):
        ck = game.checker
        self.grids = [sym.name for sym in ck.globals.values() if sym.kind == "const" and sym.type == T.GRID]
        self.cells = set()
        for name in self.grids:
            self.cells.update(game.compiler.const_value(ck.globals[name]).cells)
        self.fields = [(i, f) for i, f in enumerate(ck.fields) if _holds_cells(ck, f.type, set())]
        # cells off the grids that the initial state holds are placed there on purpose (exits round
        # a board, say): the cells not to warn of
        start = game.initial_state()
        while (cell := next((c for i, _ in self.fields if (c := _off(start[i], self.cells)) is not None),
                            None)) is not None:
            self.cells.add(cell)
        self.found: dict = {}  # field name -> (the cell, the moves before, the field's declaration)

    @classmethod
    def of(cls, game) -> Optional["OffBoard"]:
        """The look for a game with a grid and fields that hold cells, else None."""
        look = cls(game)
        return look if look.grids and look.fields else None

    def look(self, s, moves: int) -> None:
        for i, f in self.fields:
            if f.name not in self.found and (cell := _off(s[i], self.cells)) is not None:
                self.found[f.name] = (cell, moves, f)

    def warnings(self) -> list:
        grids = ", ".join(self.grids)
        return [Diagnostic(
            "off-board", f"state field '{name}' held the cell {format_value(cell)} after "
            f"{counted(moves, 'random move')}, a cell of no grid of the file ({grids})", f.span,
            "cell(r, c) makes any cell, on a board or not: a neighbour worked out by hand needs a bound "
            f"(c.row + 1 < rows), or a `where` with `in cells({self.grids[0]})`; neighbours({self.grids[0]}, c) "
            "gives only those on it", severity="warning")
            for name, (cell, moves, f) in self.found.items()]


def _holds_cells(ck, t, seen: set) -> bool:
    """Whether a value of type t can hold a cell (in a collection, a tuple or a record's field)."""
    if t == T.CELL:
        return True
    if not isinstance(t, tuple) or not t:
        return False
    if t[0] == "record":
        if t[1] in seen:
            return False
        seen.add(t[1])
        return any(_holds_cells(ck, ft, seen) for _, ft in ck.records.get(t[1], ()))
    return any(_holds_cells(ck, a, seen) for a in t[1:] if isinstance(a, tuple))


def _off(v, cells: set):
    """The first cell in v (a value of the rules) that is not one of `cells`, or None."""
    if isinstance(v, rt.Cell):
        return None if v in cells else v
    if isinstance(v, rt.FrozenMap):
        for k, x in v.items():
            if (c := _off(k, cells)) is not None or (c := _off(x, cells)) is not None:
                return c
        return None
    if isinstance(v, rt.Bag):
        v = v.items
    if isinstance(v, (tuple, frozenset)):
        for x in v:
            if (c := _off(x, cells)) is not None:
                return c
    return None
