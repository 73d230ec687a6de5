"""AppTest fixtures: the whole app (app.py with its navigation) on a per-test output store."""

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import dashboard.ui.client
from tests.corpus.conftest import write_small_corpus

from .serving import AGENT_LOGS, CASES

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "sample_data"
TIMEOUT = 60


@pytest.fixture(autouse=True)
def session_store(monkeypatch, tmp_path) -> Path:
    """Every test's persisted outputs go to its own folder; no Anthropic key from the shell."""
    root = tmp_path / "store"
    monkeypatch.setenv("COMPACTION_STORE_ROOT", str(root))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    return root


@pytest.fixture
def remote_browser(monkeypatch):
    """The browser is on another machine (TEST-NET-1): the one function the dashboard reads its address
    from is replaced, as AppTest cannot set st.context.ip_address."""
    monkeypatch.setattr(dashboard.ui.client, "client_address", lambda: "192.0.2.7")


@pytest.fixture
def agent_home(tmp_path, monkeypatch) -> Path:
    """The server's home (HOME) with a Claude Code log in ~/.claude/projects and a Codex CLI one in
    ~/.codex/sessions (serving.CLAUDE_LOG, serving.CODEX_LOG)."""
    home = tmp_path / "home"
    for relative, case in AGENT_LOGS:
        (home / relative).parent.mkdir(parents=True)
        (home / relative).write_bytes((CASES / case).read_bytes())
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.fixture(scope="module")
def served_corpus(tmp_path_factory) -> Path:
    return write_small_corpus(tmp_path_factory.mktemp("served") / "corpus")


def start_app() -> AppTest:
    return AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT).run()


@pytest.fixture
def app() -> AppTest:
    """The app after its first run (the Conversation page on the default sample)."""
    return start_app()


def open_page(at: AppTest, name: str) -> AppTest:
    return at.switch_page(f"app_pages/{name}.py").run()


def chart_spec(at: AppTest, index: int = 0) -> dict:
    return json.loads(at.get("plotly_chart")[index].proto.spec)


def waterfall_steps(at: AppTest) -> dict[str, float]:
    """The Pipeline page's waterfall as {layer: step}: 'input' and 'final' sizes, and each layer's change."""
    y = chart_spec(at, 0)["data"][0]["y"]
    return dict(zip(("input", "L3", "L1", "L2", "L4", "final"), y, strict=True))


def fate_counts(at: AppTest) -> dict[str, int]:
    """The Pipeline page's fate strip as {fate: number of messages}."""
    return {trace["name"].split(":")[0]: len(trace["x"]) for trace in chart_spec(at, 1)["data"]}


def metrics(at: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def no_exception(at: AppTest) -> bool:
    return not at.exception
