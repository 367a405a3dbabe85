#!/usr/bin/env python3
"""Check the shape of the tree: seven architecture rules on the built objects
and the sources.

usage: check-shape.py [--src DIR] [--obj DIR]

  --src DIR  the source tree (default: the repository holding this script)
  --obj DIR  its objects (default: DIR/build/obj of the source tree)

Rules (one output line per violation, then a summary; exit 1 on any):

 1. A command object (cli/cmd-*.o) uses no symbol defined in another
    command object.  Commands share code through cli.o (or main.o, which
    rule 2 then limits), never through each other, so that any command can
    be changed or dropped alone.
 2. No cycle between objects, library and cli alike: "A uses a symbol B
    defines" must be a DAG.  Every strongly connected component of more
    than one object is reported with the symbols that make each edge.
    main.o calling cmd_review() and cmd-review.o calling back into a
    helper of main.o is such a cycle: the helper belongs in cli.o.
 3. A library object (lib/...) never writes to the terminal by itself: it
    references none of stdout, stderr, the printf and puts families that
    have no stream argument, perror.  Writing to a FILE * the caller hands
    in is how the library prints (fs_report_print(out, ...)), so the
    functions taking a stream (fprintf, vfprintf, fputs, fputc, fwrite and
    their _chk/_unlocked aliases) are allowed -- but only in an object that
    does not also name stdout or stderr: there nm cannot tell
    fprintf(out, ...) from fprintf(stderr, ...), so each of them is
    reported too.
 4. No function longer than 120 lines in lib/ or cli/ (tests are not
    checked), counted by universal-ctags from the line of its name to its
    closing brace; no .c file there longer than 1,000 lines (a file that
    long holds more than one concern).
 5. The folders of lib/ are layers, listed bottom-up in lib/LAYERS; the
    files at the top of lib/ stand above them all.  No file of lib/ and
    no public header includes a header of a higher layer.  A private
    header ("index/format.h", or "format.h" beside its includer) is of
    its folder; a public one, include/fixscan/X.h, of the folder of its
    module: the folder holding X.c or X-*.c, or the one named X.  A
    public header that names no module, or several, is reported too:
    its layer would be a guess.
 6. No library object uses a symbol that only objects of higher layers
    define (the edges of rule 2, read by layer): a call upward is the
    same wrong edge as an include upward, and nm sees it even when a
    declaration was copied instead of included.
 7. No header of the library (include/fixscan/*.h, and the private ones
    under lib/) tells its caller to free a string, array or member with
    plain free(): every string that crosses a header is GLib's
    (g_strdup, g_strdup_printf, g_new, g_strsplit...) and is freed with
    g_free() or g_strfreev(), so a caller never has to know which
    allocator a module happened to use.  A word "free()" not preceded by
    g_ or another identifier character is reported; fs_x_free() and
    g_free() are not.

Everything symbol-based comes from one nm run over the plain objects:
compiled code, not grep over sources, so a macro or an inline function
cannot hide a call.  Only global symbols make edges (a static function is
private to its object); symbols no object defines (libc, glib...) make
none.  An object whose source file is gone (a file removed or moved since
the last build) is skipped: it is not part of the program any more.
"""
import argparse
import json
import os
import re
import subprocess
import sys

MAX_FUNCTION_LINES = 120
MAX_FILE_LINES = 1000

# Rule 3.  Symbols that always mean the terminal.  gcc turns printf("x\n")
# into puts("x") and printf("%c", c) into putchar(c), and _FORTIFY_SOURCE
# into __printf_chk, hence the aliases.
TERMINAL_SYMBOLS = {
    "stdout", "stderr", "_IO_2_1_stdout_", "_IO_2_1_stderr_",
    "printf", "vprintf", "__printf_chk", "__vprintf_chk",
    "puts", "putchar", "putchar_unlocked", "perror",
}
STD_STREAMS = {"stdout", "stderr", "_IO_2_1_stdout_", "_IO_2_1_stderr_"}
# Functions that write to a stream given as an argument (gcc turns
# fprintf(f, "x") into fwrite or fputs, fprintf(f, "%c", c) into fputc).
STREAM_WRITERS = {
    "fprintf", "vfprintf", "__fprintf_chk", "__vfprintf_chk",
    "fputs", "fputs_unlocked", "fputc", "fputc_unlocked",
    "putc", "putc_unlocked", "_IO_putc", "fwrite", "fwrite_unlocked",
}

# nm letters: upper case is a global symbol.  U is undefined; on ELF a
# lower-case w or v is an undefined weak reference, which still uses the
# symbol.  N (debugging) and - (stabs) are not symbols of the program.
UNDEFINED_TYPES = set("Uwv")
NOT_SYMBOLS = set("N-")


def die(msg):
    print("check-shape: " + msg, file=sys.stderr)
    sys.exit(2)


def find_objects(src, obj):
    """The objects under OBJ whose source still exists, as paths relative to
    OBJ ("cli/main.o"), sorted."""
    objs = []
    for dirpath, _, files in os.walk(obj):
        for f in files:
            if not f.endswith(".o"):
                continue
            rel = os.path.relpath(os.path.join(dirpath, f), obj)
            if os.path.exists(os.path.join(src, rel[:-2] + ".c")):
                objs.append(rel)
    return sorted(objs)


def read_symbols(obj, objs):
    """{object: (defined globals, referenced undefined symbols)} from one
    nm run (run inside OBJ so that its output names the objects as OBJS)."""
    syms = {o: (set(), set()) for o in objs}
    if not objs:
        return syms
    try:
        out = subprocess.run(["nm", "-P", "-A", "--", *objs], cwd=obj,
                             check=True, capture_output=True, text=True).stdout
    except FileNotFoundError:
        die("nm not found (binutils)")
    except subprocess.CalledProcessError as e:
        die("nm failed: " + e.stderr.strip())
    # POSIX format: "cli/main.o: name type [value [size]]".
    for line in out.splitlines():
        path, sep, rest = line.partition(": ")
        fields = rest.split()
        if not sep or path not in syms or len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind in UNDEFINED_TYPES:
            syms[path][1].add(name)
        elif kind.isupper() and kind not in NOT_SYMBOLS:
            syms[path][0].add(name)
    return syms


def is_command(o):
    return re.fullmatch(r"cli/cmd-[^/]*\.o", o) is not None


def build_edges(syms):
    """{(user, definer): sorted symbols} for every symbol an object uses
    and another object defines."""
    definers = {}
    for o, (defined, _) in syms.items():
        for s in defined:
            definers.setdefault(s, []).append(o)
    edges = {}
    for o, (_, used) in syms.items():
        for s in used:
            for d in definers.get(s, ()):
                if d != o:
                    edges.setdefault((o, d), set()).add(s)
    return {k: sorted(v) for k, v in edges.items()}


def strongly_connected(nodes, edges):
    """Tarjan's algorithm, iterative (no recursion limit to think about).
    Returns the components, each a sorted list."""
    succ = {n: [] for n in nodes}
    for a, b in edges:
        succ[a].append(b)
    for n in succ:
        succ[n].sort()
    index, low, on_stack, stack, comps = {}, {}, set(), [], []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            n, i = work.pop()
            if i == 0:
                index[n] = low[n] = counter
                counter += 1
                stack.append(n)
                on_stack.add(n)
            if i < len(succ[n]):
                work.append((n, i + 1))
                m = succ[n][i]
                if m not in index:
                    work.append((m, 0))
                elif m in on_stack:
                    low[n] = min(low[n], index[m])
                continue
            # All successors done: N roots a component when nothing below
            # it reached further up the stack.
            if low[n] == index[n]:
                comp = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == n:
                        break
                comps.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[n])
    return comps


def rule1(edges):
    out = []
    for (a, b), names in sorted(edges.items()):
        if is_command(a) and is_command(b):
            for s in names:
                out.append("rule 1: %s uses %s defined in %s" % (a, s, b))
    return out


def rule2(objs, edges):
    out = []
    for comp in sorted(c for c in strongly_connected(objs, edges) if len(c) > 1):
        inside = set(comp)
        parts = ["%s -> %s (%s)" % (a, b, ", ".join(names))
                 for (a, b), names in sorted(edges.items())
                 if a in inside and b in inside]
        out.append("rule 2: cycle between %s: %s"
                   % (" ".join(comp), "; ".join(parts)))
    return out


def rule3(syms):
    out = []
    for o, (_, used) in sorted(syms.items()):
        if not o.startswith("lib/"):
            continue
        for s in sorted(used & TERMINAL_SYMBOLS):
            out.append("rule 3: %s uses %s" % (o, s))
        streams = sorted(used & STD_STREAMS)
        if streams:
            for s in sorted(used & STREAM_WRITERS):
                out.append("rule 3: %s uses %s next to %s"
                           % (o, s, ", ".join(streams)))
    return out


def sources_for_rule4(src):
    files = []
    for top in ("lib", "cli"):
        for dirpath, dirs, names in os.walk(os.path.join(src, top)):
            dirs[:] = sorted(d for d in dirs if d != "tests")
            for f in names:
                if f.endswith((".c", ".h")) and not f.startswith("test-"):
                    files.append(os.path.relpath(os.path.join(dirpath, f), src))
    return sorted(files)


def rule4(src):
    files = sources_for_rule4(src)
    if not files:
        return []
    # .h is C++ to ctags by default; here every header is C.
    cmd = ["ctags", "--languages=C", "--langmap=C:.c.h", "--kinds-C=f",
           "--fields=+ne", "--output-format=json", "-o", "-", *files]
    try:
        res = subprocess.run(cmd, cwd=src, check=True, capture_output=True, text=True)
    except FileNotFoundError:
        die("ctags not found (Debian: apt-get install universal-ctags)")
    except subprocess.CalledProcessError as e:
        die("ctags failed: " + e.stderr.strip())
    out = []
    for line in res.stdout.splitlines():
        try:
            tag = json.loads(line)
        except ValueError:
            # Exuberant ctags has no JSON output: say so instead of
            # passing with nothing measured.
            die("ctags gave no JSON; universal-ctags is needed")
        if tag.get("_type") != "tag" or tag.get("kind") != "function":
            continue
        if "end" not in tag:
            continue
        n = tag["end"] - tag["line"] + 1
        if n > MAX_FUNCTION_LINES:
            out.append((tag["path"], tag["line"], tag["name"], n))
    long_files = []
    for f in files:
        if f.endswith(".c"):
            with open(os.path.join(src, f), "rb") as fh:
                n = fh.read().count(b"\n")
            if n > MAX_FILE_LINES:
                long_files.append("rule 4: %s is %d lines (max %d)" % (f, n, MAX_FILE_LINES))
    return ["rule 4: %s:%d: %s is %d lines (max %d)"
            % (p, l, name, n, MAX_FUNCTION_LINES) for p, l, name, n in sorted(out)] + long_files


INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def read_layers(src):
    """The folder names of lib/LAYERS, bottom-up."""
    path = os.path.join(src, "lib", "LAYERS")
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        die("cannot read %s: %s" % (path, e.strerror))
    layers = [l.strip() for l in lines if l.strip() and not l.lstrip().startswith("#")]
    for l in layers:
        if not os.path.isdir(os.path.join(src, "lib", l)):
            die("lib/LAYERS names %s, which is no folder of lib/" % l)
    return layers


class Layers:
    """The rank of every file of lib/ and of every public header."""

    def __init__(self, src, layers):
        self.src = src
        self.rank = {name: i for i, name in enumerate(layers)}
        self.top = len(layers)  # the files at the top of lib/
        self.names = layers + ["lib/"]
        # Every folder under lib/ must be listed: an unlisted one would
        # have no place in the order.
        self.unlisted = sorted(d for d in os.listdir(os.path.join(src, "lib"))
                               if os.path.isdir(os.path.join(src, "lib", d)) and d not in self.rank)

    def of_lib_path(self, rel):
        """RANK of lib/FOLDER/... or lib/x.c (REL relative to the tree)."""
        parts = rel.split("/")
        if len(parts) == 2:
            return self.top
        return self.rank.get(parts[1])

    def of_public(self, name):
        """(rank, None) of include/fixscan/NAME.h, or (None, why)."""
        hits = set()
        lib = os.path.join(self.src, "lib")
        for folder in self.rank:
            d = os.path.join(lib, folder)
            if folder == name:
                hits.add(folder)
            for f in os.listdir(d):
                if f == name + ".c" or (f.startswith(name + "-") and f.endswith(".c")):
                    hits.add(folder)
        if not hits and (os.path.exists(os.path.join(lib, name + ".c")) or
                         any(f.startswith(name + "-") and f.endswith(".c") for f in os.listdir(lib))):
            return self.top, None
        if len(hits) == 1:
            return self.rank[hits.pop()], None
        if not hits:
            return None, "names no module of lib/"
        return None, "names a module in several folders (%s)" % ", ".join(sorted(hits))


def layer_sources(src):
    files = []
    for dirpath, dirs, names in os.walk(os.path.join(src, "lib")):
        dirs.sort()
        for f in sorted(names):
            if f.endswith((".c", ".h")):
                files.append(os.path.relpath(os.path.join(dirpath, f), src))
    inc = os.path.join(src, "include", "fixscan")
    if os.path.isdir(inc):
        files += sorted("include/fixscan/" + f for f in os.listdir(inc) if f.endswith(".h"))
    return files


def rule5(src, lay):
    out = ["rule 5: lib/%s is a folder lib/LAYERS does not list" % d for d in lay.unlisted]
    for rel in layer_sources(src):
        if rel.startswith("include/"):
            rank, why = lay.of_public(os.path.basename(rel)[:-2])
            if rank is None:
                out.append("rule 5: %s %s" % (rel, why))
                continue
        else:
            rank = lay.of_lib_path(rel)
            if rank is None:
                continue  # an unlisted folder, reported above
        with open(os.path.join(src, rel), errors="replace") as f:
            text = f.read()
        for inc in INCLUDE_RE.findall(text):
            if inc.startswith("fixscan/"):
                irank, why = lay.of_public(os.path.basename(inc)[:-2])
            elif "/" in inc:
                irank = lay.rank.get(inc.split("/")[0])
            elif rel.startswith("lib/"):
                irank = lay.of_lib_path(os.path.join(os.path.dirname(rel), inc))
            else:
                continue
            if irank is not None and irank > rank:
                out.append("rule 5: %s (%s) includes %s (%s)"
                           % (rel, lay.names[rank], inc, lay.names[irank]))
    return out


def rule6(lay, edges):
    out = []
    for (a, b), names in sorted(edges.items()):
        if not (a.startswith("lib/") and b.startswith("lib/")):
            continue
        ra, rb = lay.of_lib_path(a), lay.of_lib_path(b)
        if ra is not None and rb is not None and rb > ra:
            out.append("rule 6: %s (%s) uses %s defined in %s (%s)"
                       % (a, lay.names[ra], ", ".join(names), b, lay.names[rb]))
    return out


# Rule 7.  "free()" as a word: not g_free(), not fs_review_free().
PLAIN_FREE_RE = re.compile(r'(?<![A-Za-z0-9_])free\(\)')


def library_headers(src):
    files = []
    for dirpath, dirs, names in os.walk(os.path.join(src, "lib")):
        dirs.sort()
        files += [os.path.relpath(os.path.join(dirpath, f), src)
                  for f in sorted(names) if f.endswith(".h")]
    inc = os.path.join(src, "include", "fixscan")
    if os.path.isdir(inc):
        files += sorted("include/fixscan/" + f for f in os.listdir(inc) if f.endswith(".h"))
    return files


def rule7(src):
    out = []
    for rel in library_headers(src):
        with open(os.path.join(src, rel), errors="replace") as f:
            for n, line in enumerate(f, 1):
                if PLAIN_FREE_RE.search(line):
                    out.append("rule 7: %s:%d: says free(), not g_free()" % (rel, n))
    return out


def main():
    top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(prog="check-shape",
                                 description="Check the architecture rules of fixscan.")
    ap.add_argument("--src", default=top, help="source tree (default: %(default)s)")
    ap.add_argument("--obj", help="object tree (default: SRC/build/obj)")
    args = ap.parse_args()
    src = args.src
    obj = args.obj or os.path.join(src, "build", "obj")
    if not os.path.isdir(src):
        die("no source tree " + src)
    if not os.path.isdir(obj):
        die("no object tree %s (run make first)" % obj)

    objs = find_objects(src, obj)
    if not objs:
        die("no object in %s (run make first)" % obj)
    syms = read_symbols(obj, objs)
    edges = build_edges(syms)
    lay = Layers(src, read_layers(src))
    violations = (rule1(edges) + rule2(objs, edges) + rule3(syms) + rule4(src) +
                  rule5(src, lay) + rule6(lay, edges) + rule7(src))
    for v in violations:
        print("check-shape: " + v)
    print("check-shape: %d violations" % len(violations))
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
