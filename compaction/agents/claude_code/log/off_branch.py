"""The calls a Claude Code log holds beside its conversation: responses on branches the person rewound,
or of an earlier start of the session. They were made and paid for, so they are listed (once per
response, with its last line's usage) for measures/branches_paid.py; the conversation leaves them out.
"""

from bisect import bisect_right

from compaction.agents.claude_code.log.branch import Branch
from compaction.agents.claude_code.log.records import Record


def off_branch_calls(records: list[Record], branch: Branch) -> list[dict]:
    kept = {id(record) for record in branch.records}
    first_kept: dict[str, int] = {}
    for record in branch.records:
        if _is_call(record):
            first_kept.setdefault(_key(record), record.line)
    final_lines = sorted(first_kept.values())
    left: dict[str, dict] = {}
    for record in records:
        if id(record) in kept or not _is_call(record) or _key(record) in first_kept:
            continue
        found = left.setdefault(_key(record), {"line": record.line, "reason": branch.left_out.get(id(record),
                                                                                                   "rewound")})
        found["usage"] = record.usage  # the response's last line has its final output count
    calls = sorted(left.values(), key=lambda call: call["line"])
    for call in calls:
        call["after_call"] = bisect_right(final_lines, call["line"])
    return calls


def _is_call(record: Record) -> bool:
    return record.is_message and record.role == "assistant" and record.usage is not None and not record.synthetic


def _key(record: Record) -> str:
    return record.response_key or f"line {record.line}"
