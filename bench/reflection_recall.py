#!/usr/bin/env python3
"""Tables of bench/reflection.sh: refract's reflective targets against TamiFlex's refl.log.

A refl.log line KIND;TARGET;CALLER;LINE;META;COUNT (../shared/tamiflex/README.md) is found when
refract's OUT/reflection.json has a site of that KIND in a method of CALLER's class and name
whose targets include TARGET. Names are compared without Soot's quotes (refract's signatures
quote Jimple's reserved words, `java.lang.'annotation'.Retention`; TamiFlex's do not). Callers
are split by the origin of their class as the tamiflex README splits them: a class the JDK 17
image defines, or one named java.*, javax.*, jdk.*, sun.*, com.sun.*, is the JDK's; else a
class of the class-path jars (and the jars their manifests name) is the application's; else
"other". A program run with several mains (lucene) counts a line found when any run finds it.

Reads ROOT/PROGRAM/program.env and ROOT/PROGRAM/FLAVOUR/MODE-N{,.run} as bench/reflection.sh
leaves them; prints Markdown tables. Standard library only.
"""

import argparse
import glob
import json
import os
import re
import sys
import zipfile

KINDS = [
    "Class.forName",
    "Class.newInstance",
    "Constructor.newInstance",
    "Method.invoke",
    "Field.get*",
    "Field.set*",
    "Array.newInstance",
]
JDK_PREFIXES = ("java.", "javax.", "jdk.", "sun.", "com.sun.")
# Classes the JVM makes at run time: no static analysis can name them as TamiFlex saw them.
GENERATED = re.compile(
    r"(\$\$Lambda\$|^jdk\.internal\.reflect\.Generated\w*Accessor\d+$|\$Proxy\d+$|"
    r"^jdk\.proxy\d+\.)"
)
PRIMITIVES = {
    "Z": "boolean", "B": "byte", "C": "char", "S": "short",
    "I": "int", "J": "long", "F": "float", "D": "double",
}


def unquote(name):
    return name.replace("'", "")


def source_form(type_name):
    """`[I` -> `int[]`, `[[La.B;` -> `a.B[][]`; other names unchanged."""
    if not type_name.startswith("["):
        return type_name
    depth = len(type_name) - len(type_name.lstrip("["))
    element = type_name[depth:]
    if element.startswith("L") and element.endswith(";"):
        element = element[1:-1]
    else:
        element = PRIMITIVES.get(element, element)
    return element + "[]" * depth


def normal_target(target):
    return source_form(unquote(target))


class LogLine:
    def __init__(self, kind, target, caller, line):
        self.kind = kind
        self.target = normal_target(target)
        self.caller_class, _, self.caller_method = caller.rpartition(".")
        self.line = int(line) if line else None

    def key(self):
        return (self.kind, self.target, self.caller_class, self.caller_method, self.line)


def read_log(path):
    """The lines of the kinds in KINDS, one per (kind, target, caller, line)."""
    lines = {}
    with open(path, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            fields = text.rstrip("\n").split(";")
            if len(fields) < 6:
                sys.exit(f"{path}:{number}: {len(fields)} fields, expected 6")
            # A JVM-form array class (`[La.B;`) in TARGET brings its own `;`.
            kind, target = fields[0], ";".join(fields[1:-4])
            caller, line = fields[-4], fields[-3]
            if kind in KINDS:
                entry = LogLine(kind, target, caller, line)
                lines[entry.key()] = entry
    return list(lines.values())


def classes_in_zip(path, prefix=""):
    names = set()
    with zipfile.ZipFile(path) as z:
        for n in z.namelist():
            if n.startswith(prefix) and n.endswith(".class"):
                names.add(n[len(prefix):-len(".class")].replace("/", "."))
    return names


def manifest_class_path(jar):
    """The jars a jar's manifest Class-Path names, resolved beside it."""
    try:
        with zipfile.ZipFile(jar) as z:
            text = z.read("META-INF/MANIFEST.MF").decode("utf-8", "replace")
    except (KeyError, OSError, zipfile.BadZipFile):
        return []
    text = re.sub(r"\r?\n ", "", text)  # continuation lines
    m = re.search(r"^Class-Path:(.*)$", text, re.M)
    if not m:
        return []
    return [os.path.join(os.path.dirname(jar), p) for p in m.group(1).split()]


class Origins:
    def __init__(self, class_path, jdk):
        self.jdk = set()
        for jmod in glob.glob(os.path.join(jdk, "jmods", "*.jmod")):
            self.jdk |= classes_in_zip(jmod, "classes/")
        if not self.jdk:
            sys.exit(f"reflection_recall.py: no classes in {jdk}/jmods")
        self.app = set()
        todo, seen = [e for e in class_path.split(":") if e], set()
        while todo:
            entry = os.path.realpath(todo.pop())
            if entry in seen or not os.path.exists(entry):
                continue
            seen.add(entry)
            if os.path.isdir(entry):
                for root, _, files in os.walk(entry):
                    for f in files:
                        if f.endswith(".class"):
                            rel = os.path.relpath(os.path.join(root, f), entry)
                            self.app.add(rel[: -len(".class")].replace(os.sep, "."))
            else:
                self.app |= classes_in_zip(entry)
                todo += manifest_class_path(entry)

    def of(self, cls):
        if cls in self.jdk or cls.startswith(JDK_PREFIXES):
            return "jdk"
        return "app" if cls in self.app else "other"


def signature_owner_and_name(signature):
    """`<a.'b'.C: void 'm'(int)>` -> ("a.b.C", "m")."""
    owner, _, rest = signature[1:].partition(": ")
    before_params = rest.split("(", 1)[0]
    return unquote(owner), unquote(before_params.rsplit(" ", 1)[-1])


def report_target(kind, target):
    """A report target as the log names it: Class.newInstance's constructor as its class."""
    target = unquote(target)
    if kind == "Class.newInstance" and target.startswith("<"):
        owner, name = signature_owner_and_name(target)
        if name == "<init>":
            return owner
    return source_form(target)


class Site:
    def __init__(self, s):
        self.id = s["site"]
        self.kind = s["kind"]
        self.line = s["line"]
        self.targets = {report_target(self.kind, t["target"]) for t in s["targets"]}
        self.unsound = s["possibly_unsound"]
        self.no_metaobject = s["no_metaobject"]


class Report:
    """One run's reflection.json, its sites by (kind, caller class, caller name)."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        self.mode = data["mode"]
        self.notice = data["notice"]
        self.sites = {}
        self.by_caller = {}
        # a call the report says to annotate (Fig. 14: the entry and member-introspecting calls
        # of a flagged site) -> the flagged sites it is listed for
        self.annotate_for = {}
        for s in data["sites"]:
            site = Site(s)
            self.sites[site.id] = site
            for call in s["annotate_entries"] + s["annotate_lookups"]:
                self.annotate_for.setdefault(call, []).append(site.id)
            owner, name = signature_owner_and_name(s["caller"])
            self.by_caller.setdefault((site.kind, owner, name), []).append(site)
        self.imprecise = {p["site"]: p["measure"] for p in data["possibly_imprecise"]}


def read_env(path):
    env = {}
    with open(path, encoding="utf-8") as f:
        for text in f:
            key, _, value = text.rstrip("\n").partition("=")
            env[key] = value
    return env


class Run:
    """One refract run: OUT and OUT.run."""

    def __init__(self, out, main):
        self.out, self.main = out, main
        self.env = read_env(out + ".run")
        self.status = self.env["status"]
        self.seconds = float(self.env["seconds"]) if self.env.get("seconds") else None
        self.rss_mib = int(self.env["rss_kib"]) // 1024 if self.env.get("rss_kib") else None
        self.report = None
        if self.status == "ok" and os.path.exists(os.path.join(out, "reflection.json")):
            self.report = Report(os.path.join(out, "reflection.json"))
        self.stats = None
        if self.status == "ok":
            with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
                self.stats = json.load(f)

    def lines_of(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return set(f.read().splitlines())

    def where_stopped(self):
        """`stratum 94/120 (Reachable, ...), sweep 21` from the solver's last message."""
        try:
            with open(self.out + ".log", encoding="utf-8", errors="replace") as f:
                text = f.read()
        except OSError:
            return f"sweep {self.env.get('sweep', '-')}"
        found = re.findall(r"in stratum (\d+/\d+) \{([^,}]*)(,?)[^}]*\} sweep (\d+)", text)
        if not found:
            return f"sweep {self.env.get('sweep', '-')}"
        stratum, first, more, sweep = found[-1]
        return f"stratum {stratum} ({first}{', ...' if more else ''}), sweep {sweep}"

    def stopped_text(self):
        at = f" at {self.seconds:.0f} s" if self.seconds else ""
        if self.status == "stopped":
            return f"stopped{at}, {self.where_stopped()}"
        if self.status == "memory":
            return f"memory budget{at}, sweep {self.env.get('sweep', '-')}"
        if self.status == "skipped":
            return self.env.get("why", "not run")
        return self.status


class Group:
    """The runs of one program, flavour and mode (one per main)."""

    def __init__(self, runs, mode):
        self.runs, self.mode = runs, mode
        self.ok = all(r.status == "ok" for r in runs)
        self.reached = None  # (class, method name) of the reachable methods, when asked
        self.callees = None  # call site -> methods its edges reach (call-edges.tsv), when asked

    def status(self):
        if self.ok:
            return "ok"
        if len(self.runs) == 1:
            return self.runs[0].stopped_text()
        return "; ".join(f"{r.main.rsplit('.', 1)[-1]}: {r.stopped_text()}" for r in self.runs)

    def seconds(self):
        if any(r.seconds is None for r in self.runs):
            return None
        return sum(r.seconds for r in self.runs)

    def nodes_produced(self):
        """BDD nodes produced, summed over the runs: the solver's work, which no load changes."""
        if not self.ok:
            return None
        return sum(r.stats["bdd_nodes_produced"] for r in self.runs)

    def rss(self):
        values = [r.rss_mib for r in self.runs if r.rss_mib is not None]
        return max(values) if values else None

    def load(self):
        start = self.runs[0].env.get("load_start", "-").split()[0]
        end = self.runs[-1].env.get("load_end", "-").split()[0]
        return f"{start} / {end}"

    def union(self, count):
        """Union of a set over the runs: methods, edges, poly sites, casts."""
        if not self.ok:
            return None
        if count == "methods":
            sets = [r.lines_of("reachable-methods.txt") for r in self.runs]
        elif count == "edges":
            sets = [r.lines_of("call-edges.tsv") for r in self.runs]
        elif count == "poly":
            sets = [set(r.stats["polymorphic_call_site_list"]) for r in self.runs]
        else:
            sets = [set(r.stats["may_fail_cast_list"]) for r in self.runs]
        if len(self.runs) == 1:  # stats.json's count, exactly as refract printed it
            key = {"methods": "reachable_methods", "edges": "call_edges",
                   "poly": "polymorphic_call_sites", "casts": "may_fail_casts"}[count]
            return self.runs[0].stats[key]
        return len(set().union(*sets))

    def reports(self):
        return [r.report for r in self.runs if r.report is not None]

    def site_counts(self):
        """Sites reached, flagged unsound, no metaobject, imprecise (>1, >10): union by id."""
        sites, imprecise = {}, {}
        for rep in self.reports():
            sites.update(rep.sites)
            imprecise.update(rep.imprecise)
        return (len(sites), sum(1 for s in sites.values() if s.unsound),
                sum(1 for s in sites.values() if s.no_metaobject),
                len(imprecise), sum(1 for m in imprecise.values() if m > 10))

    def candidate_sites(self, entry):
        """The sites of the entry's kind in its caller; on its line when some are."""
        sites = {}
        for rep in self.reports():
            for s in rep.by_caller.get((entry.kind, entry.caller_class, entry.caller_method), []):
                sites[s.id] = s
        on_line = {i: s for i, s in sites.items() if entry.line is not None and s.line == entry.line}
        return list(sites.values()), list(on_line.values()) or list(sites.values())

    def edges_from(self, site):
        if self.callees is None:
            self.callees = {}
            for r in self.runs:
                for text in r.lines_of("call-edges.tsv"):
                    caller_site, _, callee = text.partition("\t")
                    self.callees.setdefault(caller_site, set()).add(callee)
        return self.callees.get(site, set())

    def finds(self, entry):
        every, _ = self.candidate_sites(entry)
        if any(entry.target in s.targets for s in every):
            return True
        # TamiFlex logs the method Method.invoke ran, after dispatch on the receiver; refract's
        # site targets are the methods the Method objects name, and its call edges the ones run
        return entry.kind == "Method.invoke" and any(
            entry.target in {report_target(entry.kind, c) for c in self.edges_from(s.id)}
            for s in every)

    def sites_finding(self, entry):
        """The sites of the entry's kind anywhere that find its target, by id."""
        found = set()
        for rep in self.reports():
            found |= {s.id for s in rep.sites.values()
                      if s.kind == entry.kind and entry.target in s.targets}
        return sorted(found)

    def caller_reached(self, entry):
        if self.reached is None:
            self.reached = set()
            for r in self.runs:
                self.reached |= {signature_owner_and_name(m)
                                 for m in r.lines_of("reachable-methods.txt")}
        return (entry.caller_class, entry.caller_method) in self.reached

    def why_missed(self, entry):
        """Where a missed line lies, as the report sees it."""
        every, narrowed = self.candidate_sites(entry)
        notes = []
        if GENERATED.search(entry.target):
            notes.append("target generated at run time")
        if not every:
            if self.caller_reached(entry):
                elsewhere = self.sites_finding(entry)
                notes.append(f"caller reached, no {entry.kind} call in it (a callee's, which "
                             "TamiFlex's frame skipping attributes to it); "
                             + (f"found at {len(elsewhere)} other site(s), e.g. `{elsewhere[0]}`"
                                if elsewhere else "found at no other site"))
            else:
                notes.append("caller not reached")
            return "; ".join(notes)
        if entry.line is not None and not any(s.line == entry.line for s in every):
            # TamiFlex skips the frames of the JDK's reflection machinery (annotation parsing,
            # accessors), so a call the JDK makes under the caller's call on this line is
            # recorded against the caller: the site that made it is the JDK's
            elsewhere = self.sites_finding(entry)
            notes.append(f"no {entry.kind} call on line {entry.line} (a callee's, which TamiFlex's"
                         " frame skipping attributes to it); "
                         + (f"found at {len(elsewhere)} other site(s), e.g. `{elsewhere[0]}`"
                            if elsewhere else "found at no other site"))
            return "; ".join(notes)
        reasons = sorted({r for s in narrowed for r in s.unsound})
        if reasons:
            notes.append("flagged possibly unsound: " + ", ".join(reasons))
        if any(s.no_metaobject for s in narrowed):
            notes.append("no metaobject reaches")
        # an entry call (forName, getMethods, ...) is no side-effect call, so no criterion
        # flags it; the report names it as a call to annotate where its unknown class or
        # member reaches a flagged site (Sec. 4.5)
        listed = sorted({f for s in narrowed for rep in self.reports()
                         for f in rep.annotate_for.get(s.id, [])})
        if listed:
            notes.append(f"listed as a call to annotate for {len(listed)} flagged site(s), e.g."
                         f" `{listed[0]}`")
        if not reasons and not listed and not any(s.no_metaobject for s in narrowed):
            notes.append(f"NOT FLAGGED ({len(narrowed)} site(s), "
                         f"{sum(len(s.targets) for s in narrowed)} targets)")
        return "; ".join(notes)


def fmt(value, spec="d"):
    return "-" if value is None else format(value, spec)


def load_program(root, program, modes, flavours):
    env = read_env(os.path.join(root, program, "program.env"))
    mains = env["mains"].split()
    groups = {}
    for flavour in flavours:
        for mode in modes:
            runs = []
            for n, main in enumerate(mains, 1):
                out = os.path.join(root, program, flavour, f"{mode}-{n}")
                if os.path.exists(out + ".run"):
                    runs.append(Run(out, main))
            if len(runs) == len(mains):
                groups[(flavour, mode)] = Group(runs, mode)
    return env, groups


def recall_cells(group, lines, origin_of, origin):
    cells, found_all, seen_all = [], 0, 0
    for kind in KINDS:
        mine = [e for e in lines if e.kind == kind and origin_of(e.caller_class) == origin]
        seen = len(mine)
        if group.mode.split(":")[0] == "none":
            found = 0 if group.ok else None  # no reflective targets by construction
        elif group.ok:
            found = sum(1 for e in mine if group.finds(e))
        else:
            found = None
        seen_all += seen
        found_all = None if found is None or found_all is None else found_all + found
        cells.append(f"{fmt(found)}/{seen}" if seen else "")
    cells.append(f"{fmt(found_all)}/{seen_all}")
    return cells


def table(header, rows):
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for r in rows:
        print("| " + " | ".join(str(c) for c in r) + " |")
    print()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--root", required=True)
    p.add_argument("--programs", required=True)
    p.add_argument("--modes", required=True)
    p.add_argument("--flavours", required=True)
    a = p.parse_args()
    programs, modes, flavours = a.programs.split(), a.modes.split(), a.flavours.split()

    loaded = {}
    for program in programs:
        if not os.path.exists(os.path.join(a.root, program, "program.env")):
            print(f"reflection_recall.py: no runs of {program} under {a.root}", file=sys.stderr)
            continue
        env, groups = load_program(a.root, program, modes, flavours)
        origins = Origins(env["classpath"], env["jdk"])
        lines = read_log(env["log"])
        loaded[program] = (env, groups, origins, lines)

    print("\n### Runs\n")
    print("seconds: wall clock of the whole `refract analyze` (summed over lucene's two mains);"
          " x none: against the none run of the program and flavour; Mnodes: BDD nodes the solver"
          " produced, in millions (its work, which the machine's load does not change), and x"
          " none and x tamiflex of it (tamiflex: the recorded targets without inference, where"
          " that mode ran); load: 1-minute load"
          " average at the start / end; sites: reflective call sites reached; unsound, no-meta:"
          " sites the report flags possibly unsound, side-effect sites no metaobject reaches;"
          " imprecise: reflection.json's possibly_imprecise (more than 1 target or type made"
          " at casts), and more than 10.\n")
    rows = []
    for program, (env, groups, origins, lines) in loaded.items():
        for flavour in flavours:
            base = groups.get((flavour, "none"))
            logged = groups.get((flavour, "tamiflex"))
            for mode in modes:
                g = groups.get((flavour, mode))
                if g is None:
                    continue
                secs = g.seconds()
                ratio = nodes_ratio = None
                if g.ok and base is not None and base.ok and base.seconds():
                    ratio = secs / base.seconds()
                    nodes_ratio = g.nodes_produced() / base.nodes_produced()
                counts = g.site_counts() if g.ok and mode.split(":")[0] != "none" else (None,) * 5
                logged_ratio = None
                if g.ok and logged is not None and logged.ok:
                    logged_ratio = g.nodes_produced() / logged.nodes_produced()
                mnodes = g.nodes_produced() / 1e6 if g.ok else None
                rows.append([program, flavour, mode, g.status(), fmt(secs, ".0f"),
                             fmt(ratio, ".2f"), fmt(mnodes, ".0f"), fmt(nodes_ratio, ".2f"),
                             fmt(logged_ratio, ".2f"), fmt(g.rss()), g.load(),
                             fmt(g.union("methods")), fmt(g.union("edges")),
                             fmt(g.union("poly")), fmt(g.union("casts")),
                             fmt(counts[0]), fmt(counts[1]), fmt(counts[2]),
                             f"{fmt(counts[3])} / {fmt(counts[4])}"])
    table(["program", "flavour", "mode", "status", "seconds", "x none", "Mnodes",
           "x none", "x tamiflex", "peak MiB", "load",
           "methods", "edges", "poly", "casts", "sites", "unsound", "no-meta",
           "imprecise >1 / >10"], rows)

    for origin, title in (("app", "application"), ("jdk", "JDK")):
        print(f"\n### Recall at callers in the {title}: refl.log lines found / seen\n")
        rows = []
        for program, (env, groups, origins, lines) in loaded.items():
            for flavour in flavours:
                for mode in modes:
                    g = groups.get((flavour, mode))
                    if g is not None:
                        rows.append([program, flavour, mode]
                                    + recall_cells(g, lines, origins.of, origin))
        table(["program", "flavour", "mode"] + KINDS + ["all"], rows)

    others = {p: sum(1 for e in v[3] if v[2].of(e.caller_class) == "other")
              for p, v in loaded.items()}
    if any(others.values()):
        print("refl.log lines of these kinds with callers neither in the application nor in the"
              " JDK (not counted above): "
              + ", ".join(f"{p} {n}" for p, n in others.items() if n) + "\n")
    generated = {p: sum(1 for e in v[3] if GENERATED.search(e.target)) for p, v in loaded.items()}
    print("Of the lines seen, targets the JVM generates at run time (lambdas, proxies, reflection"
          " accessors), which no static analysis names: "
          + ", ".join(f"{p} {n}" for p, n in generated.items()) + "\n")

    print("\n### solar: the lines at application callers it misses, and where they lie\n")
    for program, (env, groups, origins, lines) in loaded.items():
        rows = []
        solar_ran = False
        for flavour in flavours:
            # solar as inferred, and solar with the program's annotations where that ran
            for mode in ("solar", "solar@annotated"):
                g = groups.get((flavour, mode))
                if g is None:
                    continue
                solar_ran = True
                if not g.ok:
                    rows.append([flavour, mode, "", "", "", g.status()])
                    continue
                ran = {rep.mode for rep in g.reports()}
                if ran != {"solar"}:
                    rows.append([flavour, mode, "", "", "",
                                 "the report's mode: " + ", ".join(sorted(ran))])
                for e in sorted(lines, key=lambda e: (e.kind, e.target, e.caller_class)):
                    if origins.of(e.caller_class) == "app" and not g.finds(e):
                        where = f"{e.caller_class}.{e.caller_method}:{e.line if e.line else ''}"
                        rows.append([flavour, mode, e.kind, f"`{e.target}`", f"`{where}`",
                                     g.why_missed(e)])
        # "none missed" only where solar ran: a program without a solar run misses nothing known
        verdict = "" if rows else (": none missed" if solar_ran else ": no solar run")
        print(f"**{program}**" + verdict + "\n")
        if rows:
            table(["flavour", "mode", "kind", "target", "caller:line", "where"], rows)


if __name__ == "__main__":
    main()
