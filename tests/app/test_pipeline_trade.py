"""Issue 29: Pipeline's headline tells the trade, and for a real log the first suggestion is the agent's own
regime, one click away; a generic conversation (the tutorial's demo) gets none."""

from compaction.importers import load_conversation
from compaction.measures import log_window
from compaction.model import prepare
from dashboard.render import agent_regime
from dashboard.ui import state

from .conftest import SAMPLES, metrics, open_page, start_app
from .test_conversation_page import upload

LONG = SAMPLES / "claude_code_long_session.jsonl"


def test_a_real_log_is_offered_its_agents_regime_and_the_trade_is_told(app):
    at = upload(app, LONG.name, LONG.read_bytes())
    at = open_page(at, "pipeline")
    assert not at.exception
    trade = next(m.value for m in at.markdown if m.value.startswith("**One pass saves "))
    assert "dropped with no summary (L1)" in trade and "Claude Code wrote" in trade
    assert " of " in metrics(at)["Kept whole, one pass"]
    assert any(m.value.startswith("**Start from Claude Code's own regime.**") for m in at.markdown)
    at.button(key="pipeline_agent_regime").click().run()
    conversation = load_conversation(LONG)
    window = log_window(conversation.usage, conversation.metadata).tokens  # the log's own, as the page's
    expected = agent_regime.regime(prepare(conversation), window,
                                   {spec.field: spec.maximum for spec in state.SLIDERS}).values  # at the defaults
    assert at.number_input(key="CONTEXT_LIMIT").value == expected["context_limit"]
    assert at.number_input(key="KEEP_RECENT").value == expected["keep_recent"]
    assert at.number_input(key="MAX_MESSAGES").value == expected["max_messages"]
    assert any("The sidebar holds Claude Code's own regime." in s.value for s in at.success)
    assert not at.exception


def test_pipeline_and_tune_offer_one_regime(app):
    """Issue 37: Pipeline's "Use Claude Code's regime" and Tune's "Use the agent's regime" set the same
    CONTEXT_LIMIT (they set 535,900 and 518,800 on this log), and Replay then summarises first at the call
    right after the log's own first compaction."""
    limits = []
    for page, button in (("pipeline", "pipeline_agent_regime"), ("tune", "tune_agent_regime")):
        at = open_page(upload(start_app(), LONG.name, LONG.read_bytes()), page)
        if page == "tune":
            at.radio(key="tune_what_claude-code").set_value("pipeline").run()
        at.button(key=button).click().run()
        assert not at.exception
        limits.append(at.number_input(key="CONTEXT_LIMIT").value)
    assert limits == [518_800, 518_800]


def test_the_tutorials_demo_gets_no_agent_suggestion(app):
    at = open_page(app, "pipeline")
    assert not any("own regime" in m.value for m in at.markdown)
    assert any(m.value.startswith("**One pass saves ") for m in at.markdown)
