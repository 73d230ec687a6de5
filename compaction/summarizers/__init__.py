"""Summarisers for L4 and reactive compaction, behind one small interface."""

from compaction.summarizers.base import SUMMARY_PROMPT, Summarizer, summary_input
from compaction.summarizers.offline import OfflineSummarizer

__all__ = ["SUMMARY_PROMPT", "OfflineSummarizer", "Summarizer", "summary_input"]
