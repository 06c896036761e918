#!/bin/bash
# H40: the JIT's tiled transpose before and after the early row loads
# (lower/jit/src/rows.rs), one thread, 1M elements, in alternating processes.
# Run from the repo root: bash devrun/h40/run.sh   (about 1 minute; no GPU used)
# kernels-before: bench `kernels` built at 87484cd (main before H40);
# kernels-rows:   the same bench built at 47759a4 (h40's first step: the
#                 input rows loaded early, lower/jit/src/rows.rs);
# kernels-h40:    the same bench built at 4bede85 (h40's code: also the output
#                 rows' lines touched before the stores).
# In turn before, rows, h40, five times (15 processes, ~3-4 s each).
# Output: $OUT/h40.txt (the bench table rows of each run, then a summary).
set -u
OUT=${OUT:-/tmp/h40-out}
mkdir -p "$OUT"
F="$OUT/h40.txt"
D=devrun/h40
: > "$F"
{
  echo "# host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) ($(nproc) cores)"
  echo "# date: $(date -u)"
  echo "# BENCH_KERNELS=transpose,saxpy BENCH_N=1048576 BENCH_THREADS=1 BENCH_MS=600 BENCH_ROUNDS=2 BENCH_INTERP_N=0"
} >> "$F"
for i in 1 2 3 4 5; do
  for b in before rows h40; do
    echo "== run $i $b" >> "$F"
    BENCH_ROOT="$PWD" BENCH_KERNELS=transpose,saxpy BENCH_N=1048576 BENCH_THREADS=1 \
      BENCH_MS=600 BENCH_ROUNDS=2 BENCH_INTERP_N=0 \
      timeout 60 "$D/kernels-$b" 2>&1 | grep -E '^\| (tiled transpose|saxpy) ' >> "$F"
  done
done
python3 - "$F" >> "$F" <<'PY'
import sys, re, statistics
cur = None
rows = {}
for line in open(sys.argv[1]):
    m = re.match(r'== run (\d+) (\w+)', line)
    if m:
        cur = m.group(2)
        continue
    if line.startswith('| ') and cur:
        c = [x.strip() for x in line.strip().strip('|').split('|')]
        def ms(s):
            v, u = s.split()
            return float(v) * {'ms': 1.0, 's': 1000.0}[u]
        # columns: kernel, elements, interp, JIT 1, Rust 1, Rust vec. 1, compile, ...
        rows.setdefault((c[0], cur), []).append((ms(c[3]), ms(c[4])))
print('# summary: kernel, build: JIT 1 ms per run | Rust 1 ms per run | JIT/Rust per run | medians')
for (k, b), v in sorted(rows.items()):
    j = [x[0] for x in v]; r = [x[1] for x in v]; q = [x[0] / x[1] for x in v]
    print(f"{k:16} {b:6}: JIT {' '.join(f'{x:.2f}' for x in j)} | Rust {' '.join(f'{x:.2f}' for x in r)} | "
          f"ratio {' '.join(f'{x:.2f}' for x in q)} | median JIT {statistics.median(j):.2f} ms, "
          f"median ratio {statistics.median(q):.2f}x")
PY
cat "$F"
