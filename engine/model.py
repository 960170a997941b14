"""The rule-file model: frozen attrs classes, each node with its source span."""
from __future__ import annotations

from typing import Optional, Union

import attrs


@attrs.frozen
class Span:
    """Where a node is: file, 1-based line and column, and where it ends."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NOWHERE = Span("<builtin>", 0, 0, 0, 0)

def _node_repr(self) -> str:
    fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in attrs.fields(type(self)))
    return f"{type(self).__name__}({fields})"


def node(cls):
    """A frozen attrs class for a model node. Nodes compare by identity: checker and compiler
    annotate them by id. They share one repr, which attrs would compile for each class at
    import (a tenth of a second of every command)."""
    cls = attrs.frozen(eq=False, repr=False)(cls)
    cls.__repr__ = _node_repr
    return cls


@node
class Ident:
    """A name written in the file, with where it was written."""

    name: str
    span: Span


# ---- expressions ----
@node
class IntLit:
    value: int
    span: Span


@node
class StrLit:
    value: str
    span: Span


@node
class Name:
    id: str
    span: Span


@node
class Cond:
    test: "Expr"
    then: "Expr"
    orelse: "Expr"
    span: Span


@node
class BinOp:
    """Arithmetic, comparison, logic and membership (op is the grammar's alias)."""

    op: str
    left: "Expr"
    right: "Expr"
    span: Span


@node
class Not:
    operand: "Expr"
    span: Span


@node
class Neg:
    operand: "Expr"
    span: Span


@node
class RangeLit:
    lo: "Expr"
    hi: "Expr"
    span: Span


@node
class Attr:
    obj: "Expr"
    attr: Ident
    span: Span


@node
class Index:
    obj: "Expr"
    key: "Expr"
    span: Span


@node
class Arg:
    name: Optional[Ident]
    value: "Expr"
    span: Span


@node
class Call:
    func: Ident
    args: tuple
    span: Span


@node
class Comp:
    """`expr for targets in iter where cond`, the body of aggregates."""

    expr: "Expr"
    targets: tuple
    iter: "Expr"
    cond: Optional["Expr"]
    span: Span


@node
class CallComp:
    func: Ident
    comp: Comp
    span: Span


@node
class First:
    comp: Comp
    default: "Expr"
    span: Span


@node
class TupleLit:
    items: tuple
    span: Span


@node
class ListLit:
    items: tuple
    span: Span


@node
class SetLit:
    items: tuple
    span: Span


@node
class Entry:
    key: "Expr"
    value: "Expr"
    span: Span


@node
class MapLit:
    entries: tuple
    span: Span


@node
class EmptyLit:
    """`{}`: an empty map, set or bag, as the context requires."""

    span: Span


@node
class ListComp:
    comp: Comp
    span: Span


@node
class SetComp:
    comp: Comp
    span: Span


@node
class MapComp:
    key: "Expr"
    value: "Expr"
    targets: tuple
    iter: "Expr"
    cond: Optional["Expr"]
    span: Span


Expr = Union[IntLit, StrLit, Name, Cond, BinOp, Not, Neg, RangeLit, Attr, Index,
             Call, CallComp, First, TupleLit, ListLit, SetLit, MapLit, EmptyLit,
             ListComp, SetComp, MapComp]


@node
class Template:
    """A label such as "trade {a} and {b}": text parts and expressions."""

    parts: tuple
    span: Span


# ---- types ----
@node
class NamedType:
    name: Ident
    span: Span


@node
class GenericType:
    name: Ident
    args: tuple
    span: Span


@node
class RangeType:
    lo: Expr
    hi: Expr
    span: Span


# ---- statements ----
@node
class Block:
    stmts: tuple
    span: Span


@node
class Let:
    targets: tuple
    value: Expr
    span: Span


@node
class Var:
    """`var n = e`: a local name that `=`, `+=` and `-=` may change later in its block."""
    target: Ident
    type: Optional[object]  # a declared type, as a state field's; None: the value's
    value: Expr
    span: Span
    bound: Optional[str] = None  # `clamp` or `reject` after a range type, as a state field's


@node
class Choose:
    targets: tuple
    domain: Expr
    cond: Optional[Expr]
    span: Span


@node
class Draw:
    """`draw x in c`: chance picks an element of c, each copy equally likely."""
    targets: tuple
    domain: Expr
    span: Span


@node
class Require:
    cond: Expr
    span: Span


@node
class Assign:
    target: Ident
    value: Expr
    span: Span


@node
class Update:
    target: Ident
    op: str
    value: Expr
    span: Span


@node
class IndexAssign:
    target: Ident
    key: Expr
    value: Expr
    span: Span


@node
class IndexUpdate:
    target: Ident
    key: Expr
    op: str
    value: Expr
    span: Span


@node
class IfStmt:
    test: Expr
    body: Block
    orelse: Optional[object]
    span: Span


@node
class ForStmt:
    targets: tuple
    iter: Expr
    cond: Optional[Expr]  # `where COND`: the body runs for the elements where it holds
    body: Block
    span: Span


@node
class CallStmt:
    func: Ident
    args: tuple
    span: Span


@node
class OptionalStmt:
    body: Block
    span: Span


@node
class EitherStmt:
    branches: tuple
    span: Span


@node
class TryStmt:
    """`try { A } else { B }`: the ways through A, or where A has none, those through B."""
    body: Block
    orelse: object  # a Block, or the TryStmt of `else try`
    span: Span


@node
class PassTo:
    player: Expr
    span: Span


@node
class MergeStmt:
    """`merge equal paths`: the ways through the turn that reach this point with equal states
    (and equal local names) go on as one, the first."""
    span: Span


@node
class Replace:
    old: Expr
    target: Ident
    new: Expr
    span: Span


# ---- declarations ----
@node
class Game:
    title: str
    note: Optional[str]
    span: Span


@node
class Use:
    path: str
    note: Optional[str]
    span: Span


@node
class Param:
    name: Ident
    domain: Optional[Expr]
    default: Expr
    note: Optional[str]
    span: Span


@node
class EnumDecl:
    name: Ident
    values: tuple
    note: Optional[str]
    span: Span


@node
class Field:
    name: Ident
    type: object
    span: Span


@node
class RecordDecl:
    name: Ident
    fields: tuple
    note: Optional[str]
    span: Span


@node
class TableDecl:
    name: Ident
    key_type: object
    value_type: object
    entries: tuple
    note: Optional[str]
    span: Span


@node
class ConstDecl:
    name: Ident
    type: Optional[object]
    value: Expr
    note: Optional[str]
    span: Span


@node
class DefDecl:
    name: Ident
    params: tuple
    body: Expr
    note: Optional[str]
    span: Span


@node
class PlayersDecl:
    names: tuple
    note: Optional[str]
    span: Span
    first: Optional[Expr] = None  # `players A, B, C, D first n`: the first n of them play


@node
class StateField:
    name: Ident
    type: object
    init: Expr
    bound: Optional[str]
    note: Optional[str]
    span: Span
    scored: bool = False  # a running total that only the score (and the view, labels...) reads


@node
class StateDecl:
    fields: tuple
    note: Optional[str]
    span: Span


@node
class ActionDecl:
    name: Ident
    params: tuple
    label: Optional[Template]
    body: Block
    note: Optional[str]
    span: Span


@node
class TurnDecl:
    body: Block
    note: Optional[str]
    span: Span


@node
class TriggerDecl:
    cond: Expr
    once: bool
    body: Block
    note: Optional[str]
    span: Span


@node
class TerminalDecl:
    cond: Expr
    note: Optional[str]
    span: Span


@node
class ScoreDecl:
    player: Optional[Ident]
    value: Expr
    note: Optional[str]
    span: Span


@node
class HeuristicDecl:
    name: Ident
    player: Optional[Ident]
    value: Expr
    note: Optional[str]
    span: Span


@node
class ChanceDecl:
    """`chance when COND { ... }`: in a state where COND holds, chance moves by running the block,
    whose `draw`s fork with their weights."""
    cond: Expr
    body: "Block"
    note: Optional[str]
    span: Span


@node
class TileGroup:
    sides: tuple  # of Ident
    span: Span


@node
class TileEntry:
    """`name = (label, ...) groups {side, ...}, ...`: one tile, its labels side by side clockwise
    from the first side (`_` for none), and the sides joined inside it (all labelled sides when no
    groups are given)."""
    name: Ident
    labels: tuple  # of Ident
    groups: Optional[tuple]  # of TileGroup
    span: Span


@node
class TilesDecl:
    """`tiles Name: Side -> Label { entry ... }`: the tile type Name, whose tiles have one side per
    value of the enum Side, each labelled with a value of the enum Label or nothing."""
    name: Ident
    sides: Ident
    labels: Ident
    tiles: tuple  # of TileEntry
    note: Optional[str]
    span: Span


@node
class ViewDecl:
    """`view EXPR`: the text that shows a state."""
    expr: Expr
    note: Optional[str]
    span: Span


@node
class ForbidDecl:
    """`forbid EXPR "message"`: parameter settings the game refuses (EXPR over parameters and
    constants), with the message that says why."""
    cond: Expr
    message: str
    note: Optional[str]
    span: Span


@node
class DeadEndsDecl:
    """`dead ends are ends`: a state where no move is legal ends the game on purpose (a puzzle
    stuck), so nothing warns of it."""
    note: Optional[str]
    span: Span


@node
class MergeDecl:
    """`merge equal moves`: moves that lead to equal states are one move (the first label kept)."""
    note: Optional[str]
    span: Span


@node
class AgentOption:
    name: Ident
    value: Union[int, float, Ident]
    span: Span


@node
class AgentDecl:
    """`agent NAME { option = value, ... }`: what an algorithm uses on this game unless the command
    line says otherwise."""
    name: Ident
    options: tuple
    note: Optional[str]
    span: Span


@node
class InvariantDecl:
    cond: Expr
    note: Optional[str]
    span: Span


@attrs.frozen
class RuleFile:
    """One parsed file: its path, its text (for diagnostics) and its declarations."""

    path: str
    text: str
    decls: tuple
