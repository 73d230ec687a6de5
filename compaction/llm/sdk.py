"""The `anthropic` SDK, which only the `claude` extra installs: the engine imports without it, and
whatever needs Claude says how to get it. It is imported when Claude is first called, not with the
engine: it is over a thousand modules, most of the time a replay or a sweep would otherwise take to
start."""

import sys

from compaction.errors import CompactionError

MISSING = "Claude needs the anthropic package: pip install 'compaction-lab[claude]'"


def require_sdk():
    """The anthropic module, or a CompactionError saying how to install it."""
    try:
        import anthropic
    except ImportError:  # without the extra nothing calls Claude; a key given then gets this message
        raise CompactionError(MISSING) from None
    return anthropic


def loaded_sdk():
    """The anthropic module if it has been imported, else None: an error can be one of the SDK's only once
    something has imported it."""
    return sys.modules.get("anthropic")
