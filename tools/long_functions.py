#!/usr/bin/env python3
"""Lists the function bodies longer than a limit in C++ sources, and checks them against the
exceptions named in docs/architecture.md (section "Long functions").

  tools/long_functions.py [--limit 150] [--check docs/architecture.md] DIR...

A heuristic scanner, not a parser: comments, strings and character literals are blanked; a '{'
opened at namespace or class level whose head ends like a function signature (a ')' followed only
by qualifiers, a trailing return type or a constructor's initializer list) starts a function body;
lambdas and local classes inside a body count toward it. The length is the number of lines from
the line of the opening brace to the line of the closing one.

With --check, every function over the limit must be named in the architecture file's list
(lines of the form "- `path/to/file.cpp` `name` ..."), and every name listed there must still be
over the limit (a stale exception is reported too). Exit 1 on a violation, 0 otherwise.
"""
import argparse
import os
import re
import sys

CONTROL = re.compile(r"\b(if|for|while|switch|catch|do|else|try)\s*$")
SIGNATURE_TAIL = re.compile(
    r"\)\s*(const|noexcept(\s*\([^)]*\))?|override|final|volatile|&&|&|mutable|\s)*"
    r"(->\s*[\w:<>,\s\*&\[\]]+)?\s*$")
INIT_LIST = re.compile(r"\)\s*(noexcept\s*)?:\s*[\w:]+\s*[\(\{]")


def blank(text):
    """Replaces comments, string and char literals with spaces, keeping newlines."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j == -1 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j == -1 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                end = n if end == -1 else end + len(m.group(1)) + 2
                out.append(re.sub(r"[^\n]", " ", text[i:end]))
                i = end
            else:
                out.append(c)
                i += 1
        elif c in "\"'":
            if c == "'" and i > 0 and (text[i - 1].isalnum()) and i + 1 < n and text[i + 1].isalnum():
                out.append(" ")  # digit separator 1'000
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(path):
    text = blank(open(path, encoding="utf-8", errors="replace").read())
    # Preprocessor lines carry no bodies.
    text = re.sub(r"(?m)^[ \t]*#.*(\\\n.*)*$", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    stack = []  # entries: ("scope"|"function"|"block", start_line, name)
    head_start = 0
    line = 1
    for i, c in enumerate(text):
        if c == "\n":
            line += 1
        elif c in ";":
            if not any(k == "function" for k, _, _ in stack):
                head_start = i + 1
        elif c == "{":
            in_function = any(k == "function" for k, _, _ in stack)
            head = text[head_start:i]
            kind = "block"
            name = ""
            if not in_function:
                h = " ".join(head.split())
                if re.search(r"\b(namespace|class|struct|union|enum)\b[^()]*$", h) or h.endswith("extern \"C\""):
                    kind = "scope"
                elif (SIGNATURE_TAIL.search(h) or INIT_LIST.search(h)) and not CONTROL.search(h.split("(")[0]):
                    kind = "function"
                    m = re.search(r"([~\w:]+(?:operator\s*[^\s(]+)?)\s*\(", h)
                    name = m.group(1) if m else "?"
                    name = name.split("::")[-1] if "::" in name and not name.endswith("::") else name
                    full = re.search(r"([~\w]+(?:::[~\w]+)*)\s*\(", h)
                    name = full.group(1) if full else name
                else:
                    kind = "scope" if h == "" or h.endswith("=") is False and not h.endswith(")") else "block"
            stack.append((kind, line, name))
            if not in_function:
                head_start = i + 1
        elif c == "}":
            if stack:
                kind, start, name = stack.pop()
                if kind == "function":
                    yield name, start, line - start + 1
            if not any(k == "function" for k, _, _ in stack):
                head_start = i + 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--limit", type=int, default=150)
    ap.add_argument("--check", help="architecture file whose 'Long functions' list names the exceptions")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    root = os.getcwd()
    long = []
    for d in args.dirs:
        for base, _, files in os.walk(d):
            for f in sorted(files):
                if f.endswith((".cpp", ".hpp")):
                    p = os.path.join(base, f)
                    for name, start, length in functions(p):
                        if length > args.limit:
                            long.append((os.path.relpath(p, root), name, start, length))
    long.sort()
    if not args.check:
        for p, name, start, length in long:
            print(f"{p}:{start}: {name}: {length} lines")
        return 0
    allowed = set()
    for row in open(args.check, encoding="utf-8"):
        m = re.match(r"^- `([^`]+)` `([^`]+)`", row)
        if m:
            allowed.add((m.group(1), m.group(2)))
    bad = 0
    seen = set()
    for p, name, start, length in long:
        seen.add((p, name))
        if (p, name) not in allowed:
            print(f"{p}:{start}: {name} is {length} lines (limit {args.limit}) and not named in {args.check}")
            bad += 1
    for p, name in sorted(allowed - seen):
        print(f"{args.check}: `{p}` `{name}` is listed as a long function but is not over {args.limit} lines (or is gone)")
        bad += 1
    print(f"long functions: {len(long)} over {args.limit} lines, {len(allowed)} named exceptions, {bad} violation(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
