"""The command line, one module per subcommand (main.py wires them); what they share is common.py,
which commands added by other packages (the dashboard's `report`) use too.

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.cli.common import (
    add_file_flags,
    add_model_window_flag,
    add_setting_flags,
    load,
    make_store,
    make_summarizer,
    settings_from,
)

__all__ = ["add_file_flags", "add_model_window_flag", "add_setting_flags", "load", "make_store", "make_summarizer",
           "settings_from"]
