#!/usr/bin/env python3
"""guardmut.py OUTDIR CASE...: the K1 mistake for any writer. For each guarded instruction, write
a mutant where it moves to just after the next later instruction that writes its guard (so it
reads the guard's new value), and run explain.py on it. Moving collectives or branches this way
often makes undefined behaviour by itself: only the moves of the instruction a known bug is about
are evidence."""
import os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from explain import main as explain

def dests(line):
    body = re.sub(r'^\s*(@!?%\w+\s+)?', '', line).rstrip(';')
    parts = body.split(None, 1)
    if len(parts) < 2 or parts[0].startswith(('bra', 'exit', 'ret', 'st.', 'bar')):
        return []
    return [x.strip() for x in parts[1].split(',')[0].split('|') if x.strip().startswith('%')]

outdir, cases = sys.argv[1], sys.argv[2:]
os.makedirs(outdir, exist_ok=True)
for case in cases:
    src = open(case).read().split('\n')
    idx = [k for k, l in enumerate(src) if l.startswith('    ')]
    for a, i in enumerate(idx):
        m = re.match(r'\s*@!?(%\w+)\s', src[i])
        if not m:
            continue
        for j in idx[a + 1:]:
            if m[1] in dests(src[j]):
                new = src[:]
                new.insert(j, new.pop(i))
                out = os.path.join(outdir, f"{os.path.basename(case)}.{i}-{j}.ptx")
                open(out, 'w').write('\n'.join(x for x in new if not x.startswith(('.expect', '//'))))
                res = explain(case, out).split(': ', 1)[1]
                print(f"{os.path.basename(case)}: `{src[i].strip()}` after `{src[j].strip()}`: {res}")
                break
