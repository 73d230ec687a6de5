"""Subagents in a corpus: found in every layout the agents write, put under the session that ran them,
counted and priced; on the hand-written folder tests/corpus/mixed_agents and on rows written by hand."""

from pathlib import Path

import pytest

from compaction.corpus import analyse, discover
from compaction.corpus.subagents import attach, from_path

MIXED = Path(__file__).parent / "mixed_agents"
SHOP = "7d0c2f4e-5b1a-4c3e-9f6d-2a8b1c0e4d11"  # Claude Code 2.1.90, its subagent under <session>/subagents/
BLOG = "b2e4a6c8-1d3f-4a5b-8c7d-9e0f1a2b3c4d"  # Claude Code 2.0.69, its subagent a sibling agent-*.jsonl
GONE = "0a1b2c3d-4e5f-4061-8273-948a5b6c7d8e"  # a 2.1 subagent whose session file is not in the folder
TODO = "c9da8256-0000-4578-83ac-00000000aa11"  # Gemini CLI, its subagent's chat in chats/<session>/

# Each response's recorded usage at its model's price (US$ per million tokens), worked by hand:
# Sonnet 4.6: 3 input, 6 a 1-hour write, 0.3 a read, 15 output
SHOP_COST = (3 * 3 + 12_000 * 6 + 80 * 15 + 2 * 3 + 400 * 6 + 12_000 * 0.3 + 60 * 15) / 1e6
# Haiku 4.5: 1 input, 2 a 1-hour write, 1.25 a 5-minute write, 0.1 a read, 5 output
SHOP_AGENT_COST = (10 + 5_000 * 2 + 40 * 5 + 1 + 300 * 2 + 5_000 * 0.1 + 30 * 5 + 1 + 200 * 2 + 5_300 * 0.1
                   + 25 * 5) / 1e6
# Opus 4.5 (5-minute writes): 5 input, 6.25 a write, 0.5 a read, 25 output
BLOG_COST = (4 * 5 + 8_000 * 6.25 + 50 * 25 + 2 * 5 + 150 * 6.25 + 8_000 * 0.5 + 120 * 25) / 1e6
BLOG_AGENT_COST = (8 + 3_000 * 1.25 + 30 * 5 + 1 + 100 * 1.25 + 3_000 * 0.1 + 20 * 5) / 1e6
GONE_COST = (3 * 5 + 1_000 * 10 + 10 * 25) / 1e6  # Opus 4.6, a 1-hour write at 10
# gpt-5.4: 2.5 uncached input, 0.25 cached, 15 output (reasoning included in the output tokens)
CODEX_COST = ((23_829 - 2_432) * 2.5 + 2_432 * 0.25 + 386 * 15 + (24_348 - 24_000) * 2.5 + 24_000 * 0.25
              + 45 * 15) / 1e6
# gemini-2.5-pro: 1.25 uncached, 0.125 cached, 10 output; 2.5-flash: 0.3, 0.03, 2.5; thoughts are output
GEMINI_COST = (8_365 * 1.25 + 160 * 10 + 1_937 * 1.25 + 8_000 * 0.125 + 35 * 10
               + 1_529 * 0.3 + 9_000 * 0.03 + 90 * 2.5 + 15_700 * 0.3 + 100_000 * 0.03 + 9 * 2.5) / 1e6
GEMINI_AGENT_COST = (4_000 * 0.3 + 20 * 2.5) / 1e6


@pytest.fixture(scope="module")
def rows():
    return analyse(discover(MIXED)).rows


def test_every_subagent_follows_the_session_that_ran_it(rows):
    assert [(row["session"], row["kind"], row["subagent_of"]) for row in rows] == [
        (BLOG, "session", None), ("agent-5c7d9e1f", "subagent", BLOG),
        ("agent-a0f1e2d3c4b5a6978", "subagent", GONE),  # its session is not here: it keeps its place
        (SHOP, "session", None), ("agent-a3f9c1d2e4b5a6978", "subagent", SHOP),
        ("019d2308-0000-7000-8000-00000000aa01", "session", None),
        (TODO, "session", None), ("k3x9qa", "subagent", TODO)]
    by_session = {row["session"]: row for row in rows}
    assert by_session["agent-5c7d9e1f"]["parent_path"] == f"claude/projects/-home-dev-blog/{BLOG}.jsonl"
    assert by_session["agent-a3f9c1d2e4b5a6978"]["parent_path"] == f"claude/projects/-home-dev-shop/{SHOP}.jsonl"
    assert by_session["k3x9qa"]["parent_path"].endswith("/chats/session-2026-02-23T08-58-c9da8256.json")
    assert by_session["agent-a0f1e2d3c4b5a6978"]["parent_path"] is None
    assert all(row["error"] is None for row in rows)


def test_every_row_has_its_format_calls_and_recorded_cost(rows):
    assert [(row["format_title"], row["model_calls"]) for row in rows] == [
        ("Claude Code", 2), ("Claude Code", 2), ("Claude Code", 1), ("Claude Code", 2), ("Claude Code", 3),
        ("Codex CLI", 2), ("Gemini CLI", 4), ("Gemini CLI", 1)]
    assert [row["recorded_cost_usd"] for row in rows] == pytest.approx([
        BLOG_COST, BLOG_AGENT_COST, GONE_COST, SHOP_COST, SHOP_AGENT_COST, CODEX_COST, GEMINI_COST,
        GEMINI_AGENT_COST])
    assert all(row["cost_usd"] > 0 for row in rows)  # what the settings would send, beside it
    assert all(row["price_notes"] == [] for row in rows)  # every model is in the price table


def test_a_model_the_price_table_lacks_is_named_on_its_row(tmp_path):
    (tmp_path / "s.jsonl").write_text((MIXED / "claude/projects/-home-dev-blog" / f"{BLOG}.jsonl").read_text(
        encoding="utf-8").replace("claude-opus-4-5-20251101", "glm-4.7"), encoding="utf-8")
    [row] = analyse(discover(tmp_path)).rows
    assert row["price_notes"] == ["glm-4.7 is not in the price table: priced at the settings' prices"]
    assert row["recorded_cost_usd"] > 0  # never $0 for want of a price


def test_a_session_counts_its_subagents_and_their_cost(rows):
    family = {row["session"]: (row["subagents"], row["recorded_cost_with_subagents_usd"]) for row in rows}
    assert family[BLOG] == (1, pytest.approx(BLOG_COST + BLOG_AGENT_COST))
    assert family[SHOP] == (1, pytest.approx(SHOP_COST + SHOP_AGENT_COST))
    assert family[TODO] == (1, pytest.approx(GEMINI_COST + GEMINI_AGENT_COST))
    assert family["019d2308-0000-7000-8000-00000000aa01"] == (0, pytest.approx(CODEX_COST))
    assert family["agent-5c7d9e1f"] == (None, None)  # a subagent has no subagents of its own here


def test_projects_follow_where_each_agent_keeps_its_sessions(rows):
    gemini = "56cfacee57fb9791a4f38e595662752e07022cdeb39cd7127005427d7361037b"  # the folder holding chats/
    assert [row["project"] for row in rows] == [
        "-home-dev-blog", "-home-dev-blog", "-home-dev-shop", "-home-dev-shop", "-home-dev-shop",
        "-home-dev-notes",  # the rollout's working directory, named as Claude Code names it
        gemini, gemini]


@pytest.mark.parametrize(("relative", "found"), [
    ("-home-dev-shop/s-1/subagents/agent-a1.jsonl", ("subagent", "s-1")),
    ("projects/-home-dev-shop/s-1.jsonl", (None, None)),
    ("-home-dev-shop/agent-a1.jsonl", (None, None)),  # 2.0's sibling: only its lines say
    ("notes/subagents/summary.jsonl", (None, None)),
])
def test_what_the_path_alone_says(relative, found):
    assert from_path(relative) == found


def row(path, session, kind="session", parent=None, project="p", cost=None, error=None):
    return {"path": path, "session": session, "kind": kind, "subagent_of": parent, "project": project,
            "recorded_cost_usd": cost, "parent_path": None, "subagents": None,
            "recorded_cost_with_subagents_usd": None, "error": error}


def test_a_session_kept_twice_gets_its_subagent_in_the_nearest_copy():
    rows = [row("backup/p/s-1.jsonl", "s-1", cost=1.0), row("p/s-1.jsonl", "s-1", cost=1.0),
            row("p/s-1/subagents/agent-a.jsonl", "agent-a", "subagent", "s-1", cost=0.25)]
    ordered = attach(rows)
    assert [item["path"] for item in ordered] == ["backup/p/s-1.jsonl", "p/s-1.jsonl", "p/s-1/subagents/agent-a.jsonl"]
    assert ordered[2]["parent_path"] == "p/s-1.jsonl"
    assert (ordered[1]["subagents"], ordered[1]["recorded_cost_with_subagents_usd"]) == (1, 1.25)
    assert (ordered[0]["subagents"], ordered[0]["recorded_cost_with_subagents_usd"]) == (0, 1.0)


def test_an_unreadable_subagent_is_still_placed_and_a_session_without_usage_stays_unpriced():
    rows = [row("p/s-1/subagents/agent-a.jsonl", "agent-a", "subagent", "s-1", error="cut off"),
            row("p/s-2.jsonl", "s-2"), row("p/s-1.jsonl", "s-1"),
            row("p/agent-b.jsonl", "agent-b", "subagent", "s-2", cost=0.5)]
    ordered = attach(rows)
    assert [item["session"] for item in ordered] == ["s-2", "agent-b", "s-1", "agent-a"]
    assert ordered[1]["parent_path"] == "p/s-2.jsonl" and ordered[3]["parent_path"] == "p/s-1.jsonl"
    by_session = {item["session"]: item for item in ordered}
    assert by_session["s-1"]["subagents"] == 1 and by_session["s-1"]["recorded_cost_with_subagents_usd"] is None
    assert by_session["s-2"]["recorded_cost_with_subagents_usd"] == 0.5  # its subagent's recorded cost alone
