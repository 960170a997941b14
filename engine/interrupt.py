"""Ctrl-C during a long run: the first one asks the run to stop and keep what it found, the next one quits."""
from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading


@contextlib.contextmanager
def first_interrupt_stops(note: str = ""):
    """Within the block, the first SIGINT sets the event it yields instead of raising
    KeyboardInterrupt, says `note` on stderr, and puts back the handler there was, so a second
    one interrupts as usual."""
    stop = threading.Event()
    if threading.current_thread() is not threading.main_thread():  # only the main thread sets handlers
        yield stop
        return
    before = signal.getsignal(signal.SIGINT)
    if before is None or before == signal.SIG_IGN:  # a handler not set from Python (it could not be put
        yield stop                                    # back), or started in the background by a shell
        return

    def asked(signum, frame):
        stop.set()
        signal.signal(signal.SIGINT, before)
        if note:  # written past Python's buffers: the interrupted code may be writing to stderr itself
            clear = "\r\x1b[K" if sys.stderr.isatty() else ""  # over a progress bar
            try:
                os.write(sys.stderr.fileno(), f"{clear}{note} (Ctrl-C again quits now)\n".encode())
            except (OSError, ValueError):
                pass

    signal.signal(signal.SIGINT, asked)
    try:
        yield stop
    finally:
        signal.signal(signal.SIGINT, before)
