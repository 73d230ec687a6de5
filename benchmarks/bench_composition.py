"""What fills the context, along a replay: the composition of every call (with the strategy, and without
compaction) against the replay that made the histories, as a ratio.

    .venv/bin/python benchmarks/bench_composition.py [--file sample_data/realistic_session.json]
                                                     [--strategies pipeline,masking,as-recorded] [--repeat 3]

The default file is the 500-call sample. The Replay page draws both stacked areas from these figures, so
a ratio well under 1 means the picture costs less than the replay it shows. Best of --repeat; the
composer (each original message measured once) is built inside the first timing, as on a first visit.
"""

import argparse
from pathlib import Path

from bench_pipeline import best  # the best of --repeat timings, as the other benchmarks take it

from compaction.importers import load_conversation
from compaction.measures import compositions_along, uncompacted_along
from compaction.model.history import prepare
from compaction.replay.loop import replay

REPO = Path(__file__).resolve().parents[1]




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=REPO / "sample_data" / "realistic_session.json")
    parser.add_argument("--strategies", default="pipeline,masking,as-recorded")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    history = prepare(load_conversation(args.file))
    for strategy in args.strategies.split(","):
        result = replay(history, strategy=strategy)
        replay_s = best(lambda strategy=strategy: replay(history, strategy=strategy), args.repeat)
        along_s = best(lambda result=result: (compositions_along(result), uncompacted_along(result)), args.repeat)
        print(f"{strategy}: {len(result.calls):,} calls; replay {replay_s:.3f} s, composition of every call with "
              f"and without compaction {along_s:.3f} s: {along_s / replay_s:.2f} of the replay")


if __name__ == "__main__":
    main()
