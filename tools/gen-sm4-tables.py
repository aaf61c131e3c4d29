#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the SM4 S-box and CK constants as C tables.

The S-box is computed from its algebraic description: S(x) = A*I(A*x + C) + C
with I the inverse in GF(2^8) modulo x^8+x^7+x^6+x^5+x^4+x^2+1, A the
circulant matrix below (bit 0 first) and C = 0xd3.  CK[i] has the bytes
(4i + j) * 7 mod 256, j = 0..3, most significant first.
"""

POLY = 0x1F5
ROWS = ["11100101", "11110010", "01111001", "10111100",
        "01011110", "00101111", "10010111", "11001011"]


def gmul(a, b):
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= POLY
    return r


def ginv(a):
    return 0 if a == 0 else next(b for b in range(1, 256) if gmul(a, b) == 1)


def affine(x):
    bits = [(x >> i) & 1 for i in range(8)]
    y = 0
    for i, row in enumerate(ROWS):
        y |= (sum(int(c) * b for c, b in zip(row, bits)) & 1) << i
    return y ^ 0xD3


sbox = [affine(ginv(affine(x))) for x in range(256)]
ck = [int.from_bytes(bytes(((4 * i + j) * 7) & 0xFF for j in range(4)), "big")
      for i in range(32)]

print("const u8 crypto_sm4_sbox[256] = {")
for i in range(0, 256, 8):
    print("\t" + ", ".join("0x%02x" % v for v in sbox[i:i + 8]) + ",")
print("};\n")
print("const u32 crypto_sm4_ck[32] = {")
for i in range(0, 32, 4):
    print("\t" + ", ".join("0x%08x" % v for v in ck[i:i + 4]) + ",")
print("};")
