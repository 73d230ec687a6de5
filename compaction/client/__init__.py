"""The compacting client: an agent's Messages API calls with a strategy of the lab applied to the history
before each one, exactly as a replay applies it, and a JSONL trace of every call that the lab loads back
as a session with its recorded usage.

- client.py: `CompactingClient`, `messages.create(...)` as the SDK's; reactive compaction on the API's
  prompt-too-long error; the `compact` tool;
- kept.py: the conversation it keeps (the caller's messages, the history the strategy left);
- blocks.py: the caller's messages (SDK objects included) as the plain dicts the layers measure;
- trace.py: the trace, one line per call.
"""

__all__ = ["CompactingClient"]


def __getattr__(name: str):
    # the client needs the anthropic SDK (a second or two to import): loaded when asked for, so the parts
    # that only read messages (blocks.py, used by the export forms) do not pull it in
    if name == "CompactingClient":
        from compaction.client.compacting import CompactingClient

        return CompactingClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
