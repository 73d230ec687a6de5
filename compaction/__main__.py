"""`python -m compaction`: the same as the `compaction` command."""

from compaction.cli.main import console

console()
