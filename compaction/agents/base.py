"""What an agent's package gives the lab, in one object, and how it is entered into the tables the lower
layers own. Each part is optional: an agent whose log cannot be followed has no live reader, one without a
compaction of its own no preset.
"""

from dataclasses import dataclass

from compaction.compactions import carried as carried_table
from compaction.compactions.carried import CarriedReader
from compaction.corpus import homes as home_table
from compaction.corpus import subagents as subagent_table
from compaction.corpus.homes import Home
from compaction.corpus.subagents import SubagentRule
from compaction.export import register as register_form
from compaction.export.base import Form
from compaction.generate import writers as writer_table
from compaction.generate.writers import LogWriter
from compaction.importers import formats as format_table
from compaction.importers import usage
from compaction.importers.formats import Format
from compaction.live import formats as live_table
from compaction.live import rules as rule_table
from compaction.live.formats import LiveFormat
from compaction.live.rules import RuleForm
from compaction.measures import windows as window_table
from compaction.measures.windows import ModelWindow
from compaction.model import markers
from compaction.strategies import register as register_strategy
from compaction.strategies.knobs import Knob
from compaction.strategies.spec import StrategySpec
from compaction.summarizers import injected as injected_table
from compaction.summarizers.injected import InjectedText


@dataclass(frozen=True)
class Agent:
    name: str  # one name everywhere: its format, its own preset, the CLI's choices, the pages
    title: str  # for people: "Claude Code"
    formats: tuple[Format, ...]  # the files of it the lab reads (the first is its own log)
    presets: tuple[StrategySpec, ...] = ()  # the strategies it offers (its own rule among them)
    own_preset: str | None = None  # the preset that replays the agent's own compaction rule, if it has one
    knobs: tuple[Knob, ...] = ()  # the own preset's parameters Tune sweeps (one: a line; two: a grid)
    rules: tuple[RuleForm, ...] = ()  # its presets' rules as the live forecast needs them
    live: LiveFormat | None = None  # how its log is followed while it is written
    forms: tuple[Form, ...] = ()  # the export forms its settings take
    homes: tuple[Home, ...] = ()  # where it keeps its logs on a person's machine
    summary_prefixes: tuple[str, ...] = ()  # how the summary messages its compaction writes open
    placeholders: tuple[str, ...] = ()  # how the texts it leaves for a dropped tool result open
    injected: tuple[InjectedText, ...] = ()  # the lines it writes into the person's turn
    subagents: tuple[SubagentRule, ...] = ()  # how its subagents' logs are recognised
    writer: LogWriter | None = None  # a writer of its log, for samples and generated corpora
    no_call_models: tuple[str, ...] = ()  # model names its log gives responses it wrote itself
    windows: tuple[ModelWindow, ...] = ()  # the windows it runs models at, where they are its own
    carried_on: CarriedReader | None = None  # what its compactions carried on, read from its own records


def register(agent: Agent) -> Agent:
    """Enter every part of `agent` into the table that owns it."""
    for entry in agent.formats:
        format_table.register(entry)
    for spec in agent.presets:
        register_strategy(spec)
    for form in agent.rules:
        rule_table.register(form)
    if agent.live is not None:
        live_table.register(agent.live)
    for export_form in agent.forms:
        register_form(export_form)
    for home in agent.homes:
        home_table.register(home)
    for prefix in agent.summary_prefixes:
        markers.register_summary_prefix(prefix)
    for opening in agent.placeholders:
        markers.register_placeholder(opening)
    for text in agent.injected:
        injected_table.register(text)
    for rule in agent.subagents:
        subagent_table.register(rule)
    if agent.writer is not None:
        writer_table.register(agent.writer)
    for model in agent.no_call_models:
        usage.register_no_call_model(model)
    for row in agent.windows:
        window_table.register(row)
    if agent.carried_on is not None:
        for entry in agent.formats:
            carried_table.register(entry.name, agent.carried_on)
    return agent
