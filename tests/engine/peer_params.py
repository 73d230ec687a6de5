"""Parameters that make every strategy act on small sessions, and helpers for the property tests."""

import copy

from compaction import check_pairs

# Thresholds a few thousand characters high, windows of a few messages: each strategy does its work
# (clears, masks, forgets, summarises) many times in a session of a few dozen turns.
TIGHT = {
    "as-recorded": {},  # no parameters: it follows the log
    "pipeline": {"context_limit": 5_000, "max_messages": 12, "keep_recent": 1, "max_bytes": 3_000,
                 "persist_threshold": 2_000},
    "masking": {"window": 1},
    "summary_keep_last": {"trigger": 5_000, "keep_last": 3},
    "claude-code": {"window_tokens": 6_000, "output_reserve_tokens": 1_000, "buffer_tokens": 1_000,
                    "persist_threshold": 1_500, "preview_chars": 100, "microcompact_trigger": 2,
                    "microcompact": True, "microcompact_keep": 1,
                    "microcompact_tools": ("read", "bash", "grep", "edit", "run"),
                    "idle_microcompact": True, "idle_minutes": 1, "idle_keep": 1},
    "anthropic-clear-tool-uses": {"trigger": 500, "keep": 1, "clear_tool_inputs": True},
    "anthropic-clear-thinking": {"keep": 0},
    "anthropic-compact": {"trigger": 50_000},
    "langchain-summarization": {"trigger_tokens": 1_500, "keep_messages": 5, "trim_tokens_to_summarize": 800},
    "langchain-clear-tool-uses": {"trigger": 500, "keep": 1, "clear_at_least": 300},
    "openhands-masking": {"attention_window": 3},
    "openhands-recent": {"max_events": 6, "keep_first": 2},
    "openhands-amortized": {"max_size": 10, "keep_first": 2},
    "openhands-llm": {"max_size": 12, "keep_first": 2, "max_tokens": 3_000},
    "openhands-pipeline": {"max_size": 12, "keep_first": 2, "browser_tools": ("bash",),
                           "browser_attention_window": 1},
    "hybrid": {"mask_window": 2, "summarize_every": 3, "keep_last_turns": 2},
    "codex": {"window_tokens": 3_000, "user_message_budget_tokens": 50},
    "gemini-cli": {"window_tokens": 6_000, "function_response_budget_tokens": 200, "truncate_chars": 400},
    "aider": {"max_chat_history_tokens": 1_024, "summarizer_window_tokens": 2_000},
    "opencode": {"context_limit_tokens": 35_000, "prune_protect_tokens": 300},
    "crush": {"window_tokens": 6_000},
    "goose": {"window_tokens": 6_000},
    "copilot-cli": {"window_tokens": 3_000},
    "pi": {"window_tokens": 3_000, "reserve_tokens": 500, "keep_recent_tokens": 300},
    "cline": {"max_allowed_tokens": 3_000},
    "roo-code": {"window_tokens": 6_000, "condense_percent": 30},
    "kilo-code": {"window_tokens": 6_000, "auto_condense": False},
}


def guarded(step):
    """`step`, checking at every call that it leaves its input as it was, sends valid tool pairs and
    keeps every message's size exact."""
    def run(history, settings, store=None, summarizer=None):
        before = (copy.deepcopy(history.messages), list(history.sizes), list(history.origins))
        done = step(history, settings, store, summarizer)
        assert (history.messages, history.sizes, history.origins) == before, f"{step.__name__} changed its input"
        sent = done.history
        assert check_pairs(sent.messages) == [], f"{step.__name__} split a tool pair"
        assert sent.sizes == [len(str(m)) for m in sent.messages], f"{step.__name__} sizes are off"
        assert len(sent.origins) == len(sent.messages)
        return done
    run.__name__ = step.__name__
    return run


def with_thinking(messages, every: int = 2):
    """A copy with a thinking block opening every `every`-th assistant message that has a block list."""
    messages = copy.deepcopy(messages)
    assistants = [m for m in messages if m["role"] == "assistant" and isinstance(m["content"], list)]
    for n, message in enumerate(assistants[::every]):
        message["content"].insert(0, {"type": "thinking", "thinking": f"Thinking step {n}. " * 20, "signature": "s"})
    return messages


# Parameters at which each strategy cannot act on a session of a few hundred thousand tokens: thresholds
# at their largest, windows wider than the session, every optional layer off. A replay at these sends
# what no compaction sends (test_idle_strategies.py).
IDLE = {
    "as-recorded": {},  # it acts only where the log compacted itself: idle on a log without compactions
    "pipeline": {"context_limit": 100_000_000, "max_messages": 10_000_000, "keep_recent": 1_000_000,
                 "max_bytes": 1_000_000_000, "persist_threshold": 1_000_000_000},
    "masking": {"window": 1_000_000},
    "summary_keep_last": {"trigger": 100_000_000},
    "claude-code": {"window_tokens": 10_000_000, "persist_threshold": 1_000_000_000,
                    "warning_microcompact": "off"},  # else it clears where the log shows the agent did
    "anthropic-clear-tool-uses": {"trigger": 10_000_000},
    "anthropic-clear-thinking": {"keep_all": True},
    "anthropic-compact": {"trigger": 10_000_000},
    "langchain-summarization": {"trigger_tokens": 10_000_000},
    "langchain-clear-tool-uses": {"trigger": 10_000_000},
    "openhands-masking": {"attention_window": 10_000_000},
    "openhands-recent": {"max_events": 10_000_000},
    "openhands-amortized": {"max_size": 10_000_000},
    "openhands-llm": {"max_size": 10_000_000},
    "openhands-pipeline": {"max_size": 10_000_000, "browser_tools": ()},
    "hybrid": {"mask_window": 100_000, "summarize_every": 100_000},
    "codex": {"window_tokens": 10_000_000},
    "gemini-cli": {"window_tokens": 10_000_000},
    "aider": {"max_chat_history_tokens": 10_000_000},
    "opencode": {"auto": False, "prune": False},
    "crush": {"disable_auto_summarize": True},
    "goose": {"threshold": 0.0},
    "copilot-cli": {"window_tokens": 10_000_000},
    "pi": {"window_tokens": 10_000_000},
    **{name: {"window_tokens": 10_000_000} for name in ("cline", "roo-code", "kilo-code")},
}
