"""The allow-lists for a browser on another machine: only what COMPACTION_SESSION_FOLDERS and
COMPACTION_DASK_SCHEDULERS name works, the rest is refused by name; and a browser on this machine with
neither set reaches every folder, agent's log and scheduler as before."""

import os

import pytest

from compaction.access import REMOTE_FOLDERS, REMOTE_SCHEDULERS
from tests.corpus.conftest import local_cluster

from .conftest import REPO, metrics, open_page, start_app
from .serving import (
    CLAUDE_LOG,
    CODEX_LOG,
    follow,
    offered,
    read_folder,
    session_rows,
    shown,
)


@pytest.fixture(scope="module")
def scheduler():
    with local_cluster() as cluster:
        yield cluster.scheduler_address


def analysed_on(at, address: str) -> bool:
    done = f"Analysed 7 sessions on the Dask cluster at {address}."
    return any(bar.proto.text == done for bar in at.get("progress"))


def test_a_remote_browser_reaches_only_the_folders_named(remote_browser, agent_home, served_corpus, tmp_path,
                                                         monkeypatch):
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", f"{served_corpus}{os.pathsep}{agent_home / '.claude'}")
    elsewhere = tmp_path / "private"
    elsewhere.mkdir()
    at = open_page(start_app(), "sessions")
    assert REMOTE_FOLDERS not in shown(at.info)
    assert [button.key for button in at.button if button.key.startswith("sessions_use_agent_")]  # inside a named folder
    assert len(session_rows(read_folder(at, served_corpus))) == 7
    for refused, why in ((elsewhere, f"outside the folders this server reads sessions from: {served_corpus}, "),
                         (served_corpus / ".." / served_corpus.name, "a path through '..' is refused on this server")):
        at = read_folder(open_page(start_app(), "sessions"), refused)
        assert session_rows(at) == [] and [text.startswith(f"{refused}: {why}") for text in shown(at.error)] == [True]
    at = open_page(start_app(), "live")
    assert [option.split(":")[0] for option in offered(at)] == ["Claude Code"]  # ~/.codex is not named
    at = follow(at, agent_home / CLAUDE_LOG)
    assert not at.error and metrics(at)["Model calls"] == "11"
    at = follow(open_page(start_app(), "live"), agent_home / CODEX_LOG)
    assert shown(at.error) == [f"{agent_home / CODEX_LOG}: outside the folders this server follows sessions in "
                               f"(COMPACTION_SESSION_FOLDERS: {served_corpus}, {agent_home / '.claude'})"]


def test_a_remote_browser_reaches_only_the_schedulers_named(remote_browser, served_corpus, scheduler, monkeypatch):
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(served_corpus))
    monkeypatch.setenv("COMPACTION_DASK_SCHEDULERS", scheduler)
    at = open_page(start_app(), "sessions")
    assert REMOTE_SCHEDULERS not in shown(at.info)
    at.text_input(key="sessions_scheduler").set_value("tcp://203.0.113.9:8786")
    at = read_folder(at, served_corpus)
    assert shown(at.error) == [f"Dask scheduler tcp://203.0.113.9:8786 is not one this server may use "
                               f"(COMPACTION_DASK_SCHEDULERS: {scheduler})"]
    at.text_input(key="sessions_scheduler").set_value(scheduler)
    at = at.button(key="sessions_analyse").click().run()
    assert not at.error and analysed_on(at, scheduler) and len(session_rows(at)) == 7


def test_a_browser_on_this_machine_reaches_everything_as_before(agent_home, served_corpus, scheduler):
    at = open_page(start_app(), "sessions")
    assert not [info for info in shown(at.info) if info in (REMOTE_FOLDERS, REMOTE_SCHEDULERS)]
    assert [button.key for button in at.button if button.key.startswith("sessions_use_agent_")]
    at.text_input(key="sessions_scheduler").set_value(scheduler)
    at = read_folder(at, served_corpus)
    assert not at.error and analysed_on(at, scheduler) and len(session_rows(at)) == 7
    at = open_page(start_app(), "live")
    assert sorted(option.split(":")[0] for option in offered(at)) == ["Claude Code", "Codex CLI"]
    at = follow(at, agent_home / CODEX_LOG)
    assert not at.error and int(metrics(at)["Model calls"]) > 0


def test_a_folder_swapped_for_a_link_out_after_it_was_read_is_refused_at_the_next_run(
        remote_browser, served_corpus, tmp_path, monkeypatch):
    allowed = tmp_path / "allowed"
    (allowed / "team").mkdir(parents=True)
    (allowed / "team" / "seed.json").write_bytes((REPO / "sample_data" / "seed_demo.json").read_bytes())
    monkeypatch.setenv("COMPACTION_SESSION_FOLDERS", str(allowed))
    at = read_folder(open_page(start_app(), "sessions"), allowed / "team")
    assert session_rows(at) == ["seed.json"]
    (allowed / "team").rename(allowed / "team.old")
    (allowed / "team").symlink_to(served_corpus, target_is_directory=True)  # same path, the files elsewhere
    at.run()
    assert session_rows(at) == []
    assert shown(at.error) == [f"{allowed / 'team'}: outside the folders this server reads sessions from: {allowed}"]
