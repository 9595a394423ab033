#!/usr/bin/env python3
"""The manifest of a training-data set made by `crown tune gen --out-dir`, and its checks.

A manifest (JSON) records how the data was made and what it is, so that a later session can make
it again and prove the copy identical: the generator's command (argv), the commit its binary was
built from, the settings text of the chunks' headers, and per chunk its file name, size, SHA-256,
positions and games (read from the chunk's end record, whose CRC is checked), plus the totals and,
given the generator's log, its positions per second.

    python3 tools/train/manifest.py write --dir DATA --commit SHA --log gen.log --out MANIFEST.json -- CMD...
    python3 tools/train/manifest.py check MANIFEST.json --dir DATA
    python3 tools/train/manifest.py rerun MANIFEST.json --crown BIN [--egdb DIR] [--chunks A..B]

`check` compares the chunk files in DATA with the manifest byte for byte (size and SHA-256); the
chunks a manifest lists that DATA lacks are reported, as are chunks DATA holds that it does not
list. `rerun` runs the recorded command again with the binary BIN (which must be built from the
recorded commit: a different engine plays different games) into a new temporary directory for the
chosen chunks (default: the first), then checks those chunks as `check` does. The exit status is 0
only when every chunk checked matches.
"""
import argparse
import hashlib
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import read_dataset  # noqa: E402


class ManifestError(Exception):
    """A data file, log or manifest that cannot be read; the message names it."""


def chunk_summary(path):
    """Size, SHA-256, positions and games of the chunk file at `path`, from its end record."""
    with open(path, "rb") as f:
        b = f.read()
    try:
        head, _ = read_dataset._header(b, path)
    except read_dataset.DataError as e:
        raise ManifestError(str(e)) from None
    if len(b) < 20:
        raise ManifestError(f"{path}: truncated (no end record)")
    end = b[-20:]
    (count,) = struct.unpack_from("<I", end, 0)
    records, games = struct.unpack_from("<QI", end, 4)
    if count != 0 or zlib.crc32(end[:16]) != struct.unpack_from("<I", end, 16)[0]:
        raise ManifestError(f"{path}: damaged or truncated end record")
    return {
        "file": os.path.basename(path),
        "chunk": head["chunk"],
        "bytes": len(b),
        "sha256": hashlib.sha256(b).hexdigest(),
        "positions": records,
        "games": games,
    }, head


def chunk_files(directory):
    """The `*.ctd` files of `directory`, sorted by name."""
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".ctd"))
    except OSError as e:
        raise ManifestError(f"{directory}: {e.strerror}") from None
    return [os.path.join(directory, n) for n in names]


def log_rate(path):
    """Positions per second that the generator's log states last (its per-chunk lines), or None."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise ManifestError(f"{path}: {e.strerror}") from None
    rates = re.findall(r"([0-9]+) positions/s", text)
    return int(rates[-1]) if rates else None


def write(args):
    files = chunk_files(args.dir)
    if not files:
        raise ManifestError(f"{args.dir}: no *.ctd chunk files")
    chunks, settings = [], None
    for p in files:
        c, head = chunk_summary(p)
        s = {"variant": head["variant"], "seed": head["seed"], "settings": head["settings"]}
        if settings is None:
            settings = s
        elif s != settings:
            raise ManifestError(f"{p}: made with other settings than {files[0]}")
        chunks.append(c)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        raise ManifestError("give the generator's command after --")
    manifest = {
        "format": "crown-data-manifest 1",
        "command": command,
        "commit": args.commit,
        **settings,
        "chunks": chunks,
        "total": {
            "chunks": len(chunks),
            "bytes": sum(c["bytes"] for c in chunks),
            "positions": sum(c["positions"] for c in chunks),
            "games": sum(c["games"] for c in chunks),
        },
    }
    if args.log:
        manifest["positions_per_second"] = log_rate(args.log)
    if args.note:
        manifest["note"] = args.note
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    t = manifest["total"]
    print(f"wrote {args.out}: {t['chunks']} chunks, {t['positions']} positions, {t['games']} games, {t['bytes']} bytes")
    return 0


def read_manifest(path):
    try:
        with open(path, encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        raise ManifestError(f"{path}: {e}") from None
    if not isinstance(m, dict) or m.get("format") != "crown-data-manifest 1":
        raise ManifestError(f"{path}: not a crown-data-manifest 1 file")
    return m


def compare(m, directory, only=None):
    """Compare the chunks of `directory` with manifest `m` (only the chunk numbers in `only` when
    given); print one line per problem and return the number of problems."""
    listed = {c["file"]: c for c in m["chunks"] if only is None or c["chunk"] in only}
    present = {os.path.basename(p): p for p in chunk_files(directory)}
    bad = listed_bad = 0
    for name, want in sorted(listed.items()):
        if name not in present:
            print(f"missing: {name}")
            bad += 1
            listed_bad += 1
            continue
        got, _ = chunk_summary(present[name])
        if (got["bytes"], got["sha256"]) != (want["bytes"], want["sha256"]):
            print(f"differs: {name}: {got['bytes']} bytes sha256 {got['sha256']}, "
                  f"manifest {want['bytes']} bytes sha256 {want['sha256']}")
            bad += 1
            listed_bad += 1
    if only is None:
        for name in sorted(set(present) - set(listed)):
            print(f"not in the manifest: {name}")
            bad += 1
    same = len(listed) - listed_bad
    print(f"{same} of {len(listed)} chunks identical (size and SHA-256)" if bad else
          f"all {len(listed)} chunks identical (size and SHA-256)")
    return bad


def check(args):
    return 1 if compare(read_manifest(args.manifest), args.dir) else 0


def parse_range(text):
    m = re.fullmatch(r"(\d+)(?:\.\.(=)?(\d+))?", text)
    if not m:
        raise ManifestError(f"--chunks {text}: give A, A..B or A..=B")
    a = int(m.group(1))
    if m.group(3) is None:
        return range(a, a + 1)
    b = int(m.group(3)) + (1 if m.group(2) else 0)
    if b <= a:
        raise ManifestError(f"--chunks {text}: empty range")
    return range(a, b)


def rerun_command(command, crown, out_dir, chunks, egdb):
    """The recorded generator command with another binary, output directory, chunk range and
    (optionally) database directory."""
    argv, i = [crown], 1
    while i < len(command):
        a = command[i]
        if a in ("--out-dir", "--games", "--chunks", "--egdb") and i + 1 < len(command):
            if a == "--egdb":
                argv += [a, egdb or command[i + 1]]
            i += 2
            continue
        argv.append(a)
        i += 1
    return argv + ["--out-dir", out_dir, "--chunks", f"{chunks.start}..{chunks.stop}"]


def rerun(args):
    m = read_manifest(args.manifest)
    chunks = parse_range(args.chunks)
    with tempfile.TemporaryDirectory(prefix="crown-rerun-") as tmp:
        argv = rerun_command(m["command"], args.crown, tmp, chunks, args.egdb)
        print("running:", " ".join(argv), flush=True)
        done = subprocess.run(argv)
        if done.returncode != 0:
            print(f"the generator exited with status {done.returncode}")
            return 1
        return 1 if compare(m, tmp, only=set(chunks)) else 0


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the manifest of a data directory")
    w.add_argument("--dir", required=True, help="the data directory (its *.ctd chunks)")
    w.add_argument("--commit", required=True, help="commit the generator binary was built from")
    w.add_argument("--log", help="the generator's log (for its positions per second)")
    w.add_argument("--note", help="free text: machine, load, anything a rerun should know")
    w.add_argument("--out", required=True, help="manifest file to write (JSON)")
    w.add_argument("command", nargs=argparse.REMAINDER, help="-- the generator's command")
    c = sub.add_parser("check", help="compare a data directory with a manifest byte for byte")
    c.add_argument("manifest")
    c.add_argument("--dir", required=True)
    r = sub.add_parser("rerun", help="make chunks again with the recorded command and compare them")
    r.add_argument("manifest")
    r.add_argument("--crown", required=True, help="crown binary built from the manifest's commit")
    r.add_argument("--egdb", help="database directory to use instead of the recorded one")
    r.add_argument("--chunks", default="0", help="A, A..B or A..=B (default 0)")
    args = ap.parse_args(argv)
    try:
        return {"write": write, "check": check, "rerun": rerun}[args.cmd](args)
    except ManifestError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
