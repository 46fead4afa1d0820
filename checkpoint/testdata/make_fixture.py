#!/usr/bin/env python3
"""Writes python_written.safetensors with the Python standard library only
(struct + json), as an independent writer for checkpoint's Decode test
(TestDecodePythonFixture, which holds the expected values).

The header lists the tensors in an order different from their data, uses
json.dumps's default ", " / ": " separators and is not padded, so the test
also checks that Decode depends on none of Encode's habits.

Run: python3 make_fixture.py   (from this directory)
"""
import json
import struct

# name -> (shape, float32 bit patterns), in data order.
TENSORS = [
    ("emb.weight", [2, 3], [struct.unpack("<I", struct.pack("<f", v))[0] for v in (0.0, 0.5, 1.0, 1.5, 2.0, 2.5)]),
    ("v.bias", [1], [0x80000000]),  # -0.0
    ("special", [4], [0x7FC00001, 0x7F800000, 0xFF800000, 0x00000001]),  # NaN with payload, +Inf, -Inf, smallest denormal
    ("scalar", [], [struct.unpack("<I", struct.pack("<f", 3.25))[0]]),
    ("empty", [0, 4], []),
]
HEADER_ORDER = ["special", "emb.weight", "empty", "__metadata__", "scalar", "v.bias"]
METADATA = {"format": "pt", "writer": "make_fixture.py"}

data = b""
entries = {}
for name, shape, bits in TENSORS:
    begin = len(data)
    data += struct.pack("<%dI" % len(bits), *bits)
    entries[name] = {"dtype": "F32", "shape": shape, "data_offsets": [begin, len(data)]}
entries["__metadata__"] = METADATA
header = json.dumps({k: entries[k] for k in HEADER_ORDER}).encode("utf-8")
with open("python_written.safetensors", "wb") as f:
    f.write(struct.pack("<Q", len(header)))
    f.write(header)
    f.write(data)
