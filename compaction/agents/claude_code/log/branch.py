"""Which lines of a Claude Code log are the session the model saw.

The lines form a tree by parentUuid, but a tree that branches for three reasons:
- a rewind (the person went back and asked something else): the old branch is left out;
- a call dropped on resume: Claude Code leaves out the lines of tool calls that never got a result when
  it resumes a session (filterUnresolvedToolUses), so the next prompt hangs off the line before the
  call, beside it. The call was not sent again: its line is left out like a rewound one, and its
  response's final usage (written on its last line) goes to the response's last kept line;
- parallel tool calls: one response is written as lines A1 <- A2 <- A3 (one content block each), and
  each result line hangs off the line of its own tool_use (R1 -> A2, R2 -> A3, ...), naming it in
  sourceToolAssistantUUID; the next response hangs off one of the results. Nothing was rewound.
- hook progress written after its turn (seen in 2.1.7x): the progress lines of a turn's hooks are written
  once the turn is over, chained among themselves from the turn's first call line, each naming the call
  it reports (toolUseID); the stop hook's summary and the next prompt hang off the last of them. Walked
  back from the next prompt, the path skips the turn: the calls those lines name, their results and the
  turn's last response hang off the first call line beside the chain. They are the conversation.
So the path from the last line back to the root is only the spine. Around it are kept the lines of the
same response (same message.id or requestId, or no id to tell them apart) that hang off a kept line, and
the result lines that answer a kept tool call; then the same around what was added. What is left out
is counted: lines of rewound branches (a second root with a new first prompt among them), dropped
calls, and those of an earlier start of the session (restart: a second root repeating the first prompt).
"""

from collections import defaultdict
from dataclasses import dataclass, field

from compaction.agents.claude_code.log.records import Record
from compaction.importers.checks import only_tool_results
from compaction.model.conversation import LoadWarning

MAX_ANCESTORS = 1_000  # other lines (progress, attachments) walked through to reach a message line


@dataclass
class Branch:
    records: list[Record]  # kept lines, in file order
    warnings: list[LoadWarning] = field(default_factory=list)
    rewound: int = 0  # message lines left out on abandoned branches
    restarted: int = 0  # message lines left out of an earlier start of the session
    dropped_calls: int = 0  # lines of calls never answered, beside which the conversation went on
    left_out: dict[int, str] = field(default_factory=dict)  # id(message line) -> "rewound", "restarted", ...


@dataclass
class _Tree:
    """The message lines by what they hang off, and the result lines by the call they answer."""
    anchors: dict[int, Record | None]  # id(message line) -> the message line it hangs off
    hanging: dict[int, list[Record]]  # id(message line) -> message lines hanging off it
    answers: dict[str, list[Record]]  # tool_use id -> result lines answering it


def choose_branch(records: list[Record]) -> Branch:
    position = {id(record): n for n, record in enumerate(records)}
    by_uuid = {record.uuid: record for record in records}  # a uuid written twice: the later line counts
    end = max((r for r in records if r.kind != "other"), key=lambda r: r.line)
    spine, warnings = _spine(end, by_uuid)
    kept = {id(record) for record in spine} | {id(record) for record in _turns_under_hooks(spine, records, by_uuid)}
    tree = _tree(records, by_uuid)
    _add_parallel_lines(records, kept, tree)
    dropped = [r for r in records if r.is_message and id(r) not in kept and _dropped_call(r, tree, kept)]
    _keep_final_usage(records, kept, dropped)
    kept_records = sorted((r for r in records if id(r) in kept), key=lambda r: position[id(r)])
    branch = Branch(kept_records, warnings)
    _count_left_out(records, kept, {id(r) for r in dropped}, spine[0], by_uuid, branch)
    return branch


def _spine(end: Record, by_uuid: dict[str, Record]) -> tuple[list[Record], list[LoadWarning]]:
    path, seen, warnings = [], set(), []
    current = end
    while True:
        path.append(current)
        seen.add(current.uuid)
        parent = current.parent
        if parent is None:
            break
        if parent in seen:
            warnings.append(LoadWarning("parentUuid loop; the branch is cut here", line=current.line,
                                        kind="parent_loop"))
            break
        if parent not in by_uuid:
            warnings.append(LoadWarning(f"parentUuid {parent!r} is not in the file; earlier messages may be missing",
                                        line=current.line, kind="parent_missing"))
            break
        current = by_uuid[parent]
    path.reverse()
    return path, warnings


def _turns_under_hooks(spine: list[Record], records: list[Record], by_uuid: dict[str, Record]) -> list[Record]:
    """The lines of each turn whose hook progress the spine walks instead of it (see the module): where the
    spine goes from a message line M through lines naming calls (toolUseID) to the next message line, and
    M's other descendants written before that line hold such calls besides M's own, the path from the
    last of those descendants back to M."""
    children: dict[str, list[Record]] = defaultdict(list)
    for record in records:
        if record.parent is not None:
            children[record.parent].append(record)
    found: list[Record] = []
    previous, stretch = None, []
    for record in spine:  # root first
        if not record.is_message:
            stretch.append(record)
            continue
        named = {line.tool_use_id for line in stretch if line.tool_use_id}
        if previous is not None and named:
            found += _hooked_turn(previous, stretch[0], record, named, children, by_uuid)
        previous, stretch = record, []
    return found


def _hooked_turn(start: Record, chain: Record, after: Record, named: set[str],
                 children: dict[str, list[Record]], by_uuid: dict[str, Record]) -> list[Record]:
    """The path from the last message line under `start` (not through `chain`, written before `after`)
    back to `start`, when the calls that `named` holds are made under `start`, besides its own."""
    under, queue = [], [child for child in children.get(start.uuid, ()) if child is not chain]
    while queue:
        record = queue.pop()
        if record.line < after.line:
            under.append(record)
            queue.extend(children.get(record.uuid, ()))
    messages = [record for record in under if record.is_message]
    if not named & {call for record in messages for call in call_ids(record)} - set(call_ids(start)):
        return []
    path: list[Record] = []
    current = max(messages, key=lambda record: record.line)
    while current is not start and len(path) < len(under) and current.parent is not None:
        path.append(current)
        current = by_uuid[current.parent]
    return path


def _anchor(record: Record, by_uuid: dict[str, Record]) -> Record | None:
    """The message line a line hangs off: the tool_use line it names, or its nearest message ancestor."""
    if record.source_tool in by_uuid:
        return by_uuid[record.source_tool]
    current, steps = record, 0
    while current.parent in by_uuid and steps < MAX_ANCESTORS:
        current = by_uuid[current.parent]
        if current.is_message:
            return current
        steps += 1
    return None


def call_ids(record: Record) -> list[str]:
    content = record.content
    if record.role != "assistant" or not isinstance(content, list):
        return []
    return [b["id"] for b in content if isinstance(b, dict) and b.get("type") == "tool_use"
            and isinstance(b.get("id"), str)]


def result_ids(record: Record) -> list[str]:
    content = record.content
    if record.role != "user" or not isinstance(content, list):
        return []
    return [b["tool_use_id"] for b in content if isinstance(b, dict) and b.get("type") == "tool_result"
            and isinstance(b.get("tool_use_id"), str)]


def same_response(first: Record, second: Record) -> bool:
    """Whether two assistant lines can be one response: nothing says otherwise."""
    if first.message_id and second.message_id:
        return first.message_id == second.message_id
    if first.request_id and second.request_id:
        return first.request_id == second.request_id
    return True


def _tree(records: list[Record], by_uuid: dict[str, Record]) -> _Tree:
    tree = _Tree({}, defaultdict(list), defaultdict(list))
    for record in records:
        if not record.is_message:
            continue
        anchor = tree.anchors[id(record)] = _anchor(record, by_uuid)
        if anchor is not None:
            tree.hanging[id(anchor)].append(record)
        for tool_use_id in result_ids(record):
            tree.answers[tool_use_id].append(record)
    return tree


def _add_parallel_lines(records: list[Record], kept: set[int], tree: _Tree) -> None:
    """Add to `kept` the lines of kept responses and the results of kept tool calls (see the module).

    Lines of a response hang off its previous line, or, when tools run while it streams, off the
    result of its previous call (or a progress line under it): both are looked at from each kept line."""
    anchors, hanging, answers = tree.anchors, tree.hanging, tree.answers
    kept_calls: set[str] = set()
    response: Record | None
    queue = [r for r in records if id(r) in kept and r.is_message]
    while queue:
        line = queue.pop()
        if line.role == "assistant":
            response, calls = line, call_ids(line)
            kept_calls.update(calls)
        else:  # a result line: lines of the response it answers may hang off it
            response, calls = anchors.get(id(line)), []
            if response is None or response.role != "assistant" or not response.response_key:
                continue
        for record in hanging.get(id(line), ()):
            if id(record) in kept:
                continue
            same = same_response(response, record) if line is response else \
                record.response_key is not None and record.response_key == response.response_key
            if record.role == "assistant" and same and _dropped_call(record, tree, kept):
                continue
            if (record.role == "assistant" and same) or (calls and _answers(record, calls)):
                kept.add(id(record))
                queue.append(record)
    # a result whose line does not hang off its call (an unknown parent): kept when it is the only answer
    answered = {i for r in records if id(r) in kept for i in result_ids(r)}
    for tool_use_id in kept_calls - answered:
        candidates = answers.get(tool_use_id, [])
        if len(candidates) == 1 and set(result_ids(candidates[0])) <= kept_calls:
            kept.add(id(candidates[0]))


def _answers(record: Record, calls: list[str]) -> bool:
    """A result line that answers calls of this line only."""
    ids = result_ids(record)
    return bool(ids) and set(ids) <= set(calls)


def _dropped_call(record: Record, tree: _Tree, kept: set[int]) -> bool:
    """Whether a line holds tool calls that nothing in the file answers while a turn of the person hangs
    off the kept line the call hangs off (directly, or through earlier dropped calls of its response):
    a call Claude Code dropped when it resumed the session (see the module)."""
    calls = call_ids(record)
    if not calls or any(tree.answers.get(call) for call in calls):
        return False
    anchor = tree.anchors.get(id(record))
    while anchor is not None and id(anchor) not in kept and anchor.role == "assistant" \
            and same_response(anchor, record) and call_ids(anchor) \
            and not any(tree.answers.get(call) for call in call_ids(anchor)):
        anchor = tree.anchors.get(id(anchor))  # a later call of a response whose earlier call was dropped too
    return anchor is not None and id(anchor) in kept and any(
        id(other) in kept and other.role == "user" and not only_tool_results(other.content)
        for other in tree.hanging.get(id(anchor), ()))


def _keep_final_usage(records: list[Record], kept: set[int], dropped: list[Record]) -> None:
    """A response's usage is its last line's (the output count grows line by line): when that line is
    a dropped call, its usage goes to the response's last kept line (the call was made all the same)."""
    last_kept: dict[str, Record] = {}
    for record in records:
        if id(record) in kept and record.role == "assistant" and record.response_key:
            last_kept[record.response_key] = record
    for record in dropped:
        line = last_kept.get(record.response_key or "")
        if line is not None and record.usage is not None and record.line > line.line:
            line.usage = record.usage


def _count_left_out(records: list[Record], kept: set[int], dropped: set[int], root: Record,
                    by_uuid: dict[str, Record], branch: Branch) -> None:
    """Count the message lines left out, with one warning each: those of an earlier start of the session
    (a tree of its own whose first prompt is the kept one's) as restarted, the calls dropped on resume,
    every other one as rewound (a second root with a new prompt is the person going back to the start
    and asking something else)."""
    roots: dict[int, Record] = {}
    first_message: dict[int, Record] = {}  # the first message line of each tree, by the id of its root
    for record in records:
        if record.is_message:
            first_message.setdefault(id(_root(record, by_uuid, roots)), record)
    opening = _opening(first_message.get(id(root), root))
    first_line: dict[str, int | None] = {"restarted": None, "rewound": None, "dropped_calls": None}
    for record in records:
        if not record.is_message or id(record) in kept:
            continue
        own_root = _root(record, by_uuid, roots)
        restarted = own_root is not root and opening is not None \
            and _opening(first_message[id(own_root)]) == opening
        reason = "restarted" if restarted else "dropped_calls" if id(record) in dropped else "rewound"
        setattr(branch, reason, getattr(branch, reason) + 1)
        branch.left_out[id(record)] = reason
        first_line[reason] = first_line[reason] or record.line
    if branch.restarted:
        branch.warnings.append(LoadWarning(
            f"restarted: the session was started again with the same first prompt at line {root.line}; the "
            f"{branch.restarted:,} message line(s) of the earlier run are left out and the later run is shown",
            line=first_line["restarted"], kind="restart"))
    if branch.dropped_calls:
        branch.warnings.append(LoadWarning(
            f"{branch.dropped_calls:,} line(s) of tool calls never answered left out: the next prompt hangs "
            "off the line before the call, as when Claude Code resumes a session and drops calls without "
            "a result", line=first_line["dropped_calls"], kind="dropped_call"))
    if branch.rewound:
        branch.warnings.append(LoadWarning(
            f"{branch.rewound:,} message line(s) on abandoned branches (rewinds) left out",
            line=first_line["rewound"], kind="rewind"))


def _root(record: Record, by_uuid: dict[str, Record], memo: dict[int, Record]) -> Record:
    chain: list[Record] = []
    current = record
    while id(current) not in memo and current.parent in by_uuid and len(chain) < len(by_uuid):
        chain.append(current)
        current = by_uuid[current.parent]
    top = memo.get(id(current), current)
    for item in chain:
        memo[id(item)] = top
    memo[id(record)] = top
    return top


def _opening(record: Record) -> str | None:
    """The first prompt's text, to recognise a restart that repeats it."""
    content = record.content
    if isinstance(content, str):
        return content.strip()
    if isinstance(content, list):
        texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return "\n".join(texts).strip() or None
    return None
