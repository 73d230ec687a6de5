"""Claude, when the user gives a key: the client, reading the API's errors, exact token counts.

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.llm.client import default_model

__all__ = ["default_model"]
