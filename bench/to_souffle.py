#!/usr/bin/env python3
"""Translates the points-to analysis exactly as `refract analyze` ran it (the program
OUT/facts/analysis.datalog with its includes, and the facts beside it) into a Soufflé
program and tab-separated .facts files, mechanically, so that Soufflé evaluates the same
rules on the same facts under the same context flavour (bench/peers.sh compares the two).

    to_souffle.py OUT/facts --flavour FLAVOUR -o DIR

writes DIR/analysis.dl and DIR/facts/*.facts. The translation:
  * each fact domain D (V H T F M I Z) becomes `.type D <: number`; elements keep their
    numbers, and a "quoted" name in a rule becomes its line number in D.map;
  * a context is a record of its fields, as Doop writes contexts (its souffle-logic
    analyses declare e.g. `[ value1, value2 ]` records and build them in macros inside the
    rule bodies): C is a record of K fields and HC one of J fields, each field an element
    of the flavour's element domain (H for K-obj, I for K-call, T for K-type) or -1 when
    empty, so context 0, the empty one, is [-1, ..., -1]. A flavour without (heap)
    contexts keeps C (HC) a number whose one value is 0, as refract's domain of size 1;
  * relation R(a : D, ...) becomes `.decl R(a:D, ...)`; inputtuples become `.input`,
    outputtuples `.output`, printsize `.printsize`; variable x becomes ?x;
  * the constructor atoms Record, Merge and MergeStatic, which refract builds as BDDs
    (pointsto/context_constructors.cpp, pointsto/README.md "The constructor contract"),
    become the flavour's record-building constraints inside the body of each rule that
    uses them (their inputs must be bound by the rest of the body, their output context a
    variable); where refract's Record gives some objects the empty heap context
    (`context_free_heaps`: string constants and the objects merged per type), the rule is
    written twice, once for those objects and once for the others. K-type's element of an
    object, the class allocating it (pointsto/heap_classes.cpp), is computed by rules
    over the facts (HeapClass);
  * MethodContext and NumberedCallEdge, empty for every flavour but cloning, are empty
    inputs.
Cloning (numbered contexts, bdd::sum_with_constant over call edges) has no translation:
it is an explicit error.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from to_gringo import (DOMAIN_RE, IDENT, RELATION_RE, COMPARE_OPS, Error,  # noqa: E402
                       ends_statement, parse_atom, split_top, strip_comment)

CONSTRUCTORS = ("Record", "Merge", "MergeStatic")
# Built inputs that only cloning fills (context_constructors.cpp): empty under every flavour
# translated here.
CLONING_ONLY = ("MethodContext", "NumberedCallEdge")
EMPTY_FIELD = "-1"
# Objects merged per type (pointsto/heap_merging.cpp, allocations_by_type): with the string
# constants, the objects refract's Record gives the empty heap context.
MERGED_OBJECT_RE = re.compile(r"^<(exception|string builder|primitive array|allocated string) .*>$")
INCLUDE_RE = re.compile(r'^\.include\s+"([^"]+)"\s*$')
BASEDIR_RE = re.compile(r'^\.basedir\s+"([^"]+)"\s*$')


class Flavour:
    """A context flavour as `refract analyze --context` reads it (context_flavour.cpp)."""

    def __init__(self, text):
        self.name = text
        self.kind, self.depth, self.heap_depth = "insens", 0, 0
        if text == "insens":
            return
        if text == "cloning":
            raise Error("flavour cloning cannot be translated: its contexts are numbered call "
                        "paths (an adder per call edge over the insensitive pre-pass's call "
                        "graph), not records of fields")
        m = re.fullmatch(r"([1-4])-(call|obj|type)(?:\+(\d*)H)?", text)
        if not m:
            raise Error("unknown flavour %r (expected insens, K-call, K-obj, K-type with "
                        "K = 1..4, optionally +H or +JH)" % text)
        self.depth = int(m.group(1))
        self.kind = m.group(2)
        if m.group(3) is not None:
            self.heap_depth = int(m.group(3)) if m.group(3) else self.depth - 1
            if not 1 <= self.heap_depth <= self.depth:
                raise Error("flavour %r: heap context depth outside 1..K" % text)

    def element_domain(self):
        return {"call": "I", "obj": "H", "type": "T"}.get(self.kind)


class Program:
    """The program of analysis.datalog with its includes resolved as refract resolves them:
    from the including file's folder, or from .basedir when one is given."""

    def __init__(self, path):
        self.facts_dir = os.path.dirname(os.path.abspath(path))
        self.domains = {}  # name -> (size, map file or None)
        self.relations = {}  # name -> ([(attribute, domain)], flags)
        self.order = []
        self.rules = []  # (where, text)
        self._maps = {}
        self._read(os.path.abspath(path), set())

    def _read(self, path, seen):
        if path in seen:
            raise Error("%s: included twice" % path)
        seen.add(path)
        base = os.path.dirname(path)
        pending, pending_where = "", None
        with open(path) as f:
            lines = f.read().split("\n")
        for lineno, raw in enumerate(lines, start=1):
            where = "%s:%d" % (path, lineno)
            line = strip_comment(raw).strip()
            if not line:
                continue
            if pending:
                pending += " " + line
                if ends_statement(pending):
                    self.rules.append((pending_where, pending))
                    pending = ""
                continue
            if line.startswith("."):
                m = BASEDIR_RE.match(line)
                if m:
                    base = os.path.join(os.path.dirname(path), m.group(1))
                    continue
                m = INCLUDE_RE.match(line)
                if m:
                    self._read(os.path.normpath(os.path.join(base, m.group(1))), seen)
                continue  # .bddvarorder and the like: no meaning for Soufflé
            m = DOMAIN_RE.match(line)
            if m and ":-" not in line:
                self.domains[m.group(1)] = (int(m.group(2)), m.group(3))
                continue
            m = RELATION_RE.match(line)
            if m and ":-" not in line and ":" in m.group(2):
                attrs = []
                for a in split_top(m.group(2)):
                    if ":" not in a:
                        raise Error("%s: attribute without domain: %r" % (where, a))
                    name, dom = (s.strip() for s in a.split(":", 1))
                    attrs.append((name, re.sub(r"\d+$", "", dom)))
                self.relations[m.group(1)] = (attrs, m.group(3).split())
                self.order.append(m.group(1))
                continue
            if ends_statement(line):
                self.rules.append((where, line))
            else:
                pending, pending_where = line, where
        if pending:
            raise Error("%s: unterminated rule" % pending_where)

    def element(self, domain, name, where):
        if domain not in self._maps:
            size, map_file = self.domains[domain]
            if map_file is None:
                raise Error("%s: domain %s has no map file for \"%s\"" % (where, domain, name))
            with open(os.path.join(self.facts_dir, map_file)) as f:
                self._maps[domain] = {line.rstrip("\n"): k for k, line in enumerate(f)}
        return self._maps[domain].get(name)

    def map_lines(self, domain):
        self.element(domain, "", "map of " + domain)
        lines = [None] * len(self._maps[domain])
        for name, k in self._maps[domain].items():
            lines[k] = name
        return lines


class Translator:
    def __init__(self, prog, flavour):
        self.prog = prog
        self.fl = flavour
        for d in ("C", "HC"):
            if d not in prog.domains:
                raise Error("the program declares no domain %s (contexts.datalog)" % d)
        self.fresh = 0

    # --- contexts -------------------------------------------------------------------------
    def fields(self, domain):
        return self.fl.depth if domain == "C" else self.fl.heap_depth

    def empty(self, domain):
        k = self.fields(domain)
        return "0" if k == 0 else "[%s]" % ", ".join([EMPTY_FIELD] * k)

    def type_decl(self, domain):
        k = self.fields(domain)
        if k == 0:
            return ".type %s <: number" % domain
        e = self.fl.element_domain()
        return ".type %s = [%s]" % (domain, ", ".join("f%d:%s" % (f, e) for f in range(k)))

    def new_var(self, hint, used):
        while True:
            self.fresh += 1
            v = "?%s_%d" % (hint, self.fresh)
            if v not in used:
                used.add(v)
                return v

    def destructure(self, expr, domain, used, out):
        """The fields of context `expr` (a ?variable or the empty record) as expressions;
        appends to `out` the constraint that binds them."""
        k = self.fields(domain)
        if expr == self.empty(domain):
            return [EMPTY_FIELD] * k
        vs = [self.new_var("f", used) for _ in range(k)]
        out.append("%s = [%s]" % (expr, ", ".join(vs)))
        return vs

    def record(self, domain, parts):
        k = self.fields(domain)
        parts = (parts + [EMPTY_FIELD] * k)[:k]
        return "[%s]" % ", ".join(parts)

    def expand(self, rel, args, used, where):
        """The flavour's constructor `rel` on translated arguments: a list of alternatives,
        each a list of body literals (Record with context-free objects has two)."""
        fl = self.fl
        if rel == "Record":
            h, ctx, hc = args
            self.require_var(hc, where, rel, "hctx")
            if fl.heap_depth == 0:
                return [[ "%s = 0" % hc] + (["%s = 0" % ctx] if fl.kind == "insens" else [])]
            pre = []
            cf = self.destructure(ctx, "C", used, pre)
            own = pre + ["!ContextFreeHeap(%s)" % h, "%s = %s" % (hc, self.record("HC", cf[:fl.heap_depth]))]
            free = ["ContextFreeHeap(%s)" % h, "%s = %s" % (hc, self.empty("HC"))]
            return [own, free]
        if rel == "Merge":
            h, hc, i, m, ctx, cc = args
            self.require_var(cc, where, rel, "calleeCtx")
            if fl.kind == "insens":
                return [["%s = 0" % ctx, "%s = 0" % hc, "%s = 0" % cc]]
            if fl.kind == "call":
                return [self.call_context(i, ctx, cc, used)]
            pre = []
            hf = self.destructure(hc, "HC", used, pre) if fl.heap_depth else []
            if fl.kind == "obj":
                return [pre + ["%s = %s" % (cc, self.record("C", [h] + hf))]]
            t = self.new_var("t", used)
            return [["HeapClass(%s, %s)" % (h, t)] + pre +
                    ["%s = %s" % (cc, self.record("C", [t] + hf))]]
        if rel == "MergeStatic":
            i, m, ctx, cc = args
            self.require_var(cc, where, rel, "calleeCtx")
            if fl.kind == "insens":
                return [["%s = 0" % ctx, "%s = 0" % cc]]
            if fl.kind == "call":
                return [self.call_context(i, ctx, cc, used)]
            return [["%s = %s" % (cc, ctx)]]
        raise AssertionError(rel)

    def call_context(self, i, ctx, cc, used):
        pre = []
        cf = self.destructure(ctx, "C", used, pre) if self.fl.depth > 1 else []
        return pre + ["%s = %s" % (cc, self.record("C", [i] + cf[:self.fl.depth - 1]))]

    @staticmethod
    def require_var(expr, where, rel, attr):
        if not expr.startswith("?"):
            raise Error("%s: %s's %s must be a variable to be built" % (where, rel, attr))

    # --- rules ----------------------------------------------------------------------------
    def term(self, t, domain, where, in_head):
        t = t.strip()
        if t == "_":
            if in_head:
                raise Error("%s: '_' in a rule head" % where)
            return "_"
        if t == "*":
            if in_head:
                raise Error("%s: '*' in a head ranges over a domain: no translation" % where)
            return "_"
        if re.fullmatch(r"\d+", t):
            if domain in ("C", "HC"):
                if t != "0":
                    raise Error("%s: context constant %s (only 0, the empty one, has a "
                                "meaning under every flavour)" % (where, t))
                return self.empty(domain)
            return t
        if t.startswith('"') and t.endswith('"'):
            if domain is None:
                raise Error("%s: cannot tell the domain of %s" % (where, t))
            k = self.prog.element(domain, t[1:-1], where)
            if k is None:
                return None  # refract: a name absent from the map matches nothing
            return str(k)
        if re.fullmatch(IDENT, t):
            return "?" + t
        raise Error("%s: cannot read term %r" % (where, t))

    def translate_rule(self, where, text):
        text = text.strip()
        if text.endswith("."):
            text = text[:-1]
        head_text, _, body_text = text.partition(":-")
        h = parse_atom(head_text)
        if h is None or h[2]:
            raise Error("%s: cannot read rule head %r" % (where, head_text.strip()))
        if h[0] in CONSTRUCTORS:
            raise Error("%s: a rule derives the constructor %s" % (where, h[0]))
        var_domain = {}
        used = set()
        body, constructors, comparisons = [], [], []
        never = False  # a body constant absent from its map: the rule derives nothing

        def atom(a, in_head):
            rel, args, negated = a
            if rel not in self.prog.relations:
                raise Error("%s: unknown relation %s" % (where, rel))
            attrs = self.prog.relations[rel][0]
            if len(args) != len(attrs):
                raise Error("%s: %s takes %d arguments" % (where, rel, len(attrs)))
            out = []
            for t, (_, d) in zip(args, attrs):
                s = self.term(t, d, where, in_head)
                if s is None:
                    if in_head:
                        raise Error("%s: %s is not an element of domain %s" % (where, t, d))
                    return None
                if s.startswith("?"):
                    var_domain.setdefault(s, d)
                    used.add(s)
                out.append(s)
            return rel, out, negated

        for lit in (split_top(body_text) if body_text.strip() else []):
            a = parse_atom(lit)
            if a is None:
                for op in COMPARE_OPS:
                    if op in lit:
                        left, right = lit.split(op, 1)
                        comparisons.append((left.strip(), op, right.strip()))
                        break
                else:
                    raise Error("%s: cannot read literal %r" % (where, lit))
                continue
            t = atom(a, False)
            if t is None:
                never = True
                continue
            if t[0] in CONSTRUCTORS:
                if t[2]:
                    raise Error("%s: negated constructor %s" % (where, t[0]))
                constructors.append(t)
            else:
                body.append("%s%s(%s)" % ("!" if t[2] else "", t[0], ", ".join(t[1])))
        for left, op, right in comparisons:
            dom = var_domain.get("?" + left) or var_domain.get("?" + right)
            lt = self.term(left, dom, where, False)
            rt = self.term(right, dom, where, False)
            if lt is None or rt is None:
                never = True
                continue
            for s in (lt, rt):
                if s.startswith("?"):
                    used.add(s)
            body.append("%s %s %s" % (lt, op, rt))
        head = atom(h, True)
        if never:
            return ["// %s: a constant matches nothing (absent from its map): no rule" % where]
        alternatives = [body]
        for rel, args, _ in constructors:
            alternatives = [b + extra for b in alternatives
                            for extra in self.expand(rel, args, used, where)]
        head_s = "%s(%s)" % (head[0], ", ".join(head[1]))
        out = []
        for b in alternatives:
            out.append("%s :- %s." % (head_s, ", ".join(b)) if b else "%s." % head_s)
        return out

    # --- program --------------------------------------------------------------------------
    def translate(self):
        prog = self.prog
        out = ["// Generated by bench/to_souffle.py from %s, flavour %s: the points-to "
               "analysis as refract analyze ran it." % (prog.facts_dir, self.fl.name)]
        for d in prog.domains:
            if d not in ("C", "HC"):
                out.append(".type %s <: number" % d)
        out.append(self.type_decl("C"))
        out.append(self.type_decl("HC"))
        out.append("")
        inputs = []
        for r in prog.order:
            attrs, flags = prog.relations[r]
            if r in CONSTRUCTORS:
                continue
            out.append(".decl %s(%s)" % (r, ", ".join("%s:%s" % (attribute_name(a), d)
                                                     for a, d in attrs)))
            if "inputtuples" in flags or r in CLONING_ONLY:
                out.append(".input %s" % r)
                inputs.append(r)
            elif "input" in flags:
                raise Error("input relation %s is built by refract analyze; to_souffle.py "
                            "knows only the constructors, %s" % (r, " and ".join(CLONING_ONLY)))
            if "outputtuples" in flags:
                out.append(".output %s" % r)
            if "printsize" in flags:
                out.append(".printsize %s" % r)
        missing = [c for c in CONSTRUCTORS if c not in prog.relations]
        if missing:
            raise Error("the program declares no constructor %s" % ", ".join(missing))
        out += ["", "// The flavour's helpers of the constructors."]
        out += self.helpers()
        out.append("")
        for where, text in prog.rules:
            out += self.translate_rule(where, text)
        return "\n".join(out) + "\n", inputs

    def helpers(self):
        out = []
        if self.fl.heap_depth > 0:
            # refract analyze's context_free_heaps (heap_merging.cpp).
            out += [".decl ContextFreeHeap(heap:H)",
                    ".input ContextFreeHeap",
                    "ContextFreeHeap(?h) :- StringConstant(?h)."]
        if self.fl.kind == "type":
            # heap_classes.cpp: the class declaring the method that allocates an object, or
            # the object's own type when several classes or none allocate it.
            out += [".decl HeapAllocClass(heap:H, type:T)",
                    ".decl HeapClass(heap:H, type:T)",
                    ".decl Typed(heap:H)",
                    ".decl Allocated(heap:H)",
                    "HeapAllocClass(?h, ?c) :- Alloc(?v, ?h), VarMethod(?v, ?m), "
                    "MethodDeclared(?m, ?c).",
                    "Typed(?h) :- HeapType(?h, _).",
                    "Allocated(?h) :- HeapAllocClass(?h, _).",
                    "HeapClass(?h, ?t) :- HeapType(?h, ?t), !Allocated(?h).",
                    "HeapClass(?h, ?c) :- HeapAllocClass(?h, ?c), "
                    "1 = count : { HeapAllocClass(?h, _) }.",
                    "HeapClass(?h, ?t) :- HeapAllocClass(?h, _), "
                    "1 < count : { HeapAllocClass(?h, _) }, HeapType(?h, ?t).",
                    "HeapClass(?h, ?c) :- HeapAllocClass(?h, ?c), "
                    "1 < count : { HeapAllocClass(?h, _) }, !Typed(?h)."]
        return out



# Soufflé's keywords that refract's attribute names may be (MethodArity's `count`): an attribute
# name is only a label, so a trailing underscore keeps the declaration the same relation.
SOUFFLE_KEYWORDS = {"count", "sum", "min", "max", "mean", "range", "as", "nil", "true", "false"}


def attribute_name(name):
    return name + "_" if name in SOUFFLE_KEYWORDS else name

def read_tuples(prog, rel):
    """The tuples of NAME.tuples, `*` and lo-hi expanded."""
    attrs = prog.relations[rel][0]
    path = os.path.join(prog.facts_dir, rel + ".tuples")
    with open(path) as f:
        for lineno, line in enumerate(f, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) != len(attrs):
                raise Error("%s:%d: %d fields, relation %s has %d"
                            % (path, lineno, len(fields), rel, len(attrs)))
            ranges = []
            for fld, (_, d) in zip(fields, attrs):
                if fld == "*":
                    ranges.append(range(prog.domains[d][0]))
                elif "-" in fld:
                    lo, hi = fld.split("-", 1)
                    ranges.append(range(int(lo), int(hi) + 1))
                else:
                    ranges.append((int(fld),))
            yield from product(ranges)


def product(ranges):
    if not ranges:
        yield ()
        return
    for v in ranges[0]:
        for rest in product(ranges[1:]):
            yield (v,) + rest


def check_functional(prog, rel):
    """heap_classes.cpp reads VarMethod, MethodDeclared and HeapType as functions (a map, the
    last tuple winning); HeapClass's rules agree only if they are."""
    seen = {}
    for t in read_tuples(prog, rel):
        if seen.setdefault(t[0], t[1]) != t[1]:
            raise Error("%s is not a function of its first attribute (element %d): HeapClass "
                        "would differ from refract's heap_classes" % (rel, t[0]))


def write_facts(prog, flavour, inputs, facts_out):
    os.makedirs(facts_out, exist_ok=True)
    for rel in inputs:
        with open(os.path.join(facts_out, rel + ".facts"), "w") as f:
            if rel in CLONING_ONLY:
                continue  # empty for every flavour but cloning (context_constructors.cpp)
            for t in read_tuples(prog, rel):
                f.write("\t".join(map(str, t)) + "\n")
    if flavour.heap_depth > 0:
        with open(os.path.join(facts_out, "ContextFreeHeap.facts"), "w") as f:
            for k, name in enumerate(prog.map_lines("H")):
                if MERGED_OBJECT_RE.match(name):
                    f.write("%d\n" % k)
    if flavour.kind == "type":
        for rel in ("VarMethod", "MethodDeclared", "HeapType"):
            check_functional(prog, rel)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("facts_dir", help="OUT/facts of a refract analyze run")
    ap.add_argument("--flavour", required=True, help="the run's --context")
    ap.add_argument("-o", "--output", required=True, help="folder for analysis.dl and facts/")
    args = ap.parse_args()
    try:
        flavour = Flavour(args.flavour)
        entry = os.path.join(args.facts_dir, "analysis.datalog")
        if not os.path.isfile(entry):
            raise Error("%s: not found (run refract analyze --out OUT first)" % entry)
        prog = Program(entry)
        dl, inputs = Translator(prog, flavour).translate()
        os.makedirs(args.output, exist_ok=True)
        with open(os.path.join(args.output, "analysis.dl"), "w") as f:
            f.write(dl)
        write_facts(prog, flavour, inputs, os.path.join(args.output, "facts"))
    except (Error, OSError) as e:
        print("to_souffle: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
