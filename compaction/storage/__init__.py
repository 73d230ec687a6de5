"""What goes to disk: persisted tool outputs and summaries' transcripts (outputs.py), each browser
session's own folder (workspaces.py), uploads kept under their content's hash (uploads.py).

Its modules are internal to the engine: the dashboard and other packages use the names below.
"""

from compaction.storage.outputs import OutputStore, StoredOutput, safe_name
from compaction.storage.uploads import digest_of, keep_upload, kept_path, kept_upload
from compaction.storage.workspaces import new_session_store, remove_stale_sessions

__all__ = ["OutputStore", "StoredOutput", "digest_of", "keep_upload", "kept_path", "kept_upload", "new_session_store",
           "remove_stale_sessions", "safe_name"]
