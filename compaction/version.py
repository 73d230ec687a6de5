"""The version of compaction-lab, written once (pyproject.toml reads it; workers of a cluster are checked
against it)."""

__version__ = "0.2.0"
