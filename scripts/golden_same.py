#!/usr/bin/env python3
"""Checks that two golden model.json files (scripts/make_golden.py) are the
same cases: the same keys, lengths, integers and strings, and floats equal to
a relative 1e-7 (or within 1e-12 of each other, for values near zero). CI
regenerates the golden folders and compares them with the committed ones
this way. Byte equality holds only on the machine that wrote
them: float64 PyTorch takes other BLAS code paths on other CPUs (measured: 133
of 299,020 floats of testdata/golden/model.json differ, by at most 2.6e-11
relative, when written on a Zen 1 with AVX2 instead of the Zen 4 with AVX-512
that wrote it; 108 of 298,963 in golden-alt, at most 4.9e-10). Drift in
the generator's semantics shows far above 1e-7; the parity tests compare
float32 against these within 1e-4.

    scripts/golden_same.py COMMITTED REGENERATED
"""
import json
import sys

REL, ABS = 1e-7, 1e-12


def compare(a, b, path, stats):
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return f"{path}: keys {sorted(set(a) ^ set(b))} are in one file only"
        for k in a:
            err = compare(a[k], b[k], f"{path}/{k}", stats)
            if err:
                return err
        return None
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            return f"{path}: {len(a)} entries, regenerated {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            err = compare(x, y, f"{path}[{i}]", stats)
            if err:
                return err
        return None
    if isinstance(a, float) or isinstance(b, float):
        if isinstance(a, bool) or isinstance(b, bool) or not isinstance(a, (int, float)) or not isinstance(b, (int, float)):
            return f"{path}: {a!r} against {b!r}"
        stats["floats"] += 1
        if a != b:
            stats["differ"] += 1
            rel = abs(a - b) / max(abs(a), abs(b))
            stats["worst"] = max(stats["worst"], rel)
            if rel > REL and abs(a - b) > ABS:
                return f"{path}: {a!r} against {b!r} (relative {rel:.3g} > {REL:g})"
        return None
    if a != b or type(a) is not type(b):
        return f"{path}: {a!r} against {b!r}"
    return None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        a = json.load(f)
    with open(sys.argv[2]) as f:
        b = json.load(f)
    stats = {"floats": 0, "differ": 0, "worst": 0.0}
    err = compare(a, b, "", stats)
    if err:
        print(f"golden_same: {sys.argv[1]} and {sys.argv[2]} differ at {err}")
        sys.exit(1)
    print(f"golden_same: {stats['floats']} floats, {stats['differ']} differ in the last bits (at most {stats['worst']:.2g} relative)")


if __name__ == "__main__":
    main()
