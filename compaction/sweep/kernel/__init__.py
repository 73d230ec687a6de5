"""The columnar sweep kernel: a grid's cells of the tutorial's pipeline computed from prefix sums over the
session's messages, every call of a cell at once, instead of a replay message by message. The loop
(compaction/replay) stays the reference: the kernel gives exactly its figures, and a cell it does not
model exactly (another strategy, reactive compaction, the compact tool, ...) is left to the loop with
the reason (grid.py).

- columns.py, facts.py, references.py: what every cell reads of the conversation, once;
- persisted.py (L3), versions.py, layout.py, summaries.py (L4): what a cell's histories hold;
- walk.py (call by call) and steady.py (many calls at once after L1's first cut): a cell's calls;
- priced.py and tariffs.py (tokens, cache, cost), loss.py (what is no longer sent), cell.py (the cell).
"""

from compaction.sweep.kernel.grid import NO_COLUMNAR_FORM, kernel_cells, refusal

__all__ = ["NO_COLUMNAR_FORM", "kernel_cells", "refusal"]
