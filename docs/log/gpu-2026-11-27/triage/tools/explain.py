#!/usr/bin/env python3
"""explain.py ORIG MUTANT: run the reference on MUTANT (a case changed by hand to do what a
suspected compiler mistake does) and say whether it gives the GPU values that ORIG's header
lists ("// %reg lane N: interp X, gpu Y"): reproduced, left undefined (the mutant allows the
GPU's value), or different; or the undefined behaviour the mutant has (a hang's explanation).
Uses $WARPDIFF (default target/release/warpdiff)."""
import json, os, re, subprocess, sys

WARPDIFF = os.environ.get('WARPDIFF', 'target/release/warpdiff')

def num(s):
    if ':' in s:
        return None
    return int(s[2:], 16) if s.startswith('0f') else int(s, 0)

def main(orig, mut):
    want = []
    for line in open(orig):
        m = re.match(r'// (%\w+) lane (\d+): interp (\S+), gpu (\S+)$', line.strip())
        if m:
            want.append((m[1], int(m[2]), m[3], num(m[4])))
    r = subprocess.run([WARPDIFF, 'run', '--engine', 'interp', '--json', mut],
                       capture_output=True, text=True)
    o = json.loads(r.stdout.splitlines()[0])
    if 'error' in o:
        return f"{mut}: error {o['error']}"
    if 'ub' in o:
        return f"{mut}: UB {o['ub']['rule']}: {o['ub']['message'][:300]}"
    same = undef = differ = 0
    for reg, lane, _ref, gpu in want:
        v = o['regs'].get(reg, [None] * 32)[lane]
        if v is None:
            undef += 1
        elif v == gpu:
            same += 1
        else:
            differ += 1
    return (f"{mut}: of {len(want)} listed GPU values: {same} reproduced, "
            f"{undef} left undefined, {differ} differ")

if __name__ == '__main__':
    print(main(sys.argv[1], sys.argv[2]))
