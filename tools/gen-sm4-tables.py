#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Print the SM4 S-box and CK constants as C tables.

The S-box is computed from its algebraic description (tools/sm4_gf.py):
S(x) = A*I(A*x + C) + C with I the inverse in GF(2^8) modulo
x^8+x^7+x^6+x^5+x^4+x^2+1, A a circulant bit matrix and C = 0xd3.
CK[i] has the bytes (4i + j) * 7 mod 256, j = 0..3, most significant first.
"""

from sm4_gf import SM4_SBOX

sbox = SM4_SBOX
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
