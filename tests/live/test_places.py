"""Which files may be followed (COMPACTION_SESSION_FOLDERS, links resolved) and the agents' own folders
offered newest first."""

import os

import pytest

from compaction.errors import ConversationError
from compaction.live.places import agent_sessions, followable


def test_a_file_outside_the_allowed_folders_is_refused_by_name(tmp_path):
    allowed, other = tmp_path / "allowed", tmp_path / "other"
    allowed.mkdir()
    other.mkdir()
    outside = other / "session.jsonl"
    outside.write_text("")
    with pytest.raises(ConversationError, match=f"^{outside}: outside the folders this server follows sessions in"):
        followable(outside, [allowed])
    link = allowed / "link.jsonl"  # a link inside pointing out is outside
    link.symlink_to(outside)
    with pytest.raises(ConversationError, match="outside the folders"):
        followable(link, [allowed])
    with pytest.raises(ConversationError, match=r"\(COMPACTION_SESSION_FOLDERS: none\)"):
        followable(outside, [])
    inside = allowed / "session.jsonl"
    inside.write_text("")
    assert followable(inside, [allowed]) == inside.resolve()
    assert followable(outside, None) == outside.resolve()


def test_what_is_not_a_file(tmp_path):
    with pytest.raises(ConversationError, match="no such file"):
        followable(tmp_path / "nowhere.jsonl", None)
    with pytest.raises(ConversationError, match="is not a file"):
        followable(tmp_path, None)


def test_the_agents_folders_newest_first(tmp_path):
    home = tmp_path / "home"
    files = {"claude": home / ".claude/projects/-home-dev-app/5f0e2c1a.jsonl",
             "codex": home / ".codex/sessions/2026/04/01/rollout-2026-04-01T00-01-07-019d47a1.jsonl",
             "gemini": home / ".gemini/tmp/app/chats/session-2026-03-30T03-06-0beddad7.json",
             "other": home / ".codex/sessions/2026/04/01/notes.jsonl"}
    for age, path in enumerate(files.values()):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
        os.utime(path, (1_700_000_000 - age * 60, 1_700_000_000 - age * 60))
    found = agent_sessions(home, None)
    assert [(item.agent, item.path) for item in found] == [
        ("Claude Code", files["claude"]), ("Codex CLI", files["codex"]), ("Gemini CLI", files["gemini"])]
    assert [item.agent for item in agent_sessions(home, [home / ".codex"])] == ["Codex CLI"]
    assert agent_sessions(home, []) == []
