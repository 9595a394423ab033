#!/usr/bin/env python3
"""Train Crown's network evaluation (crates/ai/src/eval/network) on self-play data and export it.

Reads the binary data files of `crown tune gen --out-dir` (tools/read_dataset.py decodes them),
trains the float network with PyTorch (deterministic by --seed, one thread), keeps its weights
within the ranges the integer format holds while it trains (so the quantisation rounds, never
clips), trains the last --qat-epochs quantisation-aware (the forward pass rounds the weights and
the second layer's activations as the engine does, gradients straight through), and writes the network file (format in crates/ai/src/eval/network/format.rs).

    VENV/bin/python tools/train/nnue.py --data data/american/chunk-*.ctd --out american.nnue \
        [--l1 128 --l2 32 --buckets 4 --epochs 8 --seed 1] [--fixture FILE --fixture-positions 200]

The network: 128 inputs per perspective (own men, own kings, other's men, other's kings × 32
squares; White's view turned 180°), a shared first layer of --l1 neurons for each perspective,
clipped ReLU (0..1), the side to move's half first; per piece-count bucket a second layer of --l2
neurons, clipped ReLU, and one output, in men (the engine's centi-men are 100 × it). The loss is the
cross-entropy of sigmoid(k × 100 × output) against λ × result + (1 − λ) × sigmoid(k × search
score), or a database's exact value alone (the trained table evaluation's target, crates/train).
Held out: whole games (--held-out share, seeded), or the --val files; --split position --dense
trains as the committed test network was trained (single positions held out, dense first layer,
an exact value mixed like a game result).

--fixture writes (FEN, float score, integer score) lines of held-out positions: the float model's
score in centi-men and the integer score this script computes as the engine does; the engine's
test (crates/ai/tests/network_fixture.rs) checks its own integer score equals the latter and lies
within the stated tolerance of the former.
"""
import argparse
import os
import struct
import sys
import time
import zlib

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import read_dataset  # noqa: E402

INPUTS = 128
QA = 127          # the clipped ReLU's 1.0
QB_LOG2 = 6       # second-layer weights in 1/64
QO = 64           # output weights in 1/64
OUT_CM = 100      # centi-men per unit of the output
VARIANT_BYTE = {"american": 0, "pool": 1, "impasse": 2}
# Weight ranges the integer format holds: second layer i8 / 64, first layer such that 24 pieces
# plus the bias cannot overflow i16 at scale 127 (24 · 8 · 127 + 127 · 8 < 32767).
L1_MAX = 8.0
L2_MAX = 127 / 2 ** QB_LOG2


def features(black_men, white_men, black_kings, white_kings, persp):
    """The 128 inputs (0/1) of a position seen from `persp` (0 Black, 1 White)."""
    x = np.zeros(INPUTS, dtype=np.uint8)
    for colour, role, s in ((0, 0, black_men), (0, 1, black_kings), (1, 0, white_men), (1, 1, white_kings)):
        kind = 2 * (colour != persp) + role
        while s:
            low = s & -s
            i = low.bit_length() - 1
            s ^= low
            x[kind * 32 + (i if persp == 0 else 31 - i)] = 1
    return x


def decode(path):
    """The records of the data file at `path` as arrays (numpy, one block at a time; the same
    checks as tools/read_dataset.py): square sets (n, 4: Black's men, White's men, Black's kings,
    White's kings), side to move (1 White), result, exact value (-1 none), score and game."""
    with open(path, "rb") as f:
        b = f.read()
    try:
        head, at = read_dataset._header(b, path)
    except read_dataset.DataError as e:
        sys.exit(str(e))
    parts, first = [], 0
    while True:
        if len(b) < at + 4:
            sys.exit(f"{path}: record {first}: truncated (no end)")
        (n,) = struct.unpack_from("<I", b, at)
        if n == 0:
            if len(b) != at + 20 or zlib.crc32(b[at:at + 16]) != struct.unpack_from("<I", b, at + 16)[0] \
                    or struct.unpack_from("<Q", b, at + 4)[0] != first:
                sys.exit(f"{path}: record {first}: damaged or truncated end")
            break
        plen, crc = struct.unpack_from("<II", b, at + 4)
        at += 12
        try:
            plain = zlib.decompress(b[at:at + plen], -15)
        except zlib.error as e:
            sys.exit(f"{path}: record {first}: damaged block ({e})")
        if len(plain) != read_dataset.ROW * n or zlib.crc32(plain) != crc:
            sys.exit(f"{path}: record {first}: damaged block")
        at += plen
        # Byte-transposed rows; square sets XOR the previous row's, game a wrapping difference.
        rows = np.ascontiguousarray(np.frombuffer(plain, dtype=np.uint8).reshape(read_dataset.ROW, n).T)
        sets = np.bitwise_xor.accumulate(rows[:, :16].copy().view("<u4"), axis=0)
        game = (np.cumsum(rows[:, 20:24].copy().view("<u4")[:, 0].astype(np.uint64)) & 0xFFFFFFFF)
        flags = rows[:, 24]
        parts.append((sets, (flags & 1).astype(np.uint8), ((flags >> 1) & 3).astype(np.int8),
                      ((flags >> 3) & 3).astype(np.int8) - 1, rows[:, 16:18].copy().view("<i2")[:, 0],
                      game.astype(np.int64)))
        first += n
    cols = [np.concatenate([p[i] for p in parts]) if parts else np.zeros(0) for i in range(6)]
    return head, cols


def views(sets, persp):
    """The (n, 128) inputs (uint8 0/1) of positions with square sets `sets` (n, 4) seen from
    `persp` (per position: 0 Black, 1 White), as `features` computes one."""
    n = len(sets)
    bits = np.unpackbits(np.ascontiguousarray(sets).view(np.uint8).reshape(n, 4, 4), axis=2,
                         bitorder="little").reshape(n, 4, 32)
    black = bits[:, [0, 2, 1, 3], :].reshape(n, 128)            # own men, own kings, other's
    white = bits[:, [1, 3, 0, 2], ::-1].reshape(n, 128)         # turned 180°, colours swapped
    return np.where(persp.reshape(n, 1) == 0, black, white)


def active(dense):
    """The active features of (n, 128) 0/1 inputs as (n, 24) lists, 128 padding the rest."""
    n = len(dense)
    rows, cols = np.nonzero(dense)
    counts = np.bincount(rows, minlength=n)
    if n and counts.max() > 24:
        sys.exit(f"a position with {counts.max()} pieces: at most 24")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    out = np.full((n, 24), INPUTS, dtype=np.int16)
    out[rows, np.arange(len(rows)) - starts[rows]] = cols
    return out


def load(paths, limit):
    """Inputs of the side to move and the other, bucket piece counts, results (exact value when
    a database gave one), whether exact, scores, game keys (file index, game) and FENs (lazily:
    the square sets and sides)."""
    cols = [[] for _ in range(7)]
    variant, total = None, 0
    for fi, p in enumerate(paths):
        h, (sets, side, res, exact, score, game) = decode(p)
        if variant is None:
            variant = h["variant"]
        elif variant != h["variant"]:
            sys.exit(f"{p}: {h['variant']} data among {variant} data")
        if limit:
            keep = max(0, min(len(sets), limit - total))
            sets, side, res, exact, score, game = (a[:keep] for a in (sets, side, res, exact, score, game))
        total += len(sets)
        for c, a in zip(cols, (sets, side, res, exact, score, game, np.full(len(sets), fi, dtype=np.int64))):
            c.append(a)
        if limit and total >= limit:
            break
    sets, side, res, exact, score, game, fidx = (np.concatenate(c) for c in cols)
    us, them = views(sets, side), views(sets, 1 - side)
    pieces = np.unpackbits(sets.view(np.uint8), axis=1).sum(axis=1)
    result = np.where(exact >= 0, exact, res).astype(np.float32) / 2.0
    return (variant, us, them, pieces, result, exact >= 0, score.astype(np.float32),
            np.stack([fidx, game], axis=1), (sets, side))


def fen(black_men, white_men, black_kings, white_kings, side):
    """The PDN FEN of a position (squares numbered 1-32, kings prefixed K)."""
    def part(men, kings):
        return ",".join(("K" if kings >> i & 1 else "") + str(i + 1) for i in range(32) if (men | kings) >> i & 1)
    return f"{'W' if side else 'B'}:W{part(white_men, white_kings)}:B{part(black_men, black_kings)}"


def bucket_of(pieces, buckets):
    return np.minimum((np.maximum(pieces, 1) - 1) * buckets // 24, buckets - 1)


def fake_quant(x, scale, on):
    """`x` rounded to a multiple of 1 / `scale` when `on` (quantisation-aware training), with the
    gradient passing straight through the rounding."""
    if not on:
        return x
    return x + (torch.round(x * scale) / scale - x).detach()


class Net(torch.nn.Module):
    def __init__(self, l1, l2, buckets):
        super().__init__()
        self.l1, self.l2, self.buckets = l1, l2, buckets
        self.qat = False
        self.ft = torch.nn.Linear(INPUTS, l1)
        self.fc = torch.nn.Linear(2 * l1, l2 * buckets)
        self.out = torch.nn.Linear(l2, buckets)
        with torch.no_grad():
            self.ft.weight.mul_(0.5)

    def forward(self, us, them, bucket):
        q = self.qat
        ft_w, ft_b = fake_quant(self.ft.weight, QA, q), fake_quant(self.ft.bias, QA, q)
        a = torch.clamp(torch.cat([us @ ft_w.T + ft_b, them @ ft_w.T + ft_b], dim=1), 0.0, 1.0)
        fc_w = fake_quant(self.fc.weight, 2 ** QB_LOG2, q)
        fc_b = fake_quant(self.fc.bias, QA * 2 ** QB_LOG2, q)
        h = (a @ fc_w.T + fc_b).view(-1, self.buckets, self.l2)
        idx = bucket.view(-1, 1, 1).expand(-1, 1, self.l2)
        h = h.gather(1, idx).squeeze(1)
        if q:
            # The engine shifts the second layer's sums right: floor to a multiple of 1 / QA.
            h = h + (torch.floor(h * QA) / QA - h).detach()
        h = torch.clamp(h, 0.0, 1.0)
        out_w = fake_quant(self.out.weight, QO, q)
        out_b = fake_quant(self.out.bias, QA * QO, q)
        return (h * out_w[bucket]).sum(1) + out_b[bucket]

    def forward_sparse(self, us_idx, them_idx, bucket, bounds):
        """`forward` on active-feature lists (n, 24; 128 pads) of a batch sorted by bucket
        (`bounds[b]:bounds[b + 1]` the rows of bucket b): a gather-sum instead of the dense first
        layer's product and each bucket's second layer on its own rows only, the same function in
        a quarter of the operations (the float sums in another order)."""
        q = self.qat
        ft_w, ft_b = fake_quant(self.ft.weight, QA, q), fake_quant(self.ft.bias, QA, q)
        table = torch.cat([ft_w.T, torch.zeros(1, self.l1)], dim=0)
        acc = lambda i: torch.nn.functional.embedding_bag(i, table, mode="sum", padding_idx=INPUTS) + ft_b  # noqa: E731
        a = torch.clamp(torch.cat([acc(us_idx), acc(them_idx)], dim=1), 0.0, 1.0)
        fc_w = fake_quant(self.fc.weight, 2 ** QB_LOG2, q).view(self.buckets, self.l2, 2 * self.l1)
        fc_b = fake_quant(self.fc.bias, QA * 2 ** QB_LOG2, q).view(self.buckets, self.l2)
        h = torch.cat([a[bounds[b]:bounds[b + 1]] @ fc_w[b].T + fc_b[b] for b in range(self.buckets)])
        if q:
            h = h + (torch.floor(h * QA) / QA - h).detach()
        h = torch.clamp(h, 0.0, 1.0)
        out_w = fake_quant(self.out.weight, QO, q)
        out_b = fake_quant(self.out.bias, QA * QO, q)
        return (h * out_w[bucket]).sum(1) + out_b[bucket]

    def clip(self):
        with torch.no_grad():
            self.ft.weight.clamp_(-L1_MAX, L1_MAX)
            self.ft.bias.clamp_(-L1_MAX, L1_MAX)
            self.fc.weight.clamp_(-L2_MAX, L2_MAX)


def quantise(net):
    """The integer parameters of the file (post-training rounding of the clipped float weights)."""
    ft_w = net.ft.weight.detach().numpy().T  # (INPUTS, l1)
    q = {
        "l1_bias": np.round(net.ft.bias.detach().numpy() * QA).astype(np.int16),
        "l1_weights": np.round(ft_w * QA).astype(np.int16),
        "dense": [],
    }
    fc_w = net.fc.weight.detach().numpy().reshape(net.buckets, net.l2, 2 * net.l1)
    fc_b = net.fc.bias.detach().numpy().reshape(net.buckets, net.l2)
    for b in range(net.buckets):
        q["dense"].append((
            np.round(fc_b[b] * QA * 2 ** QB_LOG2).astype(np.int32),
            np.clip(np.round(fc_w[b] * 2 ** QB_LOG2), -128, 127).astype(np.int8),
            int(round(float(net.out.bias[b].detach()) * QA * QO)),
            np.round(net.out.weight.detach().numpy()[b] * QO).astype(np.int16),
        ))
    return q


def int_eval(q, us, them, pieces, buckets):
    """The engine's integer evaluation (centi-men), as crates/ai/src/eval/network/mod.rs computes it."""
    acc_us = q["l1_bias"].astype(np.int64) + us.astype(np.int64) @ q["l1_weights"].astype(np.int64)
    acc_them = q["l1_bias"].astype(np.int64) + them.astype(np.int64) @ q["l1_weights"].astype(np.int64)
    a = np.clip(np.concatenate([acc_us, acc_them], axis=1), 0, QA)
    out = np.zeros(len(us), dtype=np.int64)
    bk = bucket_of(pieces, buckets)
    for b in range(buckets):
        sel = bk == b
        l2b, l2w, ob, ow = q["dense"][b]
        s = a[sel] @ l2w.astype(np.int64).T + l2b
        h = np.clip(s >> QB_LOG2, 0, QA)
        out[sel] = h @ ow.astype(np.int64) + ob
    return np.clip((out * OUT_CM) // (QA * QO), -20000, 20000)


def write(path, variant, net, q):
    payload = bytearray()
    payload += q["l1_bias"].astype("<i2").tobytes() + q["l1_weights"].astype("<i2").tobytes()
    for l2b, l2w, ob, ow in q["dense"]:
        payload += l2b.astype("<i4").tobytes() + l2w.astype("i1").tobytes()
        payload += struct.pack("<i", ob) + ow.astype("<i2").tobytes()
    head = b"CRWNNNUE" + struct.pack("<HBB", 1, VARIANT_BYTE[variant], net.buckets)
    head += struct.pack("<8H", INPUTS, net.l1, net.l2, QA, QB_LOG2, QO, OUT_CM, 0)
    head += struct.pack("<I", len(payload))
    body = head + bytes(payload)
    with open(path, "wb") as f:
        f.write(body + struct.pack("<I", zlib.crc32(body)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", nargs="+", required=True, help="binary data files (crown tune gen --out-dir)")
    ap.add_argument("--out", required=True, help="network file to write")
    ap.add_argument("--l1", type=int, default=128)
    ap.add_argument("--l2", type=int, default=32)
    ap.add_argument("--buckets", type=int, default=4)
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.7, help="weight of the game result in the target")
    ap.add_argument("--k", type=float, default=0.00757, help="scale of sigmoid(k x centi-men)")
    ap.add_argument("--qat-epochs", type=int, default=4,
                    help="the last epochs train quantisation-aware (the integer engine's rounding in the forward pass)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-positions", type=int, default=0, help="read at most this many (0: all)")
    ap.add_argument("--held-out", type=float, default=0.05, help="share of games (positions with --split position) kept out of training")
    ap.add_argument("--fixture", help="write (FEN, float cm, integer cm) lines of held-out positions here")
    ap.add_argument("--fixture-positions", type=int, default=200)
    ap.add_argument("--split", choices=["game", "position"], default="game",
                    help="hold out whole games (default) or single positions (the committed test network's split)")
    ap.add_argument("--val", nargs="+", help="held-out data files (whole chunks) instead of a --held-out share")
    ap.add_argument("--lr-decay", type=float, default=1.0, help="the step is multiplied by this each epoch")
    ap.add_argument("--dense", action="store_true",
                    help="the dense first layer and all buckets' second layers for every position (as the "
                         "committed test network was trained; slower, other float rounding)")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads (1: deterministic to the byte)")
    args = ap.parse_args()
    if args.l1 % 16 or args.l2 % 8 or not 1 <= args.buckets <= 8:
        sys.exit("--l1 must be a multiple of 16, --l2 of 8, --buckets 1 to 8")

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(True)
    t0 = time.time()
    paths = list(args.data) + list(args.val or [])
    variant, us, them, pieces, result, exact, score, games, boards = load(paths, args.max_positions)
    n = len(us)
    print(f"{n} {variant} positions of {len(np.unique(games, axis=0))} games read in {time.time() - t0:.1f} s "
          f"({int(exact.sum())} with an exact database value)")
    rng = np.random.default_rng(args.seed)
    if args.val:
        # The held-out positions: those of the --val files (whole games, whole chunks).
        in_val = games[:, 0] >= len(args.data)
        held, train = np.flatnonzero(in_val), np.flatnonzero(~in_val)
        held = held[rng.permutation(len(held))]
    elif args.split == "game":
        # Whole games held out: a seeded random share of the (file, game) keys.
        keys, inverse = np.unique(games, axis=0, return_inverse=True)
        chosen = rng.random(len(keys)) < args.held_out
        in_val = chosen[inverse.reshape(-1)]
        held, train = np.flatnonzero(in_val), np.flatnonzero(~in_val)
        held = held[rng.permutation(len(held))]
    else:
        # Positions held out one by one (the committed test network's split; positions of one
        # game then fall on both sides).
        order = rng.permutation(n)
        n_held = max(1, int(n * args.held_out))
        held, train = order[:n_held], order[n_held:]
    if len(held) == 0 or len(train) == 0:
        sys.exit(f"{len(train)} training and {len(held)} held-out positions: need both")
    print(f"{len(train)} training positions, {len(held)} held out ({args.split if not args.val else 'the --val files'})")
    sig = lambda x: 1 / (1 + np.exp(-x))  # noqa: E731
    target = (args.lam * result + (1 - args.lam) * sig(args.k * score)).astype(np.float32)
    if args.split == "game" or args.val:
        # As crown tune fit/loss: a database's exact value is the whole target.
        target = np.where(exact, result, target).astype(np.float32)
    T = lambda a: torch.from_numpy(np.ascontiguousarray(a))  # noqa: E731
    bk_t, target_t = T(bucket_of(pieces, args.buckets).astype(np.int64)), T(target)

    net = Net(args.l1, args.l2, args.buckets)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)

    if not args.dense:
        bk_np = bucket_of(pieces, args.buckets)
        us_idx, them_idx = T(active(us)), T(active(them))

    def loss_of(idx, reduction="mean"):
        if args.dense:
            i = T(idx)
            x_us, x_them = T(us[idx]).float(), T(them[idx]).float()
            p = torch.sigmoid(args.k * OUT_CM * net(x_us, x_them, bk_t[i]))
            return torch.nn.functional.binary_cross_entropy(p, target_t[i], reduction=reduction)
        idx = idx[np.argsort(bk_np[idx], kind="stable")]
        bounds = np.searchsorted(bk_np[idx], np.arange(args.buckets + 1))
        i = T(idx)
        p = torch.sigmoid(args.k * OUT_CM * net.forward_sparse(us_idx[i].long(), them_idx[i].long(), bk_t[i], bounds))
        return torch.nn.functional.binary_cross_entropy(p, target_t[i], reduction=reduction)

    def held_loss():
        with torch.no_grad():
            return sum(float(loss_of(held[s:s + 65536], "sum")) for s in range(0, len(held), 65536)) / len(held)

    for epoch in range(args.epochs):
        net.qat = epoch >= args.epochs - args.qat_epochs
        for g in opt.param_groups:
            g["lr"] = args.lr * args.lr_decay ** epoch
        perm = train[rng.permutation(len(train))]
        total = 0.0
        for s in range(0, len(perm), args.batch):
            opt.zero_grad()
            batch = perm[s:s + args.batch]
            loss = loss_of(batch)
            loss.backward()
            opt.step()
            net.clip()
            total += float(loss.detach()) * len(batch)
        print(f"epoch {epoch + 1}{' (quantisation-aware)' if net.qat else ''}: train loss {total / len(perm):.4f}, "
              f"held-out {held_loss():.4f}, {time.time() - t0:.0f} s", flush=True)

    net.qat = args.qat_epochs > 0
    q = quantise(net)
    write(args.out, variant, net, q)
    fl = np.zeros(len(held))
    with torch.no_grad():
        for s in range(0, len(held), 65536):
            i = held[s:s + 65536]
            fl[s:s + len(i)] = net(T(us[i]).float(), T(them[i]).float(), bk_t[T(i)]).numpy() * OUT_CM
    ie = int_eval(q, us[held], them[held], pieces[held], args.buckets)
    diff = np.abs(ie - fl)
    p = np.clip(sig(args.k * ie), 1e-9, 1 - 1e-9)
    t = target[held]
    int_loss = float(np.mean(-(t * np.log(p) + (1 - t) * np.log(1 - p))))
    print(f"wrote {args.out}: {os.path.getsize(args.out)} bytes; integer vs float on {len(held)} held-out "
          f"positions: mean |diff| {diff.mean():.2f} cm, max {diff.max():.2f} cm; held-out loss of the "
          f"integer network {int_loss:.4f}")
    if args.fixture:
        sets, side = boards
        with open(args.fixture, "w") as f:
            f.write(f"# tools/train/nnue.py fixture: FEN, float model score (cm), integer score (cm); "
                    f"{os.path.basename(args.out)} seed {args.seed}\n")
            for j in range(min(args.fixture_positions, len(held))):
                bm, wm, bk, wk = (int(x) for x in sets[held[j]])
                f.write(f"{fen(bm, wm, bk, wk, int(side[held[j]]))}\t{fl[j]:.3f}\t{ie[j]}\n")
        print(f"wrote {args.fixture}")


if __name__ == "__main__":
    main()
