"""Static types of the language, written as small tuples: ("list", INT) is list<int>."""
from __future__ import annotations

INT = ("int",)
BOOL = ("bool",)
STR = ("str",)
ANY = ("any",)
GRID = ("grid",)
CELL = ("record", "cell")
PLAYER = ("enum", "player")
COLLECTIONS = ("list", "set", "bag")


def list_of(t):
    return ("list", t)


def show(t) -> str:
    """A type as the user writes it."""
    head = t[0]
    if head in ("enum", "record", "tile"):
        return t[1]
    if head in ("list", "set", "bag", "graph"):
        return f"{head}<{show(t[1])}>"
    if head == "map":
        return f"map<{show(t[1])}, {show(t[2])}>"
    if head == "tuple":
        return "(" + ", ".join(show(x) for x in t[1]) + ")"
    return head


def fits(actual, expected) -> bool:
    """Whether a value of type `actual` may be used where `expected` is wanted."""
    if actual == ANY or expected == ANY or actual == expected:
        return True
    if actual[0] != expected[0] or len(actual) != len(expected):
        return False
    if actual[0] == "tuple":
        return len(actual[1]) == len(expected[1]) and all(fits(a, e) for a, e in zip(actual[1], expected[1]))
    return all(fits(a, e) for a, e in zip(actual[1:], expected[1:])) if actual[0] not in ("enum", "record", "tile") else False


def join(a, b):
    """The type of a value that is either a or b (ANY where unknown)."""
    if a == ANY:
        return b
    if b == ANY or a == b:
        return a
    if a[0] == b[0] and a[0] in ("list", "set", "bag"):
        el = join(a[1], b[1])
        return None if el is None else (a[0], el)  # list<int> and list<bool> have no common type
    if a[0] == b[0] == "map":
        k, v = join(a[1], b[1]), join(a[2], b[2])
        return None if k is None or v is None else ("map", k, v)
    return a if fits(b, a) else None


def element(t):
    """The element type of an iterable type, or None if it is not iterable."""
    if t == ANY:
        return ANY
    if t[0] in COLLECTIONS:
        return t[1]
    if t[0] == "map":
        return t[1]
    return None


def is_ordered(t) -> bool:
    """Whether values of this type can be compared with < and sorted."""
    return t == ANY or t[0] in ("int", "enum", "record", "str", "tuple", "list", "tile")


def known(t) -> bool:
    """Whether t says everything of a value: no ANY in it, however deep."""
    if t == ANY:
        return False
    if t[0] in ("enum", "record", "tile"):
        return True
    return all(known(x) for x in (t[1] if t[0] == "tuple" else t[1:]))
