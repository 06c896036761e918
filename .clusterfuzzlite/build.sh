#!/usr/bin/env bash
# Builds warpdiff's cargo-fuzz targets (`diff`, `parse`) into $OUT the way
# OSS-Fuzz and ClusterFuzzLite build Rust projects: `cargo fuzz build -O`,
# then each binary and its seed corpus (`<target>_seed_corpus.zip`) copied
# into $OUT, where the runner picks them up by name.
#
# Two ways to run it:
#   * In the OSS-Fuzz / ClusterFuzzLite image (`.clusterfuzzlite/Dockerfile`):
#     the repository is at $SRC/warpdiff, the default toolchain is nightly
#     with cargo-fuzz installed, and the image sets $SANITIZER, $RUSTFLAGS and
#     wraps `cargo` (for coverage builds it turns `cargo fuzz build` into a
#     plain `cargo build`). We leave all of that alone.
#   * Directly, on a developer machine or in `.ci/check-clusterfuzzlite`:
#     `OUT=/tmp/out bash .clusterfuzzlite/build.sh`. The repository is the one
#     this script lives in; nightly is used when it is installed (address
#     sanitizer, cargo fuzz's default), otherwise stable with `-s none`.
#
# Environment: OUT (required), CARGO_TARGET_DIR (optional: where cargo puts
# the build; default fuzz/target, as cargo fuzz does).
set -euo pipefail

: "${OUT:?set OUT to the directory that receives the fuzzers}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"

# Find the repository: beside this script when run from a checkout; in the
# OSS-Fuzz image build.sh is copied to $SRC/build.sh, so ../fuzz does not
# exist there and the checkout is $SRC/warpdiff.
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ -f "$script_dir/../fuzz/Cargo.toml" ]]; then
  repo="$(cd "$script_dir/.." && pwd)"
elif [[ -n "${SRC:-}" && -f "$SRC/warpdiff/fuzz/Cargo.toml" ]]; then
  repo="$SRC/warpdiff"
else
  echo "build.sh: cannot find warpdiff's fuzz/Cargo.toml (beside the script or in \$SRC/warpdiff)" >&2
  exit 1
fi
cd "$repo/fuzz"

# One target directory that cargo, cargo fuzz and OSS-Fuzz's coverage wrapper
# (which reads it from `cargo metadata`, ignoring a --target-dir flag) all
# agree on: so it is passed through the environment, never as a flag.
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$repo/fuzz/target}"

# The fuzz targets are every file of fuzz_targets/ (diff, parse), so a new
# target is built and shipped without editing this script.
targets=()
for f in fuzz_targets/*.rs; do
  targets+=("$(basename "$f" .rs)")
done

# Which cargo and which sanitizer.
if [[ -n "${SANITIZER:-}" && -n "${FUZZING_ENGINE:-}" ]]; then
  # OSS-Fuzz / ClusterFuzzLite image: plain `cargo` (nightly is the default
  # there, and the image's wrapper matches on `cargo fuzz`, so no `+nightly`).
  # The image's RUSTFLAGS already carry -Zsanitizer=$SANITIZER (except for
  # undefined and coverage), so cargo fuzz must ask for the same one or
  # none: address is its default; coverage builds never reach cargo fuzz
  # (the wrapper turns them into `cargo build`).
  cargo=(cargo)
  case "$SANITIZER" in
    address) sanitizer=() ;;
    memory | thread | leak) sanitizer=(--sanitizer "$SANITIZER") ;;
    *) sanitizer=(--sanitizer none) ;;
  esac
  mode="OSS-Fuzz image, SANITIZER=$SANITIZER"
else
  if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "== cargo-fuzz not found: cargo install cargo-fuzz --locked"
    cargo install cargo-fuzz --locked
  fi
  if [[ "$(rustc --version)" == *nightly* ]]; then
    cargo=(cargo)
    sanitizer=()
    mode="default toolchain is nightly, address sanitizer"
  elif cargo +nightly --version >/dev/null 2>&1; then
    cargo=(cargo +nightly)
    sanitizer=()
    mode="nightly toolchain, address sanitizer"
  else
    # Sanitizers need nightly (-Zsanitizer); the coverage instrumentation
    # libFuzzer needs works on stable.
    cargo=(cargo)
    sanitizer=(--sanitizer none)
    mode="stable only: no sanitizer"
  fi
fi

# -O (release, no debug assertions) as OSS-Fuzz builds Rust projects. Note
# that a plain `cargo fuzz build` (as .ci/run does) turns debug assertions
# on, so the two builds never share artifacts in one target directory.
echo "== building ${targets[*]} ($mode) into $CARGO_TARGET_DIR"
"${cargo[@]}" fuzz build -O "${sanitizer[@]}"

bin_dir="$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release"
for t in "${targets[@]}"; do
  if [[ ! -x "$bin_dir/$t" ]]; then
    echo "build.sh: $bin_dir/$t was not built" >&2
    exit 1
  fi
  cp "$bin_dir/$t" "$OUT/$t"
done

# Zips the files given after the zip's path, flat (no directories), as
# OSS-Fuzz wants seed corpora. Names are kept; `zip` when installed, else
# Python's zipfile (both are in the OSS-Fuzz image; python3 is more common
# on bare machines).
zip_flat() {
  local zip_path="$1"
  shift
  rm -f "$zip_path"
  if command -v zip >/dev/null 2>&1; then
    zip -q -j -X "$zip_path" "$@"
  else
    python3 -m zipfile -c "$zip_path" "$@"
  fi
}

# Seed corpora. diff: the distilled inputs of fuzz/corpus/diff (every
# instruction form; see lower/warpdiff/tests/suite/seed_corpus.rs). parse: every `.ptx` case
# of the repository (the regression corpus and the interpreter's hand-written
# cases), prefixed by their folder so that equal names cannot collide.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/diff" "$stage/parse"
if ! compgen -G "$repo/fuzz/corpus/diff/*" >/dev/null; then
  echo "build.sh: fuzz/corpus/diff is empty: no seed corpus for diff" >&2
  exit 1
fi
cp "$repo"/fuzz/corpus/diff/* "$stage/diff/"
for f in "$repo"/corpus/*.ptx; do cp "$f" "$stage/parse/corpus-$(basename "$f")"; done
for f in "$repo"/corpus/cases/*.ptx; do cp "$f" "$stage/parse/cases-$(basename "$f")"; done
for t in "${targets[@]}"; do
  if [[ -d "$stage/$t" ]] && compgen -G "$stage/$t/*" >/dev/null; then
    zip_flat "$OUT/${t}_seed_corpus.zip" "$stage/$t"/*
  else
    echo "build.sh: no seed corpus for $t" >&2
    exit 1
  fi
done

# A dictionary and options, when the repository has them for a target
# (parse.dict: the case format's keywords and PTX mnemonics).
for t in "${targets[@]}"; do
  for ext in dict options; do
    if [[ -f "$script_dir/$t.$ext" ]]; then
      cp "$script_dir/$t.$ext" "$OUT/$t.$ext"
    elif [[ -f "$repo/.clusterfuzzlite/$t.$ext" ]]; then
      cp "$repo/.clusterfuzzlite/$t.$ext" "$OUT/$t.$ext"
    fi
  done
done

echo "== $OUT:"
ls -l "$OUT"
