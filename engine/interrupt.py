"""Ctrl-C during a long run: the first one asks the run to stop and keep what it found, the next one quits.
A SIGTERM (`timeout`, a scheduler) is taken as a Ctrl-C."""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading


_BY = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
_last = ["Ctrl-C"]  # what interrupted the run last


def note_signal(signum: int) -> None:
    """Remember which signal interrupted the run, for interrupted_by."""
    _last[0] = _BY.get(signum, "Ctrl-C")


def interrupted_by() -> str:
    """What interrupted the run, as its report names it: Ctrl-C (unless told otherwise), or SIGTERM."""
    return _last[0]


@contextlib.contextmanager
def first_interrupt_stops(note: str = ""):
    """Within the block, the first SIGINT (or SIGTERM) sets the event it yields instead of raising
    KeyboardInterrupt, says `note` on stderr, and puts back the handlers there were, so a second
    one interrupts as usual."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():  # only the main thread sets handlers
        yield stop
        return
    before = signal.getsignal(signal.SIGINT)
    if before is None or before == signal.SIG_IGN:  # a handler not set from Python (it could not be put
        yield stop                                    # back), or started in the background by a shell
        return
    terminate = signal.getsignal(signal.SIGTERM)  # `timeout`, or a scheduler's stop: the same, but for what it says
    mine = terminate is not None and terminate != signal.SIG_IGN

    def asked(signum, frame):
        note_signal(signum)
        stop.set()
        signal.signal(signal.SIGINT, before)
        if mine:
            signal.signal(signal.SIGTERM, terminate)
        if note:  # written past Python's buffers: the interrupted code may be writing to stderr itself
            clear = "\r\x1b[K" if sys.stderr.isatty() else ""  # over a progress bar
            again = "Ctrl-C again quits now" if signum == signal.SIGINT else "asked to stop; again quits now"
            try:
                os.write(sys.stderr.fileno(), f"{clear}{note} ({again})\n".encode())
            except (OSError, ValueError):
                pass

    signal.signal(signal.SIGINT, asked)
    if mine:
        signal.signal(signal.SIGTERM, asked)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, before)
        if mine:
            signal.signal(signal.SIGTERM, terminate)
