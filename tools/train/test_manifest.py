#!/usr/bin/env python3
"""Tests of tools/train/manifest.py (standard library only):

    python3 -m unittest tools/train/test_manifest.py

The chunk files are written here by hand in the data format (docs/engine.md, "Training data at
scale"; crates/train/src/dataset.rs): a header with its CRC-32, no record block, and the end
record (zero count, record count, game count, CRC-32), which is what the manifest reads.
"""
import io
import json
import os
import struct
import tempfile
import unittest
import sys
import zlib
from contextlib import redirect_stdout, redirect_stderr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import manifest  # noqa: E402


def chunk_bytes(chunk, records, games, settings="crown-tune-gen format=1 variant=american", seed=1):
    """A data file with no record block whose end record states `records` and `games`."""
    text = settings.encode()
    head = b"CRWNDATA" + struct.pack("<HBB", 1, 0, 0) + struct.pack("<QII", seed, chunk, len(text)) + text
    head += struct.pack("<I", zlib.crc32(head))
    end = struct.pack("<IQI", 0, records, games)
    return head + end + struct.pack("<I", zlib.crc32(end))


def run(*argv):
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        rc = manifest.main(list(argv))
    return rc, out.getvalue() + err.getvalue()


class ManifestTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = os.path.join(self.tmp.name, "data")
        os.mkdir(self.dir)
        self.files = {}
        for c, (records, games) in enumerate([(87188, 1000), (81081, 1000)]):
            name = f"american-1-c{c:05}.ctd"
            self.files[name] = chunk_bytes(c, records, games)
            with open(os.path.join(self.dir, name), "wb") as f:
                f.write(self.files[name])
        self.path = os.path.join(self.tmp.name, "m.json")
        rc, out = run("write", "--dir", self.dir, "--commit", "abc", "--out", self.path, "--",
                      "crown", "tune", "gen", "--out-dir", self.dir, "--games", "2000")
        self.assertEqual(rc, 0, out)
        with open(self.path) as f:
            self.m = json.load(f)

    def tearDown(self):
        self.tmp.cleanup()

    def test_records_each_chunks_counts_and_digest(self):
        import hashlib
        self.assertEqual(self.m["total"], {"chunks": 2, "bytes": sum(map(len, self.files.values())),
                                           "positions": 87188 + 81081, "games": 2000})
        first = self.m["chunks"][0]
        data = self.files["american-1-c00000.ctd"]
        self.assertEqual(first["sha256"], hashlib.sha256(data).hexdigest())
        self.assertEqual((first["chunk"], first["bytes"], first["positions"]), (0, len(data), 87188))
        self.assertEqual(self.m["command"][:3], ["crown", "tune", "gen"])
        self.assertEqual(self.m["commit"], "abc")

    def test_check_passes_on_identical_data(self):
        rc, out = run("check", self.path, "--dir", self.dir)
        self.assertEqual(rc, 0, out)
        self.assertIn("all 2 chunks identical", out)

    def test_check_fails_on_one_changed_byte(self):
        name = os.path.join(self.dir, "american-1-c00001.ctd")
        data = bytearray(self.files["american-1-c00001.ctd"])
        data[12] ^= 1  # the seed: the header's CRC no longer holds, the digest differs
        with open(name, "wb") as f:
            f.write(data)
        rc, out = run("check", self.path, "--dir", self.dir)
        self.assertNotEqual(rc, 0, out)

    def test_check_reports_missing_and_unlisted_chunks(self):
        os.remove(os.path.join(self.dir, "american-1-c00000.ctd"))
        with open(os.path.join(self.dir, "american-1-c00002.ctd"), "wb") as f:
            f.write(chunk_bytes(2, 5, 1))
        rc, out = run("check", self.path, "--dir", self.dir)
        self.assertEqual(rc, 1)
        self.assertIn("missing: american-1-c00000.ctd", out)
        self.assertIn("not in the manifest: american-1-c00002.ctd", out)

    def test_truncated_chunk_is_an_error_naming_it(self):
        name = os.path.join(self.dir, "american-1-c00001.ctd")
        with open(name, "wb") as f:
            f.write(self.files["american-1-c00001.ctd"][:-3])
        rc, out = run("write", "--dir", self.dir, "--commit", "abc", "--out", self.path, "--", "crown")
        self.assertEqual(rc, 2)
        self.assertIn("american-1-c00001.ctd", out)

    def test_rerun_command_replaces_output_range_and_binary(self):
        argv = manifest.rerun_command(
            ["/old/crown", "tune", "gen", "--out-dir", "/data", "--games", "2000", "--seed", "1",
             "--egdb", "/old/egdb"], "/new/crown", "/tmp/x", range(3, 5), "/new/egdb")
        self.assertEqual(argv, ["/new/crown", "tune", "gen", "--seed", "1", "--egdb", "/new/egdb",
                                "--out-dir", "/tmp/x", "--chunks", "3..5"])


if __name__ == "__main__":
    unittest.main()
