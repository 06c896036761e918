#!/usr/bin/env python3
"""Known-bug hits of the hunt log's runs, per bug and per level (issue #35).

Reads the table rows of docs/hunt-log.md, follows each row's output link (its last column) to
the run's output, takes the line

    known bugs hit (counted, not reduced): NAME: EFFECT N, NAME: EFFECT N, ...   (or `none`)

and prints markdown: per level the runs, the programs checked on the GPU (the rows' own counts,
of the runs whose line was read), and per bug (the idiom's name and the bug's label from
docs/findings.md's table) the hits split by effect and the programs per hit; then the rows it
could not read. A row whose linked files hold no such line (a README, a triage, a run whose
summary was lost), or a file with more than one, is counted as unknown and named, never guessed;
a row linking several runs' outputs sums their lines.

Usage: python3 docs/log/hunt-hits.py [HUNT_LOG [FINDINGS]]   (stdlib only)
"""

import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent
LINE = re.compile(r"known bugs hit \(counted, not reduced\): (.*)$")
ENTRY = re.compile(r"^([A-Za-z0-9.-]+): (.+) (\d+)$")
LINK = re.compile(r"\]\(([^)]+)\)")
LEVEL = re.compile(r"^(?:driver )?default\b|^-O([0-4])\b")
# Order of the output's levels (the hunt log's "Per level" order).
ORDER = ["driver default", "-O0", "-O0, perturbed", "-O1", "-O2", "-O3"]


def cells(line):
    """A markdown table line's cells, split at unescaped `|`, stripped."""
    parts = re.split(r"(?<!\\)\|", line.strip())
    return [c.strip() for c in parts[1:-1]]


def number(text):
    """The leading count of a cell (`258,874`, `367,566 (progress ...)`), or None."""
    m = re.match(r"^(\d[\d,]*)(?:\s|$)", text)
    return int(m.group(1).replace(",", "")) if m else None


def level_of(cell):
    """The normalised level of a row's level cell, or None where it names none."""
    m = LEVEL.match(cell)
    if not m:
        return None
    base = "driver default" if m.group(1) is None else "-O" + m.group(1)
    if "--gpu-perturb" in cell:
        base += ", perturbed"
    if "--avoid all" in cell:
        base += ", --avoid all"
    return base


def labels(findings):
    """Idiom name -> bug label (`K1`, `N14`, `hang`) from findings.md's bug table."""
    out = {}
    header = None
    for line in findings.read_text().splitlines():
        if not line.startswith("|"):
            header = None
            continue
        row = cells(line)
        if header is None:
            header = row
            continue
        if "bug" not in header or "idiom" not in header or set(line) <= set("|- "):
            continue
        if len(row) != len(header):
            continue
        idiom = re.match(r"`([^`]+)`", row[header.index("idiom")])
        if idiom:
            out[idiom.group(1)] = row[header.index("bug")].split()[0]
    return out


def hunt_rows(hunt_log):
    """(line number, cells) of the run rows of hunt-log.md's first table, up to `## Per level`."""
    rows = []
    header = None
    for number_, line in enumerate(hunt_log.read_text().splitlines(), 1):
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            continue
        row = cells(line)
        if header is None:
            header = row
            continue
        if set(line) <= set("|-: "):
            continue
        rows.append((number_, dict(zip(header, row)), len(row) == len(header)))
    return rows


def read_hits(base, cell):
    """The hits of a row's output cell: ({(idiom, effect): n}, files read) or (None, reason).

    Each linked file holds one `known bugs hit` line or none (a README beside a run's output);
    a row linking several runs' outputs (one row for five runs) sums their lines. No line in any
    linked file, or more than one in a file, leaves the row unknown.
    """
    links = [link.split("#")[0] for link in LINK.findall(cell)]
    if not links:
        return None, "no link in the output column"
    hits = {}
    read = []
    for link in links:
        path = base / link
        if not path.is_file():
            return None, f"`{link}`: no such file"
        found = [m.group(1).strip() for m in map(LINE.search, path.read_text(errors="replace").splitlines()) if m]
        if len(found) > 1:
            return None, f"{len(found)} `known bugs hit` lines in `{link}`"
        if not found:
            continue
        read.append(f"`{link}`")
        if found[0] == "none":
            continue
        for entry in found[0].split(", "):
            m = ENTRY.match(entry)
            if not m:
                return None, f"`{link}`: cannot read the entry `{entry}`"
            key = (m.group(1), m.group(2))
            hits[key] = hits.get(key, 0) + int(m.group(3))
    if not read:
        return None, "no `known bugs hit` line in " + ", ".join(f"`{x}`" for x in links)
    return hits, ", ".join(read)


def main():
    hunt_log = Path(sys.argv[1]) if len(sys.argv) > 1 else DOCS / "hunt-log.md"
    findings = Path(sys.argv[2]) if len(sys.argv) > 2 else DOCS / "findings.md"
    label = labels(findings)
    levels = {}  # level -> dict(runs, read, programs, hits {(idiom, effect): n})
    unread = []
    notes = []
    for line_no, row, whole in hunt_rows(hunt_log):
        name = f"line {line_no} ({row.get('date', '?')}, {row.get('level', '?')[:40]})"
        if not whole:
            unread.append(f"{name}: {len(row)} cells, not the header's")
            continue
        level = level_of(row.get("level", ""))
        if level is None:
            unread.append(f"{name}: no level in `{row.get('level', '')}`")
            continue
        stats = levels.setdefault(level, {"runs": 0, "read": 0, "programs": 0, "hits": {}})
        stats["runs"] += 1
        programs = number(row.get("programs on the GPU", ""))
        hits, source = read_hits(hunt_log.parent, row.get("output", ""))
        if hits is None:
            unread.append(f"{name}: {source}; counted as unknown")
            continue
        if programs is None:
            unread.append(f"{name}: no programs count in the row; counted as unknown")
            continue
        stats["read"] += 1
        stats["programs"] += programs
        for key, n in hits.items():
            stats["hits"][key] = stats["hits"].get(key, 0) + n
        said = number(row.get("known-bug hits", ""))
        if said is not None and said != sum(hits.values()):
            notes.append(f"{name}: the row says {said} hits, {source} sum to {sum(hits.values())}")

    order = [lv for lv in ORDER if lv in levels]
    order += [lv + ", --avoid all" for lv in ORDER if lv + ", --avoid all" in levels]
    order += sorted(lv for lv in levels if lv not in order)

    print("| level | rows | rows read | programs checked (rows read) | known-bug hits |")
    print("|---|---:|---:|---:|---:|")
    for lv in order:
        s = levels[lv]
        total = sum(s["hits"].values())
        print(f"| {lv} | {s['runs']} | {s['read']} | {s['programs']:,} | {total:,} |")
    print()
    print("| level | bug | idiom | hits by effect | hits | programs per hit |")
    print("|---|---|---|---|---:|---:|")
    for lv in order:
        s = levels[lv]
        per_bug = {}
        for (idiom, effect), n in s["hits"].items():
            per_bug.setdefault(idiom, {})[effect] = n
        if not per_bug:
            print(f"| {lv} | none | — | — | 0 | — |")
            continue
        for idiom in sorted(per_bug, key=lambda i: (-sum(per_bug[i].values()), i)):
            effects = per_bug[idiom]
            n = sum(effects.values())
            split = ", ".join(f"{e} {effects[e]:,}" for e in sorted(effects, key=lambda e: -effects[e]))
            rate = f"{s['programs'] / n:,.0f}"
            bug = label.get(idiom, "? (not in findings.md)")
            print(f"| {lv} | {bug} | `{idiom}` | {split} | {n:,} | {rate} |")
    print()
    print("Rows not read (unknown: counted in `rows` only):")
    print()
    for u in unread or ["none"]:
        print(f"- {u}")
    if notes:
        print()
        print("Rows whose known-bug hits column differs from their output's line:")
        print()
        for n in notes:
            print(f"- {n}")


if __name__ == "__main__":
    main()
