#!/usr/bin/env bash
# The GPU experiments of the triage of 2026-11-27-e (issue #35; triage.md of this folder).
#
# Run from the repository root on the GPU machine, with the `warpdiff` binary at devrun/warpdiff:
#     bash docs/log/gpu-2026-11-27-e/run.sh
# Writes $OUT/experiments.txt (one line per case and level: the exit status of `warpdiff diff`
# and its output on one line), $OUT/ptxas.txt (ptxas of the compile-crash candidates' emitted
# modules: exit status and stderr) and $OUT/sass/ (SASS of the main candidates at -O0 and -O3).
# `warpdiff diff` exits 0 when the GPU agrees with the reference, 1 on a divergence or an engine
# failure (a hang, a fault, a compile failure), 3 on UB in the reference; 124 is `timeout 30`.
#
# Every experiment case (experiments/*.ptx.txt) runs at -O0 to -O3 and the driver's default level,
# each in its own process (a hang or a compile crash only loses that run), 12 at once. The jobs
# run in order of importance; past 210 s from the start, a job not yet started is written as
# `skipped (time)`, so the script stays under about 4 minutes.
set -u
export PATH="$PATH:/usr/local/cuda/bin"
W=${W:-devrun/warpdiff}
HERE=docs/log/gpu-2026-11-27-e
OUT=${OUT:-/tmp/gpu-2026-11-27-e}
mkdir -p "$OUT/sass"
T=$(mktemp -d)
START=$(date +%s)
export W T
export DEADLINE=$((START + 210))

for f in "$HERE"/experiments/*.ptx.txt; do
    n=$(basename "$f" .ptx.txt)
    cp "$f" "$T/$n.ptx"
done

{
    echo "# gpu-2026-11-27-e experiments, started $(date -u '+%F %T') UTC on $(hostname)"
    echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo '?'); $("$W" --version 2>&1)"
    nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1 | sed 's/^/# gpu: /'
    echo "# ptxas: $(ptxas --version 2>&1 | tail -1)"
} > "$OUT/experiments.txt"

# One job: NAME LEVEL REPEAT. Writes $T/res.NAME.LEVEL.REPEAT.
job() {
    n=$1 L=$2 r=$3
    res="$T/res.$n.$L.$r"
    if [ "$(date +%s)" -gt "$DEADLINE" ]; then
        echo "$n O$L#$r: skipped (time)" > "$res"
        return 0
    fi
    t0=$(date +%s.%N)
    o=$(timeout 30 "$W" diff --engines interp,gpu --gpu-opt-level "$L" "$T/$n.ptx" 2>&1)
    rc=$?
    t1=$(date +%s.%N)
    printf '%s O%s#%s rc=%s (%.1f s): %s\n' "$n" "$L" "$r" "$rc" "$(awk "BEGIN{print $t1 - $t0}")" \
        "$(printf '%s' "$o" | tr '\n' ' ' | sed 's/  */ /g' | cut -c1-1500)" > "$res"
}
export -f job

# The jobs, most important first (the candidates for new bugs, then the pending experiments of
# N8 and N9, then the hangs and the unknown cases).
{
    for g in cvt-u8-late cvt-s8-high merge-undef xor64-undef activemask-bfind64 n4-ctr crash n9 n8 cvt-sat hang unknown; do
        for f in "$T"/$g.*.ptx; do
            n=$(basename "$f" .ptx)
            for L in 0 1 2 3 default; do echo "$n $L 1"; done
        done
    done
    # cvt-sat.orig was flaky in the hunt (the reduced case did not diverge again): repeat -O1.
    for r in 2 3 4 5; do echo "cvt-sat.orig 1 $r"; done
} > "$T/jobs"
echo "# $(wc -l < "$T/jobs") diff jobs" >> "$OUT/experiments.txt"
xargs -P 12 -L 1 bash -c 'job "$0" "$1" "$2"' < "$T/jobs"

# In the order of the job list.
while read -r n L r; do cat "$T/res.$n.$L.$r"; done < "$T/jobs" >> "$OUT/experiments.txt"

# ptxas of the emitted modules of the compile-crash candidates (and the two unknown crashes).
{
    echo "# ptxas -arch=sm_90 of each compile-crash experiment's emitted module (warpdiff emit-ptx)"
    for f in "$T"/crash.*.ptx "$T"/unknown.crash-*.ptx; do
        n=$(basename "$f" .ptx)
        "$W" emit-ptx "$f" > "$T/$n.module.ptx" 2> "$T/$n.emit.err" || {
            echo "$n: emit-ptx failed: $(tr '\n' ' ' < "$T/$n.emit.err")"
            continue
        }
        for O in 0 1 3; do
            e=$(timeout 30 ptxas -arch=sm_90 -O$O "$T/$n.module.ptx" -o "$T/$n.O$O.cubin" 2>&1)
            rc=$?
            echo "$n ptxas -O$O: exit $rc; stderr: $(printf '%s' "$e" | tr '\n' ' ' | cut -c1-600)"
        done
    done
} > "$OUT/ptxas.txt" 2>&1
cp "$T"/crash.orig-w.module.ptx "$OUT/" 2>/dev/null

# SASS of the main candidates (ptxas at -O0 and -O3; nvdisasm or cuobjdump).
for n in cvt-u8-late.orig cvt-u8-late.r0-written-77 cvt-s8-high.orig merge-undef.orig xor64-undef.orig activemask-bfind64.orig n4-ctr.reduced n9.len32 n8.pos65; do
    "$W" emit-ptx "$T/$n.ptx" > "$T/$n.module.ptx" 2>/dev/null || continue
    for O in 0 3; do
        timeout 30 ptxas -arch=sm_90 -O$O "$T/$n.module.ptx" -o "$T/$n.sass.O$O.cubin" > /dev/null 2>&1 || continue
        if command -v nvdisasm > /dev/null 2>&1; then
            timeout 30 nvdisasm -c "$T/$n.sass.O$O.cubin" > "$OUT/sass/$n-O$O.txt" 2>&1
        else
            timeout 30 cuobjdump -sass "$T/$n.sass.O$O.cubin" > "$OUT/sass/$n-O$O.txt" 2>&1
        fi
    done
done

echo "# done after $(($(date +%s) - START)) s" >> "$OUT/experiments.txt"
echo "wrote $OUT/experiments.txt, $OUT/ptxas.txt and $OUT/sass/ in $(($(date +%s) - START)) s"
