"""`python -m compaction strategies [NAME] [--json]`: every strategy of the registry with its
parameters, defaults, bounds and sources; and the `--strategy NAME --param KEY=VALUE` flags that
replay and sweep share."""

import argparse
import textwrap

from compaction.cli.common import add_json_flag, write_json
from compaction.strategies import REGISTRY, Built, build, lookup
from compaction.strategies.docs import render_markdown
from compaction.strategies.params import Param
from compaction.strategies.spec import StrategySpec


def add_strategy_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--strategy", default="pipeline", metavar="NAME",
                        help="how the history is kept small: one of the names `python -m compaction strategies` "
                             "lists (default: pipeline, the tutorial's four layers)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a parameter of the strategy, e.g. --param trigger=100000 (repeat for more)")


def strategy_from(args: argparse.Namespace) -> Built:
    """The step function the flags ask for; SettingsError names an unknown strategy, parameter or value."""
    spec = lookup(args.strategy)
    return build(spec.name, spec.parse(args.param))


def add_command(subparsers) -> None:
    command = subparsers.add_parser("strategies", help="list every compaction strategy with its parameters, "
                                    "defaults and sources")
    command.add_argument("name", nargs="?", help="show only this strategy")
    add_json_flag(command, "text")
    command.add_argument("--markdown", action="store_true", help="print docs/strategies.md")
    command.set_defaults(handler=command_strategies)


def command_strategies(args: argparse.Namespace) -> int:
    specs = [lookup(args.name)] if args.name else list(REGISTRY.values())
    if args.markdown:
        print(render_markdown(specs), end="")
    elif args.json:
        write_json({"strategies": [spec.as_dict() for spec in specs]}, None)
    else:
        print("\n\n".join(describe(spec) for spec in specs))
    return 0


def _value(param: Param, value) -> str:
    if param.kind == "names":
        return ",".join(value) or "(none)"
    if param.kind == "bool":
        return "true" if value else "false"
    if param.kind == "text":
        return repr(value)
    return f"{value:,}" if param.kind == "int" else f"{value:g}"


def describe(spec: StrategySpec) -> str:
    wrap = textwrap.TextWrapper(width=100, initial_indent="  ", subsequent_indent="  ")
    lines = [f"{spec.name}: {spec.title} ({spec.family})", wrap.fill(spec.description)]
    if spec.params:
        lines.append("  parameters" + (" (not given: the setting of the same name)" if spec.from_settings else "")
                     + ":")
    param_wrap = textwrap.TextWrapper(width=100, initial_indent="    ", subsequent_indent="        ")
    for param in spec.params:
        unit = f" {param.unit}" if param.unit and param.kind in ("int", "float") else ""
        lines.append(param_wrap.fill(f"{param.name} = {_value(param, param.default)}{unit}  [{param.describe()}] "
                                     f"{param.help}"))
    for source in spec.sources:
        lines.append(f"  source: {source.label}" + (f" <{source.url}>" if source.url else ""))
    for fact in spec.reverse_engineered:
        lines.append(textwrap.fill(f"known only from reverse engineering: {fact}", width=100, initial_indent="  ",
                                   subsequent_indent="    "))
    return "\n".join(lines)
