#!/usr/bin/env python3
"""Translates a bddbddb-style Datalog program and its .tuples inputs into one
gringo (ASP-Core) program, mechanically, so that gringo can evaluate the same
rules on the same facts and its result sizes can be compared with refract's.

    to_gringo.py PROGRAM.datalog [--input-dir D] [-o OUT.lp]
    to_gringo.py PROGRAM.datalog [--input-dir D] --run [--gringo gringo]

The second form also runs `gringo --text` on the translation and prints one
line `NAME<TAB>COUNT` per printsize relation, like `refract solve` does.

The translation:
  * relation r becomes predicate r_r (gringo predicates start lower case);
  * Datalog variable x becomes X_x, `_` stays `_`, `*` in a body becomes `_`;
  * numbers stay numbers and "quoted" names become their line number in the
    domain's map file;
  * `!a(...)` becomes `not r_a(...)`; comparisons keep their operator
    (`=`, `!=`, `<`, `<=`, `>`, `>=`);
  * a variable that no positive body atom binds (it appears only in the head,
    in negated atoms or in comparisons, or a `*` in the head) ranges over its
    whole domain in bddbddb; the translation binds it with dom_D(X), where
    dom_D(0..SIZE-1) lists the domain's elements;
  * each inputtuples relation's file NAME.tuples becomes facts; a field `*`
    becomes the whole domain interval and `lo-hi` the interval lo..hi.
gringo evaluates stratified programs completely while grounding, so its text
output lists exactly the derived facts.

Supported input: the subset of bddbddb's language refract reads (domains,
relations, rules, directives, which are ignored here). Comment lines start
with `#` or `//`.
"""

import argparse
import os
import re
import subprocess
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
DOMAIN_RE = re.compile(r"^(%s)\s+(\d+)(?:\s+(\S+))?\s*$" % IDENT)
RELATION_RE = re.compile(r"^(%s)\s*\((.*)\)\s*([A-Za-z_\s]*)$" % IDENT)
COMPARE_OPS = ["!=", "<=", ">=", "=", "<", ">"]


class Error(Exception):
    pass


def strip_comment(line):
    s = line.strip()
    if s.startswith("#") or s.startswith("//"):
        return ""
    # A trailing // comment outside quotes.
    in_quote = False
    for k, ch in enumerate(line):
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and line.startswith("//", k):
            return line[:k]
    return line


def ends_statement(text):
    """A rule ends with a '.' outside quotes at the end of the text."""
    in_quote = False
    last = None
    for ch in text:
        if ch == '"':
            in_quote = not in_quote
        elif not in_quote and not ch.isspace():
            last = ch
    return not in_quote and last == "."


def split_top(text, sep=","):
    """Splits at sep outside parentheses and quotes."""
    parts, depth, in_quote, cur = [], 0, False, []
    for ch in text:
        if ch == '"':
            in_quote = not in_quote
        if not in_quote:
            if ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            elif ch == sep and depth == 0:
                parts.append("".join(cur).strip())
                cur = []
                continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


class Program:
    def __init__(self, path, input_dir=None):
        self.path = path
        self.dir = os.path.dirname(os.path.abspath(path))
        self.input_dir = input_dir or self.dir
        self.domains = {}  # name -> (size, map file or None)
        self.relations = {}  # name -> ([logical domain of each attribute], flags)
        self.order = []  # relation names in declaration order
        self.rules = []  # raw rule texts
        self._maps = {}
        self._parse()

    def _parse(self):
        with open(self.path) as f:
            lines = f.read().split("\n")
        pending, pending_line = "", 0
        for lineno, raw in enumerate(lines, start=1):
            line = strip_comment(raw).strip()
            if not line:
                continue
            if pending:
                pending += " " + line
                if ends_statement(pending):
                    self.rules.append((pending_line, pending))
                    pending = ""
                continue
            if line.startswith("."):
                if line.startswith(".include"):
                    raise Error("%s:%d: .include is not supported by to_gringo.py"
                                % (self.path, lineno))
                continue  # .bddvarorder, .bddnodes, .bddcache, .basedir: no meaning here
            m = DOMAIN_RE.match(line)
            if m and ":-" not in line:
                self.domains[m.group(1)] = (int(m.group(2)), m.group(3))
                continue
            m = RELATION_RE.match(line)
            if m and ":-" not in line and ":" in m.group(2):
                attrs = []
                for a in split_top(m.group(2)):
                    if ":" not in a:
                        raise Error("%s:%d: attribute without domain: %r"
                                    % (self.path, lineno, a))
                    dom = a.split(":", 1)[1].strip()
                    attrs.append(re.sub(r"\d+$", "", dom))
                self.relations[m.group(1)] = (attrs, m.group(3).split())
                self.order.append(m.group(1))
                continue
            if ends_statement(line):
                self.rules.append((lineno, line))
            else:
                pending, pending_line = line, lineno
        if pending:
            raise Error("%s:%d: unterminated rule" % (self.path, pending_line))
        for name, (attrs, _) in self.relations.items():
            for d in attrs:
                if d not in self.domains:
                    raise Error("%s: relation %s uses unknown domain %s"
                                % (self.path, name, d))

    def element(self, domain, name):
        if domain not in self._maps:
            size, map_file = self.domains[domain]
            if map_file is None:
                raise Error("domain %s has no map file for \"%s\"" % (domain, name))
            with open(os.path.join(self.input_dir, map_file)) as f:
                self._maps[domain] = {l.rstrip("\n"): k for k, l in enumerate(f)}
        try:
            return self._maps[domain][name]
        except KeyError:
            raise Error("\"%s\" is not an element of domain %s" % (name, domain))


def pred(rel):
    return "r_" + rel


def parse_atom(text):
    text = text.strip()
    negated = text.startswith("!")
    if negated:
        text = text[1:].strip()
    m = re.match(r"^(%s)\s*\((.*)\)$" % IDENT, text)
    if not m:
        return None
    return m.group(1), split_top(m.group(2)), negated


def translate_rule(prog, lineno, text, out):
    where = "%s:%d" % (prog.path, lineno)
    text = text.strip()
    if text.endswith("."):
        text = text[:-1]
    head_text, _, body_text = text.partition(":-")
    head_text, body_text = head_text.strip(), body_text.strip()
    fresh = [0]
    var_domain = {}  # variable -> logical domain
    bound = set()

    def term(t, domain, in_head, positive):
        t = t.strip()
        if t == "_":
            if in_head:
                raise Error("%s: '_' in a rule head" % where)
            return "_"
        if t == "*":
            if not in_head:
                return "_"
            fresh[0] += 1
            v = "U_%d" % fresh[0]
            var_domain[v] = domain
            return v
        if re.fullmatch(r"\d+", t):
            return t
        if t.startswith('"') and t.endswith('"'):
            if domain is None:
                raise Error("%s: cannot tell the domain of %s" % (where, t))
            return str(prog.element(domain, t[1:-1]))
        if re.fullmatch(IDENT, t):
            v = "X_" + t
            if domain is not None:
                var_domain.setdefault(v, domain)
            if positive:
                bound.add(v)
            return v
        raise Error("%s: cannot read term %r" % (where, t))

    def atom(a, in_head):
        rel, args, negated = a
        if rel not in prog.relations:
            raise Error("%s: unknown relation %s" % (where, rel))
        doms = prog.relations[rel][0]
        if len(args) != len(doms):
            raise Error("%s: %s takes %d arguments" % (where, rel, len(doms)))
        positive = not in_head and not negated
        s = "%s(%s)" % (pred(rel), ",".join(term(t, d, in_head, positive)
                                             for t, d in zip(args, doms)))
        return ("not " if negated else "") + s

    body = []
    comparisons = []
    for lit in (split_top(body_text) if body_text else []):
        a = parse_atom(lit)
        if a is not None:
            body.append(atom(a, False))
            continue
        for op in COMPARE_OPS:
            if op in lit:
                left, right = lit.split(op, 1)
                comparisons.append((left, op, right))
                break
        else:
            raise Error("%s: cannot read literal %r" % (where, lit))
    for left, op, right in comparisons:
        # A side's domain is that of the variable on either side (a compared
        # variable takes the other's domain; a "name" needs it for lookup).
        left, right = left.strip(), right.strip()
        dom = var_domain.get("X_" + left) or var_domain.get("X_" + right)
        lt = term(left, dom, False, False)
        rt = term(right, dom, False, False)
        body.append("%s %s %s" % (lt, op, rt))
    h = parse_atom(head_text)
    if h is None or h[2]:
        raise Error("%s: cannot read rule head %r" % (where, head_text))
    head = atom(h, True)
    # Variables bddbddb lets range over the domain; gringo needs them bound.
    used = set(re.findall(r"\b(?:X_[A-Za-z0-9_]+|U_\d+)\b", head + " " + " ".join(body)))
    guards = []
    for v in sorted(used - bound):
        if v not in var_domain:
            raise Error("%s: cannot tell the domain of variable %s" % (where, v[2:]))
        guards.append("dom_%s(%s)" % (var_domain[v], v))
    full = body + guards
    out.append("%s :- %s." % (head, ", ".join(full)) if full else "%s." % head)
    return {g.split("(")[0][4:] for g in guards}


def read_tuples(prog, rel, out):
    attrs, _ = prog.relations[rel]
    path = os.path.join(prog.input_dir, rel + ".tuples")
    p = pred(rel)
    with open(path) as f:
        for lineno, line in enumerate(f, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) != len(attrs):
                raise Error("%s:%d: %d fields, relation %s has %d"
                            % (path, lineno, len(fields), rel, len(attrs)))
            args = []
            for fld, d in zip(fields, attrs):
                if fld == "*":
                    args.append("0..%d" % (prog.domains[d][0] - 1))
                elif "-" in fld:
                    lo, hi = fld.split("-", 1)
                    args.append("%d..%d" % (int(lo), int(hi)))
                else:
                    args.append(str(int(fld)))
            out.append("%s(%s)." % (p, ",".join(args)))


def translate(prog):
    out = ["% Generated by bench/to_gringo.py from " + os.path.basename(prog.path)]
    needed = set()
    for lineno, text in prog.rules:
        needed |= translate_rule(prog, lineno, text, out)
    for d in sorted(needed):
        out.insert(1, "dom_%s(0..%d)." % (d, prog.domains[d][0] - 1))
    for rel in prog.order:
        if "inputtuples" in prog.relations[rel][1]:
            read_tuples(prog, rel, out)
    return "\n".join(out) + "\n"


def count_gringo(text_lines, relations):
    """Counts the ground facts of each relation in gringo --text output."""
    prefixes = {pred(r) + "(": r for r in relations}
    counts = {r: 0 for r in relations}
    for line in text_lines:
        k = line.find("(")
        if k > 0:
            r = prefixes.get(line[:k + 1])
            if r is not None and line.rstrip().endswith(")."):
                counts[r] += 1
    return counts


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program")
    ap.add_argument("--input-dir")
    ap.add_argument("-o", "--output", help="write the gringo program here (default stdout)")
    ap.add_argument("--run", action="store_true",
                    help="run gringo --text on it and print NAME<TAB>COUNT per printsize relation")
    ap.add_argument("--gringo", default="gringo")
    ap.add_argument("--relations", help="comma-separated relations to count (default: printsize ones)")
    args = ap.parse_args()
    try:
        prog = Program(args.program, args.input_dir)
        lp = translate(prog)
    except (Error, OSError) as e:
        print("to_gringo: %s" % e, file=sys.stderr)
        return 1
    if args.output:
        with open(args.output, "w") as f:
            f.write(lp)
    elif not args.run:
        sys.stdout.write(lp)
    if args.run:
        rels = (args.relations.split(",") if args.relations else
                [r for r in prog.order if "printsize" in prog.relations[r][1]])
        proc = subprocess.Popen([args.gringo, "--text"] + ([args.output] if args.output else []),
                                stdin=None if args.output else subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True)
        if not args.output:
            proc.stdin.write(lp)
            proc.stdin.close()
        counts = count_gringo(proc.stdout, rels)
        if proc.wait() != 0:
            print("to_gringo: gringo failed", file=sys.stderr)
            return 1
        for r in rels:
            print("%s\t%d" % (r, counts[r]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
