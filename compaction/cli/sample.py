"""`compaction sample seed-demo`: write a built-in sample conversation."""

import argparse
from pathlib import Path

from compaction.cli.common import write_json


def add_command(subparsers) -> None:
    sample = subparsers.add_parser("sample", help="write a built-in sample conversation")
    sample.add_argument("name", choices=("seed-demo",), help="which sample")
    sample.add_argument("-o", "--output", type=Path, help="output file (default: standard output)")
    sample.set_defaults(handler=command_sample)


def command_sample(args: argparse.Namespace) -> int:
    from compaction.generate import generate

    write_json(generate(args.name), args.output)
    return 0


