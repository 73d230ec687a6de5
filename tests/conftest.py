"""Shared fixtures. `fake_anthropic`: a local Messages API server (see tests/fake_anthropic.py);
`browser_on_this_machine` (every test): the dashboard's browser is on this machine, nothing allowed by the
shell's variables."""

import socket

import pytest

import dashboard.ui.client
from compaction.access import SCHEDULERS_ENV, SESSION_FOLDERS_ENV
from tests.fake_anthropic import FakeAnthropic

# Anthropic settings from the developer's shell must not leak into tests (a real key, a proxy URL).
_ANTHROPIC_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE",
                  "ANTHROPIC_CUSTOM_HEADERS", "COMPACTION_CLAUDE_MODEL")


@pytest.fixture(autouse=True)
def browser_on_this_machine(monkeypatch):
    """AppTest gives `st.context.ip_address` as a mock, which the dashboard takes for another machine's
    browser: every test is a browser on this machine (no address, as Streamlit gives through localhost)
    unless it replaces `client_address` again (tests/app/test_serving_others.py). The allow-lists of the
    shell that runs the tests are left out."""
    monkeypatch.setattr(dashboard.ui.client, "client_address", lambda: None)
    monkeypatch.delenv(SESSION_FOLDERS_ENV, raising=False)
    monkeypatch.delenv(SCHEDULERS_ENV, raising=False)


@pytest.fixture
def fake_anthropic(monkeypatch, tmp_path):
    """A running FakeAnthropic on 127.0.0.1 (`.url`, `.requests`, `.reply()`, `.error()`, ...).

    The ANTHROPIC_* variables are cleared and the SDK's config dir is an empty temporary one.
    """
    for name in _ANTHROPIC_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_CONFIG_DIR", str(tmp_path / "anthropic-config"))
    server = FakeAnthropic()
    yield server
    server.close()


@pytest.fixture
def free_port() -> int:
    """A 127.0.0.1 port that nothing listens on (bound then released), for connection-refused tests."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
