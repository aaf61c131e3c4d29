# SPDX-License-Identifier: GPL-2.0
"""GF(2^8) arithmetic and the SM4 S-box definition shared by the table
generators in this directory (gen-sm4-tables.py, gen-sm4-aesni-tables.py,
gen-sm4-gfni-consts.py).

SM4's S-box is S(x) = A*I(A*x + C) + C with I the inverse modulo
P_SM4 = x^8+x^7+x^6+x^5+x^4+x^2+1, A the circulant bit matrix of
SM4_A_ROWS (row i gives output bit i; the string lists input bit 0 first)
and C = 0xd3.  P_AES is the AES (and GFNI) field polynomial.
"""

P_SM4 = 0x1F5
P_AES = 0x11B
SM4_A_ROWS = ["11100101", "11110010", "01111001", "10111100",
              "01011110", "00101111", "10010111", "11001011"]
SM4_C = 0xD3


def gmul(a, b, poly):
    """a * b in GF(2^8) modulo poly."""
    r = 0
    while b:
        if b & 1:
            r ^= a
        b >>= 1
        a <<= 1
        if a & 0x100:
            a ^= poly
    return r


def ginv(a, poly):
    """Multiplicative inverse modulo poly (0 maps to 0)."""
    return 0 if a == 0 else next(b for b in range(1, 256)
                                 if gmul(a, b, poly) == 1)


def sm4_affine(x):
    """A*x + C."""
    bits = [(x >> i) & 1 for i in range(8)]
    y = 0
    for i, row in enumerate(SM4_A_ROWS):
        y |= (sum(int(c) * b for c, b in zip(row, bits)) & 1) << i
    return y ^ SM4_C


SM4_SBOX = [sm4_affine(ginv(sm4_affine(x), P_SM4)) for x in range(256)]
