#!/usr/bin/env python3
"""Prints the rules a --rule-stats/--stats profile blames: the five slowest, with evaluations,
seconds per step (and of its products, by the side that changed), and the solver's own
overheads. Usage: top_rules.py FILE [N]"""
import json
import sys


def main():
    stats = json.load(open(sys.argv[1]))
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    if "stopped" in stats:
        print("stopped:", stats["stopped"])
    engine = stats.get("engine", {})
    print("    solve %.1f s; engine: %s" % (
        stats.get("phases", {}).get("solve", 0),
        ", ".join("%s %.1f" % (k, v) for k, v in engine.items() if isinstance(v, float))))
    for rule in sorted(stats["rules"], key=lambda r: -r["seconds"])[:count]:
        steps = " ".join("%.1f" % s for s in rule.get("step_seconds", []))
        print("    %7.1f s  %5d evaluations  steps [%s]  %s" % (
            rule["seconds"], rule["evaluations"], steps, rule["rule"][:110]))
        # The steps' semi-naive products by the side that changed: the step's atom or the prefix.
        if "step_atom_delta_seconds" in rule:
            print("                 atom changed [%s]  prefix changed [%s]" % tuple(
                " ".join("%.1f" % s for s in rule[key])
                for key in ("step_atom_delta_seconds", "step_prefix_delta_seconds")))


if __name__ == "__main__":
    main()
