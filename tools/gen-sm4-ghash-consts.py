#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive and check the GHASH constants of arch/x86/sm4-gfni-avx512-asm_64.S.

GHASH (NIST SP 800-38D) multiplies in GF(2^128) modulo
x^128 + x^7 + x^2 + x + 1, the most significant bit of byte 0 of a block
being the coefficient of x^0.  The assembly loads
blocks byte-reversed per 128-bit lane, so a lane read as a 128-bit integer
is the block read big-endian: bit 127 is the coefficient of x^0.

Its multiply (GH_MUL then GH_REDUCE) is modelled here instruction by
instruction: four 64x64 carry-less products (or Karatsuba's three, as the
zmm batches of GH_BATCH take them, over the table's halves' sums), MID split
into LO and HI, two
folds of LO's low qword by the reduction constant POLY with a qword swap,
then LO ^ HI.  POLY is the remainder x^7 + x^2 + x + 1 of x^128,
bit-reflected into a qword (0xe1 << 56) and moved one place further, as the
products are one bit short; its top bit falls off the qword.  This computes
a * b * x, so the key table holds H^k * x^-1, and gcm_init gets H * x^-1
as the product of H with x^-2 (XINV2).  Both constants are derived below,
then the model is checked against a bit-serial multiply (the SP 800-38D
algorithm), on a table of POWERS powers (SM4_GH_POWERS in the assembly,
read from it) and lane-wise reduced aggregated sums,
and against the GCM test vector of the specification's test case 2
(AES-128, zero key: H = 66e94bd4ef8a2c3b884cfa59ca342b2e,
GHASH(C) = f38cbb1ad69223dcc3457ae5b6b0f885).

Prints the constants as #define lines of arch/x86/sm4-ghash.h.
"""

import os
import random
import re

MASK64 = (1 << 64) - 1
R = 0xE1 << 120


def gf_mul(x, y):
    """SP 800-38D, algorithm 1: bit 127 of an integer is x^0."""
    z, v = 0, y
    for i in range(127, -1, -1):
        if x >> i & 1:
            z ^= v
        v = (v >> 1) ^ R if v & 1 else v >> 1
    return z


def gf_pow(x, e):
    r = 1 << 127
    while e:
        if e & 1:
            r = gf_mul(r, x)
        x = gf_mul(x, x)
        e >>= 1
    return r


def clmul(a, b):
    r = 0
    for i in range(64):
        if b >> i & 1:
            r ^= a << i
    return r


# x^128 = x^7 + x^2 + x + 1, reflected (x^0 at bit 63), one place on.
POLY = (sum(1 << (63 - e) for e in (0, 1, 2, 7)) << 1) & MASK64
X = 1 << 126                    # the polynomial x
XINV2 = gf_pow(X, (1 << 128) - 3)   # x^-2 (the group has order 2^128 - 1)


def products(a, b):
    a0, a1, b0, b1 = a & MASK64, a >> 64, b & MASK64, b >> 64
    return clmul(a0, b0), clmul(a0, b1) ^ clmul(a1, b0), clmul(a1, b1)


def reduce(lo, mid, hi):
    lo ^= (mid & MASK64) << 64
    hi ^= mid >> 64
    for _ in range(2):
        t = clmul(lo & MASK64, POLY)
        lo = ((lo >> 64) | ((lo & MASK64) << 64)) ^ t
    return lo ^ hi


def mul(a, b):
    return reduce(*products(a, b))


ASM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "arch",
                   "x86", "sm4-gfni-avx512-asm_64.S")
with open(ASM, encoding="utf-8") as f:
    POWERS = int(re.search(r"^#define SM4_GH_POWERS\s+(\d+)$", f.read(),
                           re.M).group(1))
assert POWERS == 64, "the assembly's batches are 64 blocks, one reduction each"


def table(h):
    """Offsets 0 .. 16 * (POWERS - 1): H^POWERS * x^-1 .. H * x^-1, as
    gcm_init makes it."""
    p = mul(h, XINV2)
    hx = p
    t = [p]
    for _ in range(POWERS - 1):
        p = mul(p, hx)
        t.append(p)
    return t[::-1]


def ghash(h, blocks, acc=0):
    for b in blocks:
        acc = gf_mul(acc ^ b, h)
    return acc


def karatsuba_table(t):
    """At KOFF + the offset of each power: its halves' sum, in both
    qwords (gcm_init's VPSHUFD and VPXORD)."""
    return [(p & MASK64 ^ p >> 64) * ((1 << 64) | 1) for p in t]


def ghash_model(h, blocks, acc=0, karatsuba=False):
    """Batches of up to POWERS blocks, products summed per lane, reduced:
    four products a block (GH_MUL: the pipelined gcm batches) or, as
    GH_BATCH, three (LO, HI, (x0 ^ x1) * (h0 ^ h1) from the table's
    second part) and MID = their sum ^ LO ^ HI once per batch."""
    t = table(h)
    tk = karatsuba_table(t)
    while blocks:
        n = min(POWERS, len(blocks))
        lo = mid = hi = 0
        for i, b in enumerate(blocks[:n]):
            x = b ^ acc if i == 0 else b
            if karatsuba:
                hp, hk = t[POWERS - n + i], tk[POWERS - n + i]
                xk = x & MASK64 ^ x >> 64
                p = (clmul(x & MASK64, hp & MASK64), clmul(xk, hk & MASK64),
                     clmul(x >> 64, hp >> 64))
            else:
                p = products(x, t[POWERS - n + i])
            lo, mid, hi = lo ^ p[0], mid ^ p[1], hi ^ p[2]
        if karatsuba:
            mid ^= lo ^ hi
        acc = reduce(lo, mid, hi)
        blocks = blocks[n:]
    return acc


assert POLY == 0xC200000000000000
assert gf_mul(XINV2, gf_mul(X, X)) == 1 << 127
rng = random.Random(13)
for _ in range(200):
    a, b = rng.getrandbits(128), rng.getrandbits(128)
    assert mul(a, b) == gf_mul(gf_mul(a, b), X)
for n in (1, 2, 3, 4, 5, 16, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129):
    h = rng.getrandbits(128)
    blocks = [rng.getrandbits(128) for _ in range(n)]
    acc = rng.getrandbits(128)
    for karatsuba in (False, True):
        assert ghash_model(h, blocks, acc, karatsuba) == ghash(h, blocks, acc)

H = 0x66E94BD4EF8A2C3B884CFA59CA342B2E
C = 0x0388DACE60B6A392F328C2B971B2FE78
LEN = 128                       # len(A) = 0, len(C) = 128 bits
for karatsuba in (False, True):
    assert ghash_model(H, [C, LEN], karatsuba=karatsuba) == \
        0xF38CBB1AD69223DCC3457AE5B6B0F885

print("/* generated by tools/gen-sm4-ghash-consts.py */")
print("#define SM4_GHASH_POLY\t\t0x%016x" % POLY)
print("#define SM4_GHASH_XINV2_LO\t0x%016x" % (XINV2 & MASK64))
print("#define SM4_GHASH_XINV2_HI\t0x%016x" % (XINV2 >> 64))
