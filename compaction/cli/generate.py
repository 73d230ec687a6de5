"""The `generate` subcommand: `python -m compaction generate --turns N --seed S -o FILE`.

Wired into compaction/cli/main.py with one line: `add_command(commands)`. The handler returns the
exit status; bad knobs raise SettingsError, which the CLI reports as one line with status 2.
"""

import argparse
import json
import sys
from pathlib import Path

from compaction.generate import KINDS, generate
from compaction.generate.openai_export import to_openai
from compaction.generate.writers import writer, writers


def output_formats() -> tuple[str, ...]:
    return ("anthropic", *(agent_writer.format for agent_writer in writers()), "openai")


def add_command(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("generate", help="write a generated conversation (reproducible per seed)")
    parser.add_argument("--kind", choices=KINDS, default="realistic", help="what to generate (default: realistic)")
    parser.add_argument("--turns", type=int, default=300, metavar="N", help="assistant turns (default 300)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    parser.add_argument("--typical-output", type=int, default=800, metavar="CHARS",
                        help="median tool output size in characters (default 800)")
    parser.add_argument("--max-output", type=int, default=100_000, metavar="CHARS",
                        help="largest tool output in characters (default 100,000)")
    parser.add_argument("--parallel-share", type=float, default=0.15, metavar="F",
                        help="share of turns with parallel tool calls, 0 to 1 (default 0.15)")
    parser.add_argument("--format", choices=output_formats(), default="anthropic",
                        help="file format to write (default: anthropic JSON)")
    parser.add_argument("--no-message-ids", dest="message_ids", action="store_false",
                        help="an agent's log format: leave out the response ids, as re-exported logs do")
    parser.add_argument("-o", "--output", type=Path, help="output file (default: standard output)")
    parser.set_defaults(handler=command_generate)
    return parser


def command_generate(args: argparse.Namespace) -> int:
    if args.kind == "seed-demo":
        messages = generate("seed-demo")
    else:
        messages = generate("realistic", turns=args.turns, typical_output=args.typical_output,
                            max_output=args.max_output, parallel_share=args.parallel_share, seed=args.seed)
    text = render(messages, args.format, args.seed, args.message_ids)
    if args.output is None:
        sys.stdout.write(text)
    else:
        args.output.write_text(text, encoding="utf-8")
        print(f"wrote {len(messages):,} messages ({len(text.encode()) / 1000:,.0f} KB, {args.format}) "
              f"to {args.output}", file=sys.stderr)
    return 0


def render(messages: list[dict], output_format: str, seed: int = 0, message_ids: bool = True) -> str:
    """The text of a file holding `messages` in `output_format`."""
    agent_writer = writer(output_format)
    if agent_writer is not None:
        return agent_writer.render(messages, seed, message_ids)
    value = to_openai(messages) if output_format == "openai" else messages
    return json.dumps(value, ensure_ascii=False) + "\n"
