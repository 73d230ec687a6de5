"""A task for a worker process that imports nothing but sys, so that what it reports imported was imported
by the worker itself (its preload, or the file it ran as its main module), not by unpickling the task."""

import sys


def modules_of_this_worker(names: tuple[str, ...]) -> list[bool]:
    """Which of `names` the worker running this has imported."""
    return [name in sys.modules for name in names]
