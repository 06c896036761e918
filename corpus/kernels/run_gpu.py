#!/usr/bin/env python3
"""Runs the hand-written kernels of this folder on a GPU (issue #13) and
compares what they stored with the `.expect` files that `expected.py` wrote.

For every `NAME.launch` here (not the `nvcc/` folder):
  1. `ptxas -arch=sm_90 NAME.ptx` (its errors and warnings are printed);
  2. in a child process (so that a fault, a hang or a poisoned CUDA context
     costs only that kernel): loads `NAME.ptx` with `cupy.RawModule`, builds
     the buffers the `.launch` names, passes one argument per `.param` of
     the entry (a buffer's device address, or a scalar of the `.param`'s
     type), launches with the `.launch`'s grid and block, and writes
     `NAME.gpu.txt` in the `.expect` format (every buffer after the run);
  3. compares `NAME.gpu.txt` with `NAME.expect` word by word (`________` in
     the `.expect` matches any word) and prints `NAME: ok` or the words
     that differ.
Exit status 1 if any kernel failed ptxas, failed to run, or differs.

Usage: python3 run_gpu.py [NAME ...]   (from any directory; all kernels if
no NAME). Needs cupy, numpy and a GPU; ptxas on PATH (or $PTXAS) for step 1.
"""
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FILL = "aaaaaaaa"
ANY = "________"
CHILD_TIMEOUT_S = 120


def strip_comment(line):
    line = line.strip()
    if line.startswith("#") or line.startswith("//"):
        return ""
    return re.split(r"\s+(?:#|//)", line, maxsplit=1)[0].strip()


def parse_launch(path):
    """The .launch sidecar: kernel, grid, block, buffers (in file order, as
    lists of u32 words) and params (name -> ('buffer', BUF) | ('value', V))."""
    launch = {"kernel": None, "grid": (1,), "block": (1,), "buffers": {}, "params": {}}
    for n, raw in enumerate(open(path), 1):
        line = strip_comment(raw)
        if not line:
            continue
        f = line.split()
        where = f"{path}:{n}"
        if f[0] == "kernel" and len(f) == 2:
            launch["kernel"] = f[1]
        elif f[0] in ("grid", "block") and len(f) == 2:
            dims = tuple(int(x, 0) for x in f[1].split(","))
            if not 1 <= len(dims) <= 3:
                raise ValueError(f"{where}: {f[0]} takes 1 to 3 sizes")
            launch[f[0]] = dims
        elif f[0] == "buffer" and len(f) >= 3:
            name = f[1]
            if name in launch["buffers"]:
                raise ValueError(f"{where}: buffer {name} given twice")
            if f[2] == "u32":
                words = [int(w, 16) for w in f[3:]]
            elif f[2] == "fill" and len(f) == 5:
                words = [int(f[3], 16)] * int(f[4], 0)
            else:
                raise ValueError(f"{where}: buffer NAME u32 W.. | buffer NAME fill WORD COUNT")
            if any(not 0 <= w <= 0xFFFFFFFF for w in words):
                raise ValueError(f"{where}: a word is not 32-bit")
            launch["buffers"][name] = words
        elif f[0] == "param" and len(f) == 4 and f[2] in ("buffer", "value"):
            if f[1] in launch["params"]:
                raise ValueError(f"{where}: param {f[1]} given twice")
            launch["params"][f[1]] = (f[2], f[3])
        else:
            raise ValueError(f"{where}: cannot read {line!r}")
    if launch["kernel"] is None:
        raise ValueError(f"{path}: no kernel line")
    return launch


def entry_params(ptx, kernel):
    """[(type, name)] of the .entry's parameter list, in order."""
    text = re.sub(r"//[^\n]*", "", ptx)
    m = re.search(r"\.entry\s+" + re.escape(kernel) + r"\s*\(([^)]*)\)", text)
    if not m:
        raise ValueError(f"no .entry {kernel} in the .ptx")
    return re.findall(r"\.param\s+\.(\w+)\s+(?:\.ptr\s+(?:\.\w+\s+)*)?(\w+)", m.group(1))


def parse_words_file(path):
    """An .expect / .gpu.txt file: buffer name -> list of 8-char words."""
    out = {}
    for raw in open(path):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, _, rest = line.partition(":")
        out[name.strip()] = rest.split()
    return out


# ------------------------------------------------------------------ child


def scalar(ptype, text, np):
    """A scalar .param value from the .launch, as the .param's type."""
    if ptype in ("f32", "f64"):
        if text.lower().startswith("0x"):  # the value's bits
            bits = int(text, 16)
            return (np.array([bits], np.uint32).view(np.float32)[0] if ptype == "f32"
                    else np.array([bits], np.uint64).view(np.float64)[0])
        return np.float32(float(text)) if ptype == "f32" else np.float64(float(text))
    v = int(text, 0)
    kinds = {"u8": np.uint8, "s8": np.int8, "b8": np.uint8, "u16": np.uint16, "s16": np.int16,
             "b16": np.uint16, "u32": np.uint32, "s32": np.int32, "b32": np.uint32,
             "u64": np.uint64, "s64": np.int64, "b64": np.uint64}
    t = kinds[ptype]
    bits = np.dtype(t).itemsize * 8
    return t(v & ((1 << bits) - 1)) if t(0).dtype.kind == "u" else t(v)


def run_one(name):
    """Runs NAME.launch and writes NAME.gpu.txt (in the child process)."""
    import cupy as cp
    import numpy as np

    launch = parse_launch(os.path.join(HERE, f"{name}.launch"))
    ptx_path = os.path.join(HERE, f"{name}.ptx")
    params = entry_params(open(ptx_path).read(), launch["kernel"])
    names = [p for _, p in params]
    missing = [p for p in names if p not in launch["params"]]
    extra = [p for p in launch["params"] if p not in names]
    if missing or extra:
        raise ValueError(f"params missing from the .launch: {missing}; not in the .entry: {extra}")

    bufs = {b: cp.asarray(np.array(w, dtype=np.uint32)) for b, w in launch["buffers"].items()}
    args = []
    for ptype, pname in params:
        kind, v = launch["params"][pname]
        if kind == "buffer":
            if ptype not in ("u64", "b64", "s64"):
                raise ValueError(f"{pname}: a buffer needs a .u64 .param, not .{ptype}")
            args.append(bufs[v])
        else:
            args.append(scalar(ptype, v, np))

    mod = cp.RawModule(path=ptx_path)
    fn = mod.get_function(launch["kernel"])
    fn(launch["grid"], launch["block"], tuple(args))
    cp.cuda.Device().synchronize()

    dev = cp.cuda.runtime.getDeviceProperties(cp.cuda.Device().id)["name"]
    dev = dev.decode() if isinstance(dev, bytes) else dev
    dims = lambda d: ",".join(str(x) for x in d)
    lines = [f"# {name}: grid {dims(launch['grid'])}, block {dims(launch['block'])}; "
             f"outputs pre-filled with {FILL}; run on {dev} by run_gpu.py"]
    for b in launch["buffers"]:
        lines.append(f"{b}: " + " ".join(f"{int(w):08x}" for w in cp.asnumpy(bufs[b])))
    with open(os.path.join(HERE, f"{name}.gpu.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


# ----------------------------------------------------------------- parent


def ptxas(name):
    """(ok, message): ptxas -arch=sm_90 on NAME.ptx."""
    exe = os.environ.get("PTXAS", "ptxas")
    cmd = [exe, "-arch=sm_90", os.path.join(HERE, f"{name}.ptx"), "-o", os.devnull]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except FileNotFoundError:
        return None, f"{exe} not found: not checked"
    except subprocess.TimeoutExpired:
        return False, "ptxas timed out"
    msg = (r.stdout + r.stderr).strip()
    return r.returncode == 0, msg


def compare(name):
    """Lines describing how NAME.gpu.txt differs from NAME.expect ([] = equal)."""
    exp = parse_words_file(os.path.join(HERE, f"{name}.expect"))
    got = parse_words_file(os.path.join(HERE, f"{name}.gpu.txt"))
    diffs = []
    for b in exp:
        if b not in got:
            diffs.append(f"  {b}: not in the .gpu.txt")
            continue
        e, g = exp[b], got[b]
        if len(e) != len(g):
            diffs.append(f"  {b}: {len(e)} words expected, {len(g)} from the GPU")
        for i, (x, y) in enumerate(zip(e, g)):
            if x != ANY and x.lower() != y.lower():
                diffs.append(f"  {b}[{i}]: expected {x}, GPU {y}")
    for b in got:
        if b not in exp:
            diffs.append(f"  {b}: not in the .expect")
    return diffs


def main(argv):
    if len(argv) == 3 and argv[1] == "--one":
        run_one(argv[2])
        return 0
    names = argv[1:] or sorted(os.path.basename(p)[:-7] for p in glob.glob(os.path.join(HERE, "*.launch")))
    failed = []
    for name in names:
        ok, msg = ptxas(name)
        if ok is False:
            print(f"{name}: ptxas FAILED\n{msg}")
            failed.append(name)
        elif msg:
            print(f"{name}: ptxas: {msg}")
        out = os.path.join(HERE, f"{name}.gpu.txt")
        if os.path.exists(out):
            os.remove(out)  # never compare a stale result
        try:
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--one", name],
                               capture_output=True, text=True, timeout=CHILD_TIMEOUT_S)
            child = (r.stdout + r.stderr).strip()
            rc = r.returncode
        except subprocess.TimeoutExpired:
            child, rc = f"timed out after {CHILD_TIMEOUT_S} s (a hang?)", -1
        if rc != 0 or not os.path.exists(out):
            print(f"{name}: RUN FAILED (exit {rc})\n" + "\n".join("  " + l for l in child.splitlines()[-15:]))
            if name not in failed:
                failed.append(name)
            continue
        if not os.path.exists(os.path.join(HERE, f"{name}.expect")):
            print(f"{name}: ran, wrote {name}.gpu.txt; no {name}.expect to compare with")
            failed.append(name)
            continue
        diffs = compare(name)
        if diffs:
            print(f"{name}: DIFFERS from {name}.expect in {len(diffs)} place(s)")
            print("\n".join(diffs[:20] + (["  ..."] if len(diffs) > 20 else [])))
            if name not in failed:
                failed.append(name)
        else:
            print(f"{name}: ok (equal to {name}.expect)")
    print(f"{len(names) - len(failed)} of {len(names)} kernels ok" +
          (f"; failed: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
