#!/usr/bin/env python3
"""Compares a Soufflé run of bench/to_souffle.py's translation with the refract analyze run
it was translated from (bench/peers.sh).

    peer_check.py REFRACT_OUT SOUFFLE_OUTPUT_DIR [--sizes SOUFFLE_STDOUT]

REFRACT_OUT is the folder of `refract analyze --out` (reachable-methods.txt, call-edges.tsv,
stats.json, facts/ with M.map and I.map); SOUFFLE_OUTPUT_DIR holds ReachableMethod.csv and
CallGraphEdge.csv (element numbers). Prints one line: `same` when the reachable methods and
the call edges are identical (and, with --sizes, every relation size Soufflé printed equals
refract's), else `DIFFER` with what differs; then up to five samples of each difference.
Exit status 0 when the same, 1 when not.
"""

import argparse
import json
import os
import sys


def map_lines(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f]


def read_numbers(path):
    with open(path) as f:
        return [tuple(int(x) for x in line.rstrip("\n").split("\t")) for line in f if line.strip()]


def read_lines(path):
    with open(path) as f:
        return {line.rstrip("\n") for line in f if line.strip()}


def souffle_sizes(path):
    """NAME<TAB>COUNT lines of .printsize, as the compiled program prints them."""
    sizes = {}
    with open(path) as f:
        for line in f:
            parts = line.split("\t")
            if len(parts) == 2 and parts[1].strip().isdigit():
                sizes[parts[0].strip()] = int(parts[1])
    return sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("refract_out")
    ap.add_argument("souffle_dir")
    ap.add_argument("--sizes", help="Soufflé's standard output with its .printsize lines")
    args = ap.parse_args()
    facts = os.path.join(args.refract_out, "facts")
    methods = map_lines(os.path.join(facts, "M.map"))
    invokes = map_lines(os.path.join(facts, "I.map"))
    s_methods = {methods[t[0]] for t in read_numbers(
        os.path.join(args.souffle_dir, "ReachableMethod.csv"))}
    s_edges = {"%s\t%s" % (invokes[t[0]], methods[t[1]]) for t in read_numbers(
        os.path.join(args.souffle_dir, "CallGraphEdge.csv"))}
    r_methods = read_lines(os.path.join(args.refract_out, "reachable-methods.txt"))
    r_edges = read_lines(os.path.join(args.refract_out, "call-edges.tsv"))
    problems, samples = [], []
    for what, r, s in (("methods", r_methods, s_methods), ("edges", r_edges, s_edges)):
        only_r, only_s = sorted(r - s), sorted(s - r)
        if only_r or only_s:
            problems.append("%s: %d only refract, %d only souffle" % (what, len(only_r),
                                                                      len(only_s)))
            samples += ["  only refract: " + x for x in only_r[:5]]
            samples += ["  only souffle: " + x for x in only_s[:5]]
    if args.sizes:
        with open(os.path.join(args.refract_out, "stats.json")) as f:
            r_sizes = json.load(f)["relations"]
        s_sizes = souffle_sizes(args.sizes)
        if not s_sizes:
            problems.append("no relation sizes in %s" % args.sizes)
        for name, n in sorted(s_sizes.items()):
            if name not in r_sizes:
                problems.append("%s: no size in refract's stats.json" % name)
            elif int(r_sizes[name]) != n:
                problems.append("%s: refract %s, souffle %d" % (name, r_sizes[name], n))
    if problems:
        print("DIFFER " + "; ".join(problems))
        for s in samples:
            print(s)
        return 1
    print("same (%d methods, %d edges%s)" % (len(r_methods), len(r_edges),
                                            ", %d relation sizes" % len(s_sizes)
                                            if args.sizes else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
