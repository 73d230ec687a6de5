"""Summarisers for L4 and reactive compaction, behind one small interface."""

from .base import SUMMARY_PROMPT, Summarizer, summary_input
from .offline import OfflineSummarizer

__all__ = ["SUMMARY_PROMPT", "OfflineSummarizer", "Summarizer", "summary_input"]
