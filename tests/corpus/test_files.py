"""Finding a corpus's session files: recursive, sorted, projects named, and nothing outside read."""

from pathlib import Path

import pytest

from compaction.corpus import Job, discover, session_row
from compaction.corpus.files import SessionFile, checked_path, corpus_root, project_of, project_of_cwd
from compaction.errors import ConversationError

MESSAGES = '[{"role": "user", "content": "hello"}, {"role": "assistant", "content": "hi"}]'


def write(path: Path, text: str = MESSAGES) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_session_files_are_found_recursively_in_path_order(tmp_path):
    for name in ("b/z.jsonl", "a.json", "b/a/deep.traj", "notes.txt", "b/readme.md", "c/UPPER.JSON"):
        write(tmp_path / name)
    found = discover(tmp_path)
    assert [item.relative for item in found] == ["a.json", "b/a/deep.traj", "b/z.jsonl", "c/UPPER.JSON"]
    assert all(item.refused is None and item.root == str(tmp_path.resolve()) for item in found)


def test_a_missing_folder_or_a_file_is_named():
    with pytest.raises(ConversationError, match="no such folder"):
        discover("/no/such/corpus")
    with pytest.raises(ConversationError, match="is not a folder"):
        discover(__file__)


def test_a_server_can_confine_folders_to_the_ones_it_allows(tmp_path):
    allowed, elsewhere = tmp_path / "shared" / "sessions", tmp_path / "private"
    (allowed / "team").mkdir(parents=True)
    elsewhere.mkdir()
    assert corpus_root(allowed / "team", [allowed]) == (allowed / "team").resolve()
    assert corpus_root(allowed, [allowed]) == allowed.resolve()
    with pytest.raises(ConversationError, match=r"outside the folders this server reads sessions from: .*shared"):
        corpus_root(elsewhere, [allowed])
    for through in (allowed / ".." / ".." / "private", allowed / "team" / ".."):  # out, or even staying in
        with pytest.raises(ConversationError, match=r"a path through '\.\.' is refused on this server"):
            corpus_root(through, [allowed])
    (allowed / "link").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ConversationError, match="outside"):  # so is a link inside pointing out
        corpus_root(allowed / "link", [allowed])
    with pytest.raises(ConversationError, match=r"only uploaded \.zip files"):
        corpus_root(allowed, [])
    assert corpus_root(elsewhere) == elsewhere.resolve()  # no list: any folder


@pytest.mark.parametrize(("relative", "root", "project"), [
    ("-home-dev-shop/1234.jsonl", "projects", "-home-dev-shop"),  # the corpus is ~/.claude/projects
    ("projects/-home-dev-shop/1234.jsonl", ".claude", "-home-dev-shop"),  # the corpus is ~/.claude
    ("projects/-home-dev-shop/1234/subagents/agent-1.jsonl", "x", "-home-dev-shop"),
    ("-home-dev-shop/1234/subagents/agent-1.jsonl", "projects", "-home-dev-shop"),
    ("shop/1234/subagents/agent-1.jsonl", "backup", "shop"),  # a 2.1 subagent: its session's project
    ("tmp/56cfacee/chats/session-2026-02-23T08-58-c9da8256.json", ".gemini", "56cfacee"),  # Gemini CLI
    ("dashboard/chats/c9da8256-0000/x1y2z3.json", "tmp", "dashboard"),  # a Gemini CLI subagent's chat
    ("sessions/2026/03/24/rollout-2026-03-24T21-27-50-019d.jsonl", ".codex", ".codex"),  # Codex CLI
    ("archived_sessions/rollout-2026-03-24T21-27-50-019d.jsonl", ".codex", ".codex"),
    ("team/sessions/2026/notes.json", "exports", "2026"),  # not a rollout: the folder holding it
    ("team/alice/run.json", "exports", "alice"),
    ("run.json", "exports", "exports"),
])
def test_project_names(relative, root, project):
    assert project_of(relative, root) == project


@pytest.mark.parametrize(("cwd", "project"), [
    ("/home/dev/shop", "-home-dev-shop"), ("/Users/t_eiji/UTAGE3.0/utage3", "-Users-t-eiji-UTAGE3-0-utage3"),
    ("C:\\Users\\loganf\\IDAHO-VAULT", "C--Users-loganf-IDAHO-VAULT")])  # as Claude Code names the folders
def test_a_working_directory_is_named_as_claude_code_names_its_project(cwd, project):
    assert project_of_cwd(cwd) == project


def test_a_link_out_of_the_folder_is_refused_and_its_target_never_read(tmp_path):
    corpus, outside = tmp_path / "corpus", tmp_path / "outside"
    write(corpus / "real.json")
    secret = write(outside / "secret.json")
    (corpus / "leak.json").symlink_to(secret)
    (corpus / "inside.json").symlink_to(corpus / "real.json")
    (corpus / "elsewhere").symlink_to(outside, target_is_directory=True)
    found = {item.relative: item for item in discover(corpus)}
    assert set(found) == {"elsewhere", "inside.json", "leak.json", "real.json"}
    assert found["leak.json"].refused == "a symbolic link to a file outside the corpus folder; not read"
    assert found["elsewhere"].refused == "a symbolic link to a folder outside the corpus folder; not followed"
    assert found["inside.json"].refused is None
    row = session_row(found["leak.json"], Job())
    assert row["error"] == "leak.json: a symbolic link to a file outside the corpus folder; not read"
    assert row["messages"] is None
    assert session_row(found["inside.json"], Job())["messages"] == 2


def test_a_link_changed_after_discovery_is_checked_again(tmp_path):
    corpus = tmp_path / "corpus"
    write(corpus / "a.json")
    [item] = discover(corpus)
    (corpus / "a.json").unlink()
    (corpus / "a.json").symlink_to(write(tmp_path / "outside.json"))
    with pytest.raises(ConversationError, match="outside the corpus folder"):
        checked_path(item)
    assert "outside the corpus folder" in session_row(item, Job())["error"]


def test_session_file_path_joins_root_and_relative(tmp_path):
    item = SessionFile(str(tmp_path), "a/b.json")
    assert item.path == tmp_path / "a" / "b.json"
