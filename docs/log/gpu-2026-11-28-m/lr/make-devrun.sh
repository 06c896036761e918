#!/bin/sh
# H43: fills devrun/h43/ (git-ignored) for run.sh from this tree: the release warpdiff (build it
# first: `cargo build --release -p warpdiff`), levels.py, the reproducer and the variants (with four
# controls copied from the earlier logs: lr.found, lr.no-shfl, lr2.found, lr2.no-vote). Run from the repo root.
set -e
D=devrun/h43
L=docs/log/gpu-2026-11-28-m/lr
mkdir -p $D
rm -rf $D/lr $D/experiments
cp ${CARGO_TARGET_DIR:-target}/release/warpdiff $D/warpdiff
cp docs/log/gpu-2026-11-28-l/triage/tools/levels.py $D/levels.py
cp $L/h43-run.sh $D/run.sh
cp -r corpus/repro/lr-guard-read-after-loop-rewrite $D/lr
mkdir -p $D/experiments
cp $L/experiments/* $D/experiments/
chmod +x $D/run.sh
du -sh $D
