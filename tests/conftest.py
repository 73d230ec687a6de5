"""Shared fixtures. `fake_anthropic`: a local Messages API server (see tests/fake_anthropic.py)."""

import socket

import pytest

from tests.fake_anthropic import FakeAnthropic

# Anthropic settings from the developer's shell must not leak into tests (a real key, a proxy URL).
_ANTHROPIC_ENV = ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL", "ANTHROPIC_PROFILE",
                  "ANTHROPIC_CUSTOM_HEADERS", "COMPACTION_CLAUDE_MODEL")


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
