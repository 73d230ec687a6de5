"""Claude Code's bundled samples, its log writer for `generate --format claude-code`, and its layout of a
generated corpus (`projects/<project dir>/<session id>.jsonl`, as ~/.claude/projects is)."""

from datetime import UTC, datetime
from pathlib import PurePosixPath

from compaction.agents.claude_code.sample_log import ClaudeCodeLog
from compaction.generate.realistic import realistic_session
from compaction.generate.writers import LogWriter, Placed


def claude_code_session() -> str:
    """A session with every quirk: split lines, a rewind, a sidechain, a compaction, extra line types."""
    log = ClaudeCodeLog(seed=3)
    log.other("file-history-snapshot", messageId="snap-1", isSnapshotUpdate=False,
              snapshot={"trackedFileBackups": {}, "timestamp": "2025-03-14T09:00:00Z"})
    log.messages(realistic_session(turns=4, typical_output=600, max_output=6000, parallel_share=0.5, seed=21))
    log.assistant([{"type": "text", "text": "The crash comes from `export_rows` assuming one row. I can add a "
                                            "cache of parsed rows, or guard the empty case. Which do you prefer?"}])
    branch_point = log.mark()
    # The abandoned branch: the person later rewinds to branch_point and asks for something else.
    log.user("Go with the cache.")
    log.assistant([{"type": "text", "text": "Adding an LRU cache around the parser."}])
    log.rewind(branch_point)
    log.user("No cache after all: just guard the empty case. And don't add any dependencies.")
    task = {"type": "tool_use", "id": "toolu_01TaskSearchCallers000001", "name": "Task",
            "input": {"description": "Find callers", "prompt": "List every caller of export_rows."}}
    log.assistant([{"type": "text", "text": "I'll have a subagent list the callers first."}, task])
    _subagent(log)
    log.tool_results([{"type": "tool_result", "tool_use_id": task["id"],
                       "content": [{"type": "text", "text": "export_rows is called from cli.py:88 and jobs/worker.py:41."}]}])
    log.messages(realistic_session(turns=5, typical_output=600, max_output=6000, seed=22)[1:])
    log.other("queue-operation", operation="enqueue", content="also update the changelog",
              sessionId=log.session_id, timestamp="2025-03-14T09:30:00Z")
    log.compact_boundary("auto", 154_312, "This session is being continued from a previous conversation. "
                         "Summary: fixing the crash of `export` on empty input; constraint: no new "
                         "dependencies; export_rows now returns [] for no rows; remaining: changelog.")
    log.messages(realistic_session(turns=3, typical_output=600, max_output=6000, seed=23)[1:])
    log.other("ai-title", aiTitle="Fix export on empty input", sessionId=log.session_id)
    log.other("summary", summary="Fix export crash on empty input", leafUuid=log.head)
    return log.jsonl()


def claude_code_long_session(turns: int = 320, window: int = 200_000) -> str:
    """A long session with the usage every response recorded, compacted by the agent itself where Claude
    Code of the log's version would have (ClaudeCodeLog.session)."""
    log = ClaudeCodeLog(seed=5, start=datetime(2025, 6, 2, 9, 0, tzinfo=UTC))
    log.session(realistic_session(turns=turns, typical_output=1_500, max_output=40_000, parallel_share=0.25, seed=51),
                window)
    return log.jsonl()


def _subagent(log: ClaudeCodeLog) -> None:
    """Sidechain lines: the subagent's own little conversation, outside the main branch."""
    root = log.user("List every caller of export_rows.", parent=None, sidechain=True)
    grep = {"type": "tool_use", "id": "toolu_01SideGrep0000000000001", "name": "grep",
            "input": {"pattern": "export_rows", "path": "src"}}
    last = log.assistant([grep], parent=root, sidechain=True)
    last = log.tool_results([{"type": "tool_result", "tool_use_id": grep["id"],
                              "content": "src/app/cli.py:88: export_rows(rows)\nsrc/app/jobs/worker.py:41: "
                                         "export_rows(batch)"}], parent=last, sidechain=True)
    log.assistant([{"type": "text", "text": "Two callers: cli.py:88 and jobs/worker.py:41."}], parent=last,
                  sidechain=True)


def project_dir(cwd: str) -> str:
    """The folder name Claude Code gives a working directory under ~/.claude/projects."""
    return cwd.replace("/", "-").replace(".", "-")


def render(messages: list[dict], seed: int = 0, message_ids: bool = True) -> str:
    log = ClaudeCodeLog(seed=seed, ids=message_ids)
    log.session(messages)
    return log.jsonl()


def place(messages: list[dict], seed: int, cwd: str, start: datetime) -> Placed:
    log = ClaudeCodeLog(seed=seed, cwd=cwd, start=start)
    log.session(messages)
    return Placed(PurePosixPath("projects", project_dir(cwd), f"{log.session_id}.jsonl"), log.jsonl(), project_dir(cwd))


def samples() -> dict[str, str]:
    return {"claude_code_session.jsonl": claude_code_session(),
            "claude_code_long_session.jsonl": claude_code_long_session()}


WRITER = LogWriter("claude-code", render, place, samples)
