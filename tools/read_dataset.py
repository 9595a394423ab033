#!/usr/bin/env python3
"""Read Crown's binary training-data files (`crown tune gen --out-dir`, `crown tune pack`; format
`crown_train::dataset` version 1, docs/engine.md "Training data at scale") with the standard library
only, e.g. for a Python training script. An independent decoder of the format: it checks every
CRC and the end, as the Rust reader does.

    python3 tools/read_dataset.py FILE.ctd...     # one summary line per file

As a module: `for rec in records(path): ...`, each record a dict with `black_men`, `white_men`,
`black_kings`, `white_kings` (square sets, bit n - 1 = square n; Impasse singles and doubles),
`white_to_move`, `result` and `exact` (0 loss, 1 draw, 2 win for the side to move; `exact` None
when no database labelled it), `score` (centi-men for the side to move), `ply` (None: unknown) and
`game`; `header(path)` gives the variant, seed, chunk and settings.
"""
import struct
import sys
import zlib

ROW = 25
VARIANTS = {0: "american", 1: "pool", 2: "impasse"}


class DataError(Exception):
    """A file that is not a readable data file; the message names the file and the record."""


def _header(b, path):
    if b[:8] != b"CRWNDATA":
        raise DataError(f"{path}: header: not a Crown data file")
    version, variant, zero = struct.unpack_from("<HBB", b, 8)
    if version != 1 or variant not in VARIANTS or zero != 0:
        raise DataError(f"{path}: header: version {version}, variant {variant}")
    seed, chunk, length = struct.unpack_from("<QII", b, 12)
    at = 28 + length
    if len(b) < at + 4 or zlib.crc32(b[:at]) != struct.unpack_from("<I", b, at)[0]:
        raise DataError(f"{path}: header: truncated or damaged")
    settings = b[28:at].decode("utf-8")
    return {"variant": VARIANTS[variant], "seed": seed, "chunk": chunk, "settings": settings}, at + 4


def header(path):
    """The header of the data file at `path`."""
    with open(path, "rb") as f:
        return _header(f.read(), path)[0]


def records(path):
    """The records of the data file at `path`, one block decoded at a time."""
    with open(path, "rb") as f:
        b = f.read()
    _, at = _header(b, path)
    first = 0
    while True:
        if len(b) < at + 4:
            raise DataError(f"{path}: record {first}: truncated (no end)")
        (n,) = struct.unpack_from("<I", b, at)
        if n == 0:
            if len(b) != at + 20 or zlib.crc32(b[at:at + 16]) != struct.unpack_from("<I", b, at + 16)[0]:
                raise DataError(f"{path}: record {first}: damaged or truncated end")
            if struct.unpack_from("<Q", b, at + 4)[0] != first:
                raise DataError(f"{path}: record {first}: the end counts other records")
            return
        plen, crc = struct.unpack_from("<II", b, at + 4)
        at += 12
        try:
            plain = zlib.decompress(b[at:at + plen], -15)
        except zlib.error as e:
            raise DataError(f"{path}: record {first}: damaged block ({e})") from None
        if len(plain) != ROW * n or zlib.crc32(plain) != crc:
            raise DataError(f"{path}: record {first}: damaged block")
        at += plen
        prev = [0] * 6
        for i in range(n):
            row = bytes(plain[j * n + i] for j in range(ROW))
            sets = [struct.unpack_from("<I", row, 4 * k)[0] ^ prev[k] for k in range(4)]
            ply = (struct.unpack_from("<H", row, 18)[0] + prev[4]) & 0xFFFF
            game = (struct.unpack_from("<I", row, 20)[0] + prev[5]) & 0xFFFFFFFF
            prev = sets + [ply, game]
            flags = row[24]
            exact = (flags >> 3) & 3
            yield {
                "black_men": sets[0],
                "white_men": sets[1],
                "black_kings": sets[2],
                "white_kings": sets[3],
                "white_to_move": bool(flags & 1),
                "result": (flags >> 1) & 3,
                "exact": exact - 1 if exact else None,
                "score": struct.unpack_from("<h", row, 16)[0],
                "ply": None if ply == 0xFFFF else ply,
                "game": game,
            }
        first += n


def main(paths):
    for p in paths:
        h = header(p)
        n, games, exact = 0, set(), 0
        for r in records(p):
            n += 1
            games.add(r["game"])
            exact += r["exact"] is not None
        print(f"{p}: {h['variant']} seed {h['seed']} chunk {h['chunk']}: {n} positions, "
              f"{len(games)} games with positions, {exact} labelled by databases")


if __name__ == "__main__":
    main(sys.argv[1:])
