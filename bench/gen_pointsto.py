#!/usr/bin/env python3
"""Generates synthetic inputs for a context-insensitive, field-sensitive
Andersen points-to analysis (relations vP0, assign, load, store; derived vP
and hP), shaped like the facts a Java front end extracts from a real program,
plus the Datalog program that solves them.

    gen_pointsto.py --heap H [--vars V] [--seed S] [knobs] OUT_DIR
    gen_pointsto.py --preset bddbddb [knobs] OUT_DIR
    gen_pointsto.py ... --solve       (also solve in Python and print sizes)

OUT_DIR receives andersen.datalog, the four input .tuples files and
params.txt (every parameter used, and the sizes of the inputs).

The model (all draws from seeded random.Random streams, so a seed and a
parameter set always give the same files):
  * Types: --class-ratio classes per allocation site (at least 8), drawn with
    Zipf popularity (exponent --class-zipf), plus java.lang.Object. Each class
    declares 1..8 fields (geometric), each with a declared type; a share
    --object-vars of fields and locals is typed Object.
  * Methods: consecutive ranges of variables, numbered method by method as a
    front end numbers locals. Sizes are Pareto: floor(2 u^(-1/A)) with A =
    --method-alpha (1.5), capped at --method-max (256): most methods have a
    few locals, a few have hundreds. The first 1..4 locals are parameters
    (the first one `this`), the last one holds the returned value. A method
    works with a palette of 2..5 types; its locals take palette types.
  * Allocation sites go to methods in proportion to their size, are numbered
    in method order, and each defines (vP0) one non-parameter local.
  * Every other non-parameter local gets one definition: with probability
    --return-param the return variable copies a parameter (builders,
    setters); otherwise a copy from a local of a compatible type
    (--def-copy), a field load (--def-load), a cast of an Object local
    (--casts), or else the result of a call.
  * Calls: the callee returns a compatible type and is drawn by popularity
    from a power law (rank = n u^S, S = --callee-skew): a few utility
    methods have thousands of callers, as library methods do. A call assigns
    a compatible caller local to each callee parameter and the callee's
    return variable to the defined local. Being context-insensitive, popular
    callees merge the values of all their callers: this makes points-to sets
    heavy-tailed. Besides, --void-calls calls per variable whose result is
    unused come from a stream of their own, so raising --void-calls only
    adds facts and the solution only grows (the knob the preset is tuned
    with).
  * Stores: --stores per variable, into a field of a local's class, from a
    compatible local.

The `bddbddb` preset has the shape of bddbddb's classic context-insensitive
Java points-to workload: 2^16 variables, 2^14 allocation sites, and |vP|
near 4.5 million after solving. Only --void-calls (0.95) and --seed (5) are
tuned, giving |vP| = 4,329,669 and |hP| = 2,831,227; every other knob keeps
its default (bench/README.md tells how they were chosen). The generated
program's .bddvarorder is F0_V0_V1_H0_H1 (bench/README.md has the orders
measured).
"""

import argparse
import bisect
import math
import os
import random
import sys
from collections import defaultdict

DEFAULTS = dict(method_alpha=1.5, method_max=256, class_ratio=0.05,
                class_zipf=1.0, object_vars=0.15, def_copy=0.35,
                def_load=0.2, casts=0.05, callee_skew=3.0, void_calls=0.1, return_param=0.3,
                stores=0.08, seed=1)

# 2^16 variables, 2^14 heap objects; --void-calls and --seed tuned to give |vP| ~ 4.5M
# (bench/README.md, "Tuning the bddbddb preset").
PRESETS = {
    "bddbddb": dict(vars=1 << 16, heap=1 << 14, void_calls=0.95, seed=5),
}

OBJECT = 0  # the type that accepts every object (java.lang.Object)


def bits(size):
    return max(1, math.ceil(math.log2(size))) if size > 1 else 1


class Zipf:
    """Draws ranks 0..n-1 with P(r) proportional to 1/(r+1)^s, mapped through
    a random permutation so popular elements are spread over the numbering."""

    def __init__(self, n, s, rng, first=0):
        acc, cum = 0.0, []
        for r in range(1, n + 1):
            acc += 1.0 / r ** s
            cum.append(acc)
        self.cum, self.total = cum, acc
        self.perm = list(range(first, first + n))
        rng.shuffle(self.perm)
        self.rng = rng

    def draw(self):
        r = bisect.bisect_left(self.cum, self.rng.random() * self.total)
        return self.perm[min(r, len(self.perm) - 1)]


def generate(p):
    rng = random.Random(p.seed)
    V, H = p.vars, p.heap

    def below(n):
        return int(rng.random() * n)

    def pick(xs):
        return xs[below(len(xs))] if xs else None

    def skewed(xs):
        # the k-th element with probability ~ k^(-1+1/skew): a power law
        return xs[int(len(xs) * rng.random() ** p.callee_skew)] if xs else None

    def count(rate):
        # a non-integral expected count: integer part plus a Bernoulli draw
        whole = int(rate)
        return whole + (1 if rng.random() < rate - whole else 0)

    # Classes (type 0 is Object), with Zipf popularity, and their fields,
    # each with a declared type.
    n_classes = max(8, int(H * p.class_ratio))
    cls = Zipf(n_classes - 1, p.class_zipf, rng, first=1)

    def draw_type(palette=None):
        if rng.random() < p.object_vars:
            return OBJECT
        return pick(palette) if palette else cls.draw()

    fields_of = [[] for _ in range(n_classes)]
    field_type = []
    for c in range(1, n_classes):
        k = 1
        while k < 8 and rng.random() < 0.6:
            k += 1
        for _ in range(k):
            fields_of[c].append(len(field_type))
            field_type.append(draw_type())
    p.fields = len(field_type)

    # Methods: consecutive variable ranges with power-law sizes. A method
    # belongs to a class and works with a palette of 2..5 types (its class
    # and Zipf-drawn others); its locals have palette types or Object. The
    # first 1..4 variables are parameters (the first is `this`, typed by the
    # class), the last one is the returned variable.
    starts, sizes, nparams, palettes = [], [], [], []
    vtype = []
    v = 0
    while v < V:
        u = 1.0 - rng.random()
        size = min(p.method_max, int(2 * u ** (-1.0 / p.method_alpha)))
        size = max(1, min(size, V - v))
        k = 1
        while k < 4 and rng.random() < 0.5:
            k += 1
        palette = [cls.draw()]
        while len(palette) < 5 and (len(palette) < 2 or rng.random() < 0.5):
            palette.append(cls.draw())
        starts.append(v)
        sizes.append(size)
        nparams.append(min(k, size))
        palettes.append(palette)
        vtype.append(palette[0])
        vtype.extend(draw_type(palette) for _ in range(size - 1))
        v += size
    n_methods = len(starts)

    # Allocation sites: to methods in proportion to their size, numbered in
    # method order; each defines one non-parameter local, whose type is the
    # allocated class (a fresh class draw for an Object local).
    method_cum = []
    acc = 0
    for size in sizes:
        acc += size
        method_cum.append(acc)
    allocated = {}
    vP0 = []
    for m in sorted(bisect.bisect_right(method_cum, below(V)) for _ in range(H)):
        first = nparams[m] if sizes[m] > nparams[m] else 0
        x = starts[m] + first + below(sizes[m] - first)
        if vtype[x] == OBJECT:
            vtype[x] = cls.draw()
        allocated[x] = True
        vP0.append((x, len(vP0)))

    rets_by_type = defaultdict(list)
    for m in range(n_methods):
        rets_by_type[vtype[starts[m] + sizes[m] - 1]].append(m)
    all_methods = list(range(n_methods))
    for lst in list(rets_by_type.values()) + [all_methods]:
        rng.shuffle(lst)  # popularity order, independent of numbering

    assign, load, store = set(), set(), set()
    calls = [0]
    by_type_cache = {}

    def by_type(m):
        """The locals of method m by type."""
        by = by_type_cache.get(m)
        if by is None:
            by = defaultdict(list)
            for x in range(starts[m], starts[m] + sizes[m]):
                by[vtype[x]].append(x)
            by_type_cache[m] = by
        return by

    def source(m, t, r, exclude=None):
        """A local of method m whose values may flow into a variable of type
        t (any local for Object), drawn with random stream r."""
        if t == OBJECT:
            x = starts[m] + int(r.random() * sizes[m])
        else:
            xs = by_type(m).get(t)
            x = xs[int(r.random() * len(xs))] if xs else None
        return None if x == exclude else x

    def call(m, c, r, result=None):
        """A call in method m of method c: arguments to its parameters, and
        its return value to result if any."""
        calls[0] += 1
        for k in range(nparams[c]):
            a = source(m, vtype[starts[c] + k], r)
            if a is not None:
                assign.add((starts[c] + k, a))
        if result is not None and result != starts[c] + sizes[c] - 1:
            assign.add((result, starts[c] + sizes[c] - 1))

    for m in range(n_methods):
        lo, size = starts[m], sizes[m]
        by = by_type(m)
        with_fields = [x for x in range(lo, lo + size) if fields_of[vtype[x]]]
        # Every non-parameter local that no allocation defines gets one
        # definition: a copy, a field load, a cast or a call's result.
        for x in range(lo + nparams[m], lo + size):
            if x in allocated:
                continue
            t = vtype[x]
            if x == lo + size - 1 and rng.random() < p.return_param:
                # return this or an argument (builders, wrappers, setters)
                s = pick([a for a in range(lo, lo + nparams[m])
                          if t == OBJECT or vtype[a] == t])
                if s is not None:
                    assign.add((x, s))
                    continue
            r = rng.random()
            if r < p.def_copy:
                s = source(m, t, rng, exclude=x)
                if s is not None:
                    assign.add((x, s))
                    continue
            elif r < p.def_copy + p.def_load:
                cands = [(b, f) for b in with_fields for f in fields_of[vtype[b]]
                         if t == OBJECT or field_type[f] == t]
                if cands:
                    b, f = pick(cands)
                    load.add((b, f, x))
                    continue
            elif r < p.def_copy + p.def_load + p.casts:
                s = pick(by.get(OBJECT))  # x = (T) o, unchecked by Andersen
                if s is not None and s != x:
                    assign.add((x, s))
                    continue
            # x = c(...): a popular method returning x's type (any for Object)
            c = skewed(all_methods if t == OBJECT else rets_by_type.get(t))
            if c is not None:
                call(m, c, rng, x)
        for _ in range(count(p.stores * size)):
            b = pick(with_fields)
            if b is None:
                break
            f = pick(fields_of[vtype[b]])
            s = source(m, field_type[f], rng)
            if s is not None:
                store.add((b, f, s))

    # Calls whose result is unused, in methods drawn in proportion to their
    # size. They use a random stream of their own, so the k-th such call is
    # the same whatever their number: raising --void-calls only adds facts,
    # and the solution can only grow (the knob the bddbddb preset is tuned
    # with).
    vr = random.Random(p.seed * 1000003 + 17)
    for _ in range(int(p.void_calls * V)):
        m = bisect.bisect_right(method_cum, int(vr.random() * V))
        c = all_methods[int(n_methods * vr.random() ** p.callee_skew)]
        call(m, c, vr)
    return dict(methods=n_methods, classes=n_classes, calls=calls[0], vP0=vP0,
                assign=sorted(assign), load=sorted(load), store=sorted(store))


PROGRAM = """\
# Context-insensitive, field-sensitive Andersen points-to analysis over
# synthetic inputs written by bench/gen_pointsto.py ({desc}).
V {V}
H {H}
F {F}

.bddvarorder F0_V0_V1_H0_H1

# v = new ... at allocation site h
vP0 (variable : V, heap : H) inputtuples
# dest = source
assign (dest : V, source : V) inputtuples
# dest = base.field
load (base : V, field : F, dest : V) inputtuples
# base.field = source
store (base : V, field : F, source : V) inputtuples

vP (variable : V, heap : H) printsize
hP (base : H, field : F, target : H) printsize

vP(v, h) :- vP0(v, h).
vP(dest, h) :- assign(dest, source), vP(source, h).
hP(hb, f, h) :- store(base, f, source), vP(base, hb), vP(source, h).
vP(dest, h) :- load(base, f, dest), vP(base, hb), hP(hb, f, h).
"""


def write(out_dir, p, g):
    os.makedirs(out_dir, exist_ok=True)
    V, H, F = p.vars, p.heap, p.fields
    desc = ", ".join("%s=%s" % (k, getattr(p, k)) for k in
                     ["vars", "heap", "fields", "seed"])
    with open(os.path.join(out_dir, "andersen.datalog"), "w") as f:
        f.write(PROGRAM.format(desc=desc, V=V, H=H, F=F))
    cols = {"vP0": [("V0", V), ("H0", H)], "assign": [("V0", V), ("V1", V)],
            "load": [("V0", V), ("F0", F), ("V1", V)],
            "store": [("V0", V), ("F0", F), ("V1", V)]}
    for rel, c in cols.items():
        with open(os.path.join(out_dir, rel + ".tuples"), "w") as f:
            f.write("# " + " ".join("%s:%d" % (n, bits(s)) for n, s in c) + "\n")
            f.write("".join(" ".join(map(str, t)) + "\n" for t in g[rel]))
    with open(os.path.join(out_dir, "params.txt"), "w") as f:
        for k in ["vars", "heap", "fields"] + sorted(DEFAULTS):
            f.write("%s=%s\n" % (k, getattr(p, k)))
        f.write("methods=%d\n" % g["methods"])
        for rel in cols:
            f.write("|%s|=%d\n" % (rel, len(g[rel])))


def solve(V, g):
    """Reference solver: difference propagation over variables and
    (object, field) cells. Returns (|vP|, |hP|)."""
    pts = [0] * V
    delta = [0] * V
    succ = defaultdict(list)
    for d, s in g["assign"]:
        succ[s].append(d)
    loads_by_base = defaultdict(list)
    for b, f, d in g["load"]:
        loads_by_base[b].append((f, d))
    stores_by_base = defaultdict(list)
    stores_by_src = defaultdict(list)
    for b, f, s in g["store"]:
        stores_by_base[b].append((f, s))
        stores_by_src[s].append((b, f))
    cell = defaultdict(int)  # (h, f) -> points-to bitset
    readers = defaultdict(list)  # (h, f) -> variables loading it
    work = []

    def add(v, bitset):
        new = bitset & ~pts[v]
        if new:
            pts[v] |= new
            if not delta[v]:
                work.append(v)
            delta[v] |= new

    def add_cell(key, bitset):
        new = bitset & ~cell[key]
        if new:
            cell[key] |= new
            for d in readers[key]:
                add(d, new)

    def each(bitset):
        while bitset:
            low = bitset & -bitset
            yield low.bit_length() - 1
            bitset ^= low

    for v, h in g["vP0"]:
        add(v, 1 << h)
    while work:
        v = work.pop()
        d = delta[v]
        delta[v] = 0
        for w in succ.get(v, ()):
            add(w, d)
        for f, dst in loads_by_base.get(v, ()):
            for h in each(d):
                readers[(h, f)].append(dst)
                add(dst, cell.get((h, f), 0))
        for f, src in stores_by_base.get(v, ()):
            for h in each(d):
                add_cell((h, f), pts[src])
        for b, f in stores_by_src.get(v, ()):
            for h in each(pts[b]):
                add_cell((h, f), d)
    return sum(x.bit_count() for x in pts), sum(x.bit_count() for x in cell.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir")
    ap.add_argument("--preset", choices=sorted(PRESETS))
    ap.add_argument("--heap", type=int, help="allocation sites")
    ap.add_argument("--vars", type=int, help="variables (default 4 x heap)")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--method-alpha", type=float, help="Pareto exponent of method sizes")
    ap.add_argument("--method-max", type=int, help="largest method (variables)")
    ap.add_argument("--class-ratio", type=float, help="classes per allocation site")
    ap.add_argument("--class-zipf", type=float, help="Zipf exponent of class popularity")
    ap.add_argument("--object-vars", type=float, help="share of variables and fields typed Object")
    ap.add_argument("--def-copy", type=float, help="share of locals defined by a copy")
    ap.add_argument("--def-load", type=float, help="share of locals defined by a field load")
    ap.add_argument("--casts", type=float, help="share of locals defined by a cast of an Object local")
    ap.add_argument("--callee-skew", type=float, help="power-law skew of callee popularity")
    ap.add_argument("--void-calls", type=float, help="calls with unused result, per variable")
    ap.add_argument("--stores", type=float, help="stores per variable")
    ap.add_argument("--return-param", type=float,
                    help="chance a method returns one of its parameters")
    ap.add_argument("--solve", action="store_true",
                    help="solve in Python too and print |vP| and |hP|")
    p = ap.parse_args()
    base = dict(DEFAULTS)
    if p.preset:
        base.update(PRESETS[p.preset])
    for k, v in base.items():
        if getattr(p, k, None) is None:
            setattr(p, k, v)
    if p.heap is None:
        ap.error("--heap or --preset is required")
    if p.vars is None:
        p.vars = 4 * p.heap
    g = generate(p)
    write(p.out_dir, p, g)
    print("gen_pointsto: V=%d H=%d F=%d methods=%d |vP0|=%d |assign|=%d |load|=%d |store|=%d"
          % (p.vars, p.heap, p.fields, g["methods"], len(g["vP0"]), len(g["assign"]),
             len(g["load"]), len(g["store"])), file=sys.stderr)
    if p.solve:
        vp, hp = solve(p.vars, g)
        print("vP\t%d\nhP\t%d" % (vp, hp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
