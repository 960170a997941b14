"""Run deep recursion inside one large block of CPython's frame stack.

Compiled turns run in continuation-passing style, so generating the moves of a
state goes up and down through a hundred or more nested calls. CPython 3.11+
keeps Python frames in 16 KiB chunks that it maps on the way down and unmaps on
the way back; when the recursion swings across a chunk boundary at every leaf,
each swing costs a mmap/munmap pair. On a state with thousands of moves this
was three quarters of the time (system time, measured with `strace -c`).

`with_room(fn, *args)` calls fn from a frame that declares a very large value
stack it never uses: CPython gives that frame a chunk of its own, and every
frame below it fits in the rest of the chunk. Nested calls reuse the room
already made. On other interpreters it is an ordinary call. The command line
runs each command inside it; a program calling `legal_moves` directly gets it
per move generation (one mmap/munmap pair each, a cost that shows only on
games whose positions are tiny and generated without the memo table).
"""
from __future__ import annotations

ROOM_SLOTS = 140_000
"""Value-stack slots of the outer frame (8 bytes each): CPython rounds its chunk up to a power
of two, 2 MiB here, leaving about 0.9 MiB, thousands of frames, below it. Pages never touched
are never mapped in, so the size costs nothing."""

_inside = False


def _outer(fn, args):
    return fn(*args)


try:
    _outer.__code__ = _outer.__code__.replace(co_stacksize=ROOM_SLOTS)
except (AttributeError, TypeError, ValueError):  # an interpreter without CPython code objects
    pass


def with_room(fn, *args):
    """fn(*args), run with room for deep recursion below it."""
    global _inside
    if _inside:
        return fn(*args)
    _inside = True
    try:
        return _outer(fn, args)
    finally:
        _inside = False
