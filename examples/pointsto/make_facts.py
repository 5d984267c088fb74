#!/usr/bin/env python3
"""Writes the input relations (.tuples) and element maps (.map) of the bundled
points-to example from a hand lowering of Example.java.

Each method below is Example.java's method as Soot's Jimple would give it
(with original local names): one allocation, copy, cast, field access or call
per statement, temporaries named $t0, $t1, ..., and the implicit super() call
of every constructor made explicit. Element names follow the Soot conventions
in shared/FORMATS.md: methods `<a.B: ret name(params)>`, fields
`<a.B: type name>`, variables `<method>/name`, allocation sites
`<method>/new a.B/n` and invocation sites `<method>/a.B.name/n` (n counts from
0 within the method, per allocated type or per called `Class.name`).

Run it from anywhere; it rewrites the files next to it:
    python3 examples/pointsto/make_facts.py
"""

import math
import os
import sys

OBJECT = "java.lang.Object"

# Types: name -> (superclass, [interfaces], is_concrete_class)
TYPES = {
    OBJECT: (None, [], True),
    "java.lang.String": (OBJECT, [], True),
    "java.lang.String[]": (OBJECT, [], True),
    "ex.Shape": (OBJECT, [], False),  # interface
    "ex.Point": (OBJECT, [], True),
    "ex.Circle": (OBJECT, ["ex.Shape"], True),
    "ex.Square": (OBJECT, ["ex.Shape"], True),
    "ex.Canvas": (OBJECT, [], True),
    "ex.Box": (OBJECT, [], True),
    "ex.Node": (OBJECT, [], True),
    "ex.Stack": (OBJECT, [], True),
    "ex.Shapes": (OBJECT, [], True),
    "ex.Example": (OBJECT, [], True),
}

FIELDS = [
    "<ex.Circle: ex.Point center>",
    "<ex.Square: ex.Point corner>",
    "<ex.Canvas: ex.Shape last>",
    "<ex.Box: java.lang.Object item>",
    "<ex.Node: java.lang.Object value>",
    "<ex.Node: ex.Node next>",
    "<ex.Stack: ex.Node top>",
]


def field(cls, name):
    for f in FIELDS:
        if f.startswith("<" + cls + ": ") and f.endswith(" " + name + ">"):
            return f
    raise KeyError(cls + "." + name)


# Statements:
#   ("new", var, type)                              var = new type
#   ("assign", to, from)                            to = from  (also casts)
#   ("load", base, cls, fieldname, to)              to = base.field
#   ("store", base, cls, fieldname, from)           base.field = from
#   ("special", recv, target, [args], result)       specialinvoke (constructors)
#   ("static", target, [args], result)              staticinvoke
#   ("virtual", recv, target, [args], result)       virtual/interface invoke;
#                                                   target is the signature in
#                                                   the instruction, whose class
#                                                   is the receiver's static type
# Arguments are variable names or None for a primitive; result is None when
# the call's value is not kept in a reference variable.
def method(sig, static, locals_, params, body, ret=None):
    """locals_: [(name, type)] in declaration order ('this' first if any);
    params: names of the reference parameters by position (None for a
    primitive parameter), this excluded."""
    return dict(sig=sig, static=static, locals=locals_, params=params,
                body=body, ret=ret)


OBJ_INIT = "<java.lang.Object: void <init>()>"


def ctor_super(this="this"):
    return ("special", this, OBJ_INIT, [], None)


MAIN = "<ex.Example: void main(java.lang.String[])>"

METHODS = [
    method(MAIN, True,
           [("args", "java.lang.String[]"), ("origin", "ex.Point"),
            ("c", "ex.Shape"), ("s", "ex.Shape"), ("canvas", "ex.Canvas"),
            ("box", "ex.Box"), ("$t0", OBJECT), ("c2", "ex.Shape"),
            ("big", "ex.Shape"), ("stack", "ex.Stack"), ("$t1", OBJECT),
            ("top", "ex.Shape")],
           ["args"],
           [("new", "origin", "ex.Point"),
            ("special", "origin", "<ex.Point: void <init>()>", [], None),
            ("static", "<ex.Shapes: ex.Shape circleAt(ex.Point)>", ["origin"], "c"),
            ("static", "<ex.Shapes: ex.Shape squareAt(ex.Point)>", ["origin"], "s"),
            ("new", "canvas", "ex.Canvas"),
            ("special", "canvas", "<ex.Canvas: void <init>()>", [], None),
            ("virtual", "c", "<ex.Shape: void draw(ex.Canvas)>", ["canvas"], None),
            ("new", "box", "ex.Box"),
            ("special", "box", "<ex.Box: void <init>()>", [], None),
            ("virtual", "box", "<ex.Box: void put(java.lang.Object)>", ["c"], None),
            ("virtual", "box", "<ex.Box: java.lang.Object get()>", [], "$t0"),
            ("assign", "c2", "$t0"),
            ("virtual", "c2", "<ex.Shape: ex.Shape resize(int)>", [None], "big"),
            ("new", "stack", "ex.Stack"),
            ("special", "stack", "<ex.Stack: void <init>()>", [], None),
            ("virtual", "stack", "<ex.Stack: void push(java.lang.Object)>", ["s"], None),
            ("virtual", "stack", "<ex.Stack: void push(java.lang.Object)>", ["big"], None),
            ("virtual", "stack", "<ex.Stack: java.lang.Object pop()>", [], "$t1"),
            ("assign", "top", "$t1"),
            ("virtual", "top", "<ex.Shape: void draw(ex.Canvas)>", ["canvas"], None)]),
    method(OBJ_INIT, False, [("this", OBJECT)], [], []),
    method("<ex.Point: void <init>()>", False, [("this", "ex.Point")], [],
           [ctor_super()]),
    method("<ex.Circle: void <init>(ex.Point)>", False,
           [("this", "ex.Circle"), ("center", "ex.Point")], ["center"],
           [ctor_super(), ("store", "this", "ex.Circle", "center", "center")]),
    method("<ex.Circle: ex.Shape resize(int)>", False,
           [("this", "ex.Circle"), ("bigger", "ex.Circle"), ("$t0", "ex.Point")],
           [None],
           [("new", "bigger", "ex.Circle"),
            ("load", "this", "ex.Circle", "center", "$t0"),
            ("special", "bigger", "<ex.Circle: void <init>(ex.Point)>", ["$t0"], None)],
           ret="bigger"),
    method("<ex.Circle: void draw(ex.Canvas)>", False,
           [("this", "ex.Circle"), ("canvas", "ex.Canvas")], ["canvas"],
           [("virtual", "canvas", "<ex.Canvas: void record(ex.Shape)>", ["this"], None)]),
    method("<ex.Square: void <init>(ex.Point)>", False,
           [("this", "ex.Square"), ("corner", "ex.Point")], ["corner"],
           [ctor_super(), ("store", "this", "ex.Square", "corner", "corner")]),
    method("<ex.Square: ex.Shape resize(int)>", False,
           [("this", "ex.Square"), ("p", "ex.Point"), ("$t0", "ex.Square")], [None],
           [("new", "p", "ex.Point"),
            ("special", "p", "<ex.Point: void <init>()>", [], None),
            ("new", "$t0", "ex.Square"),
            ("special", "$t0", "<ex.Square: void <init>(ex.Point)>", ["p"], None)],
           ret="$t0"),
    method("<ex.Square: void draw(ex.Canvas)>", False,
           [("this", "ex.Square"), ("canvas", "ex.Canvas")], ["canvas"],
           [("virtual", "canvas", "<ex.Canvas: void record(ex.Shape)>", ["this"], None)]),
    method("<ex.Canvas: void <init>()>", False, [("this", "ex.Canvas")], [],
           [ctor_super()]),
    method("<ex.Canvas: void record(ex.Shape)>", False,
           [("this", "ex.Canvas"), ("s", "ex.Shape")], ["s"],
           [("store", "this", "ex.Canvas", "last", "s")]),
    method("<ex.Box: void <init>()>", False, [("this", "ex.Box")], [],
           [ctor_super()]),
    method("<ex.Box: void put(java.lang.Object)>", False,
           [("this", "ex.Box"), ("o", OBJECT)], ["o"],
           [("store", "this", "ex.Box", "item", "o")]),
    method("<ex.Box: java.lang.Object get()>", False,
           [("this", "ex.Box"), ("$t0", OBJECT)], [],
           [("load", "this", "ex.Box", "item", "$t0")], ret="$t0"),
    method("<ex.Node: void <init>(java.lang.Object,ex.Node)>", False,
           [("this", "ex.Node"), ("value", OBJECT), ("next", "ex.Node")],
           ["value", "next"],
           [ctor_super(),
            ("store", "this", "ex.Node", "value", "value"),
            ("store", "this", "ex.Node", "next", "next")]),
    method("<ex.Stack: void <init>()>", False, [("this", "ex.Stack")], [],
           [ctor_super()]),
    method("<ex.Stack: void push(java.lang.Object)>", False,
           [("this", "ex.Stack"), ("o", OBJECT), ("n", "ex.Node"), ("$t0", "ex.Node")],
           ["o"],
           [("new", "n", "ex.Node"),
            ("load", "this", "ex.Stack", "top", "$t0"),
            ("special", "n", "<ex.Node: void <init>(java.lang.Object,ex.Node)>",
             ["o", "$t0"], None),
            ("store", "this", "ex.Stack", "top", "n")]),
    method("<ex.Stack: java.lang.Object pop()>", False,
           [("this", "ex.Stack"), ("n", "ex.Node"), ("$t0", "ex.Node"), ("$t1", OBJECT)],
           [],
           [("load", "this", "ex.Stack", "top", "n"),
            ("load", "n", "ex.Node", "next", "$t0"),
            ("store", "this", "ex.Stack", "top", "$t0"),
            ("load", "n", "ex.Node", "value", "$t1")],
           ret="$t1"),
    method("<ex.Shapes: ex.Shape circleAt(ex.Point)>", True,
           [("p", "ex.Point"), ("$t0", "ex.Circle")], ["p"],
           [("new", "$t0", "ex.Circle"),
            ("special", "$t0", "<ex.Circle: void <init>(ex.Point)>", ["p"], None)],
           ret="$t0"),
    method("<ex.Shapes: ex.Shape squareAt(ex.Point)>", True,
           [("p", "ex.Point"), ("$t0", "ex.Square")], ["p"],
           [("new", "$t0", "ex.Square"),
            ("special", "$t0", "<ex.Square: void <init>(ex.Point)>", ["p"], None)],
           ret="$t0"),
    # Default constructors javac writes; nothing calls them.
    method("<ex.Shapes: void <init>()>", False, [("this", "ex.Shapes")], [],
           [ctor_super()]),
    method("<ex.Example: void <init>()>", False, [("this", "ex.Example")], [],
           [ctor_super()]),
]

ENTRY = [MAIN]


def sig_class(sig):
    return sig[1:sig.index(":")]


def sub_signature(sig):
    return sig[sig.index(": ") + 2:-1]


def member_name(sig):
    sub = sub_signature(sig)
    return sub[sub.index(" ") + 1:sub.index("(")]


def bits(size):
    return max(1, math.ceil(math.log2(size))) if size > 1 else 1


def main():
    out_dir = os.path.dirname(os.path.abspath(__file__))
    type_names = list(TYPES)
    method_sigs = [m["sig"] for m in METHODS]
    by_sig = {m["sig"]: m for m in METHODS}
    names = []  # N: distinct sub-signatures, in method order
    for s in method_sigs:
        if sub_signature(s) not in names:
            names.append(sub_signature(s))

    variables, heaps, invokes = [], [], []
    rel = {r: [] for r in ["vP0", "assign", "load", "store", "hT", "vT", "aT",
                           "cha", "mI", "mS", "IE0", "actual", "formal",
                           "Iret", "Mret", "mV", "entry"]}
    T = type_names.index
    M = method_sigs.index
    F = FIELDS.index
    N = names.index

    for m in METHODS:
        sig = m["sig"]
        var_index = {}
        for name, ty in m["locals"]:
            var_index[name] = len(variables)
            variables.append(sig + "/" + name)
            rel["vT"].append((var_index[name], T(ty)))
            rel["mV"].append((M(sig), var_index[name]))
        V = var_index.__getitem__
        if not m["static"]:
            rel["formal"].append((M(sig), 0, V("this")))
        for z, p in enumerate(m["params"], start=1):
            if p is not None:
                rel["formal"].append((M(sig), z, V(p)))
        if m["ret"] is not None:
            rel["Mret"].append((M(sig), V(m["ret"])))
        new_count, call_count = {}, {}
        for st in m["body"]:
            kind = st[0]
            if kind == "new":
                _, v, ty = st
                n = new_count.get(ty, 0)
                new_count[ty] = n + 1
                h = len(heaps)
                heaps.append("%s/new %s/%d" % (sig, ty, n))
                rel["vP0"].append((V(v), h))
                rel["hT"].append((h, T(ty)))
            elif kind == "assign":
                rel["assign"].append((V(st[1]), V(st[2])))
            elif kind == "load":
                _, base, cls, f, to = st
                rel["load"].append((V(base), F(field(cls, f)), V(to)))
            elif kind == "store":
                _, base, cls, f, frm = st
                rel["store"].append((V(base), F(field(cls, f)), V(frm)))
            else:
                if kind == "static":
                    _, target, args, result = st
                    recv = None
                else:
                    _, recv, target, args, result = st
                key = sig_class(target) + "." + member_name(target)
                n = call_count.get(key, 0)
                call_count[key] = n + 1
                i = len(invokes)
                invokes.append("%s/%s/%d" % (sig, key, n))
                if recv is not None:
                    rel["actual"].append((i, 0, V(recv)))
                for z, a in enumerate(args, start=1):
                    if a is not None:
                        rel["actual"].append((i, z, V(a)))
                if result is not None:
                    rel["Iret"].append((i, V(result)))
                if kind == "virtual":
                    rel["mI"].append((M(sig), i, N(sub_signature(target))))
                else:
                    rel["mS"].append((M(sig), i))
                    rel["IE0"].append((i, M(target)))

    # Subtyping: aT(super, sub) for every sub assignable to super (reflexive).
    def supertypes(t):
        sup, ifaces, _ = TYPES[t]
        result = {t}
        for s in ([sup] if sup else []) + ifaces:
            result |= supertypes(s)
        return result

    for sub in type_names:
        for sup in sorted(supertypes(sub), key=T):
            rel["aT"].append((T(sup), T(sub)))
    rel["aT"].sort()

    # Dispatch table: for each concrete class and each instance method
    # sub-signature it declares or inherits (constructors excluded), the
    # method a virtual call on an object of that class runs.
    for t in type_names:
        if not TYPES[t][2]:
            continue
        chain, c = [], t
        while c:
            chain.append(c)
            c = TYPES[c][0]
        seen = set()
        for c in chain:
            for m in METHODS:
                s = m["sig"]
                if sig_class(s) != c or m["static"] or member_name(s) == "<init>":
                    continue
                if sub_signature(s) in seen:
                    continue
                seen.add(sub_signature(s))
                rel["cha"].append((T(t), N(sub_signature(s)), M(s)))
    for e in ENTRY:
        rel["entry"].append((M(e),))

    domains = {"V": variables, "H": heaps, "F": FIELDS, "T": type_names,
               "M": method_sigs, "I": invokes, "N": names,
               "Z": [str(z) for z in range(3)]}
    for d, elems in domains.items():
        if d == "Z":
            continue  # parameter positions are plain numbers: no map
        with open(os.path.join(out_dir, d + ".map"), "w") as f:
            for e in elems:
                f.write(e + "\n")

    # Physical domains of each input relation's columns, as declared in
    # pointsto.datalog (the k-th attribute of a domain gets instance k).
    columns = {
        "vP0": "V0 H0", "assign": "V0 V1", "load": "V0 F0 V1",
        "store": "V0 F0 V1", "hT": "H0 T0", "vT": "V0 T0", "aT": "T0 T1",
        "cha": "T0 N0 M0", "mI": "M0 I0 N0", "mS": "M0 I0", "IE0": "I0 M0",
        "actual": "I0 Z0 V0", "formal": "M0 Z0 V0", "Iret": "I0 V0",
        "Mret": "M0 V0", "mV": "M0 V0", "entry": "M0",
    }
    for r, tuples in rel.items():
        header = " ".join("%s:%d" % (p, bits(len(domains[p[0]])))
                          for p in columns[r].split())
        with open(os.path.join(out_dir, r + ".tuples"), "w") as f:
            f.write("# " + header + "\n")
            for t in tuples:
                f.write(" ".join(str(x) for x in t) + "\n")

    for d, elems in domains.items():
        print("%s %d%s" % (d, len(elems), "" if d == "Z" else " %s.map" % d),
              file=sys.stderr)


if __name__ == "__main__":
    main()
