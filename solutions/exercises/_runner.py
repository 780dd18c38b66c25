"""The command line every solution file shares: ``python solutions/exercises/<chapter>.py [--quick] [N ...]``."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Mapping
from typing import Any

Exercise = Callable[..., dict[str, Any]]


def main(exercises: Mapping[int, Exercise], argv: list[str] | None = None) -> None:
    """Run the chosen exercises (all by default) and print each one's results and seconds."""
    parser = argparse.ArgumentParser(description="Run instructor solutions to a chapter's exercises.")
    parser.add_argument("numbers", nargs="*", type=int, help="exercises to run (default: all)")
    parser.add_argument("--quick", action="store_true", help="tiny configurations, seconds each")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.numbers) - set(exercises))
    if unknown:
        parser.error(f"no exercise {unknown}; this chapter has {sorted(exercises)}")
    for number in args.numbers or sorted(exercises):
        start = time.process_time()
        results = exercises[number](quick=args.quick)
        print(f"exercise {number} ({time.process_time() - start:.1f} s of CPU):")
        print(json.dumps(results, indent=2, default=str))
