"""Every agent the lab knows, one package each: its readers (whole file and live lines), its recognition,
its home folders, its title, its usage and model fields, its preset and compaction rule with the forecast's
hooks, its export form and its summary markers (base.Agent lists the parts).

The registry below lists the agents; importing it enters each agent's parts into the tables that the
lower layers own (formats, strategies, live readers and rules, export forms, home folders, markers), so
no module outside this package names an agent. A new agent is one package and one line here.
"""

from importlib import import_module

from compaction.agents.base import Agent, register

PACKAGES = (
    "claude_code",
    "codex",
    "gemini_cli",
    "openhands",
    "swe_agent",
    "aider",
    "cline",
    "opencode",
    "crush",
    "goose",
    "cursor",
    "copilot_cli",
    "pi",
)
AGENTS: tuple[Agent, ...] = tuple(register(agent) for package in PACKAGES  # a package may give several (AGENTS)
                                  for agent in getattr(import_module(f"{__name__}.{package}"), "AGENTS", None)
                                  or (import_module(f"{__name__}.{package}").AGENT,))
_BY_NAME = {agent.name: agent for agent in AGENTS}
_BY_FORMAT = {entry.name: agent for agent in AGENTS for entry in agent.formats}


def agent(name: str) -> Agent | None:
    """The agent of that name, or None."""
    return _BY_NAME.get(name)


def agent_of(format: str | None) -> Agent | None:
    """The agent whose log a conversation of `format` is, or None for a generic format."""
    return _BY_FORMAT.get(format or "")


__all__ = ["AGENTS", "Agent", "agent", "agent_of"]
