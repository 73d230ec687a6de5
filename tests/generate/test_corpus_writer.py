"""The generated corpus: varied sessions in both layouts, loading back as written, same bytes per seed."""

from compaction.agents.claude_code.samples import project_dir
from compaction.generate.corpus import write_corpus
from compaction.importers import load_conversation


def test_sessions_load_back_as_written(tmp_path):
    written = write_corpus(tmp_path, 12, seed=2, min_turns=2, max_turns=10, typical_output=(100, 300))
    assert len(written) == 12 and {session.format for session in written} == {"claude-code", "anthropic"}
    for session in written:
        conversation = load_conversation(session.path)
        assert conversation.format == session.format
        assert len(conversation.messages) == session.messages
        relative = session.path.relative_to(tmp_path).parts
        if session.format == "claude-code":  # ~/.claude/projects/<dir>/<session id>.jsonl
            assert relative[0] == "projects" and relative[1] == session.project
            assert session.path.stem == conversation.metadata["session_id"]
        else:
            assert relative[:2] == ("exports", session.project)
    assert len({session.messages for session in written}) > 3  # lengths vary


def test_the_same_seed_writes_the_same_bytes(tmp_path):
    first = write_corpus(tmp_path / "a", 5, seed=9, max_turns=8)
    second = write_corpus(tmp_path / "b", 5, seed=9, max_turns=8)
    assert [s.path.relative_to(tmp_path / "a") for s in first] == [s.path.relative_to(tmp_path / "b") for s in second]
    assert all(a.path.read_bytes() == b.path.read_bytes() for a, b in zip(first, second, strict=True))


def test_project_dir_is_claude_codes_folder_name():
    assert project_dir("/home/dev/my.app") == "-home-dev-my-app"
