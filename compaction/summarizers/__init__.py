"""Summarisers for L4 and reactive compaction, behind one small interface. Claude's (claude.py) is
imported only when asked for: it loads the anthropic SDK.

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from typing import Any

from compaction.summarizers.base import SUMMARY_PROMPT, Summarizer, summary_input
from compaction.summarizers.offline import OfflineSummarizer

__all__ = ["SUMMARY_PROMPT", "ClaudeSummarizer", "OfflineSummarizer", "Summarizer", "summary_input"]


def __getattr__(name: str) -> Any:
    if name == "ClaudeSummarizer":
        from compaction.summarizers.claude import ClaudeSummarizer

        return ClaudeSummarizer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
