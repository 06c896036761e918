#!/usr/bin/env python3
"""k5emu.py [--stop-at-label] OUTDIR CASE...: K5 (unused-collective-splits-warp) applied by hand.
For each collective U whose results are dead (sinks, or overwritten before any read, textually)
and whose membermask is not the immediate 0xffffffff, write a mutant where every later .sync
collective with an immediate membermask M runs with M & (U's membermask as the lane saw it)
(lanes that did not execute U keep M), then run explain.py on it. --stop-at-label: only the
later collectives before the next label."""
import os, re, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from explain import main as explain

COLL = ('shfl.sync', 'vote.sync', 'match.', 'redux.sync')

def parse(line):
    body = re.sub(r'^\s*(@!?%\w+\s+)?', '', line).rstrip(';').strip()
    op, _, args = body.partition(' ')
    return op, [a.strip() for a in args.split(',')] if args else []

def read_before_write(lines, start, regs):
    for line in lines[start:]:
        if not line.startswith('    '):
            continue
        op, args = parse(line)
        g = re.match(r'\s*@!?(%\w+)', line)
        srcs = args[1:] + ([g[1]] if g else [])
        if any(re.sub(r'^!', '', s) in regs for s in srcs):
            return True
        if args and not op.startswith('bra'):
            regs = [r for r in regs if r not in args[0].split('|')]
            if not regs:
                return False
    return False

args = sys.argv[1:]
stop_at_label = args[0] == '--stop-at-label'
if stop_at_label:
    args = args[1:]
outdir, cases = args[0], args[1:]
os.makedirs(outdir, exist_ok=True)
for case in cases:
    src = open(case).read().split('\n')
    for u, line in enumerate(src):
        if not line.startswith('    '):
            continue
        op, a = parse(line)
        if not op.startswith(COLL) or a[-1] == '0xffffffff':
            continue
        if read_before_write(src, u + 1, [d for d in a[0].split('|') if d != '_']):
            continue
        new = src[:u]
        at = next(k for k, x in enumerate(new) if x.startswith('.reg'))
        new[at:at] = ['.reg .b32 %kgrp, %kmask;', '.lanes %kgrp = 0xffffffff;']
        g = re.match(r'(\s*@!?%\w+\s+)', line)
        new += [line, (g[1] if g else '    ') + f'mov.b32 %kgrp, {a[-1]};']
        n, stop = 0, False
        for x in src[u + 1:]:
            if stop_at_label and x.endswith(':') and not x.startswith(' '):
                stop = True
            if x.startswith('    ') and not stop:
                o, xa = parse(x)
                if o.startswith(COLL) and re.fullmatch(r'0x[0-9a-f]+|\d+', xa[-1]):
                    gg = re.match(r'(\s*@!?%\w+\s+)', x)
                    new.append((gg[1] if gg else '    ') + f'and.b32 %kmask, %kgrp, {xa[-1]};')
                    x = x[:x.rindex(xa[-1])] + '%kmask;'
                    n += 1
            new.append(x)
        if n == 0:
            continue
        out = os.path.join(outdir, f"{os.path.basename(case)}.k5-{u}.ptx")
        open(out, 'w').write('\n'.join(x for x in new if not x.startswith(('.expect', '//'))))
        res = explain(case, out).split(': ', 1)[1]
        print(f"{os.path.basename(case)}: split by `{line.strip()}` ({n} later): {res}")
