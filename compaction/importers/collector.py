"""The cyclic garbage collector, paused while a file is read.

Parsing a large file builds millions of containers; every few hundred of them the collector runs, and
its older generations walk everything parsed so far, again and again: up to a third of a large load.
Parsed JSON holds no reference cycle (its containers are freed by their reference counts), so there is
nothing for the collector to find in it. It is paused for the load and resumed after; loads in several
threads at once (the dashboard's sessions) resume it when the last one ends.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_LOCK = threading.Lock()
_state = {"loads": 0, "was_enabled": False}


@contextmanager
def collector_paused() -> Iterator[None]:
    with _LOCK:
        if _state["loads"] == 0:
            _state["was_enabled"] = gc.isenabled()
            gc.disable()
        _state["loads"] += 1
    try:
        yield
    finally:
        with _LOCK:
            _state["loads"] -= 1
            if _state["loads"] == 0 and _state["was_enabled"]:
                gc.enable()
