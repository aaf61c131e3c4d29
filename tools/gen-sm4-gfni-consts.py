#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive the GF(2) bit matrices used by arch/x86/sm4-gfni-avx512-asm_64.S.

SM4's S-box is S(x) = A*I(A*x + c) + c, I the inverse in GF(2^8) modulo
p(x) = x^8+x^7+x^6+x^5+x^4+x^2+1 (0x1f5).  GFNI inverts modulo the AES
polynomial 0x11b, so a field isomorphism phi from the SM4 field onto the
AES field (the linear map sending x to a root of p in the AES field) gives

    S(t) = M2 * Inv11b(M1*t + c1) + c,  M1 = phi*A, c1 = phi(c), M2 = A*phi^-1.

The assembly keeps the cipher state "in the M1 domain": every state word
W is held as M1*W (bytewise).  The S-box input of a round is then just the
XOR of three state words and a transformed round key (M1*rk + c1), and the
round's contribution to the new word, M1*L(S(t)), splits by byte distance
k = 0..3 into four GF2P8AFFINEINVQB matrices Gk = M1*Nk*M2 (Nk: how byte j
of L's output depends on byte j-k of its input) whose results are rotated
left by 8k bits and XORed.  All constants from c fold into one byte e.

The 64-block path works byte-sliced (one register per byte position, so
the rotations become a choice of register) and updates the state through
the S-box input; encrypt_byte_sliced() models that formulation.

Prints the constants as the #define lines of arch/x86/sm4-gfni.h (which
tools/check-generated.py compares) and checks both constructions against
the standard SM4 test vector.
"""

from sm4_gf import P_AES, P_SM4, SM4_A_ROWS as A_ROWS, SM4_C as C, gmul, ginv


# A matrix is a list of 8 row bytes: bit j of row i is the coefficient of
# input bit j in output bit i.
def mat_apply(m, x):
    return sum((bin(m[i] & x).count("1") & 1) << i for i in range(8))


def mat_from_fn(f):
    cols = [f(1 << j) for j in range(8)]
    return [sum(((cols[j] >> i) & 1) << j for j in range(8)) for i in range(8)]


def mat_mul(a, b):
    return mat_from_fn(lambda x: mat_apply(a, mat_apply(b, x)))


def mat_inv(m):
    table = {mat_apply(m, x): x for x in range(256)}
    assert len(table) == 256
    return mat_from_fn(lambda y: table[y])


def gfni_qword(m):
    """Encode for GF2P8AFFINE(INV)QB: byte 7-i of the qword is row i."""
    return sum(m[i] << (8 * (7 - i)) for i in range(8))


A = [int(r[::-1], 2) for r in A_ROWS]   # string is bit 0 first

def gpow(b, e, poly):
    r = 1
    for _ in range(e):
        r = gmul(r, b, poly)
    return r


def is_root(b):
    v = 0
    for k in range(9):
        if (P_SM4 >> k) & 1:
            v ^= gpow(b, k, P_AES)
    return v == 0


def phi(x):
    """Map an element of the SM4 field to the AES field: x -> beta."""
    r = 0
    for k in range(8):
        if (x >> k) & 1:
            r ^= gpow(BETA, k, P_AES)
    return r


# phi sends x to BETA, a root of the SM4 polynomial in the AES field.
BETA = next(b for b in range(2, 256) if is_root(b))
PHI = mat_from_fn(phi)

M1 = mat_mul(PHI, A)
C1 = mat_apply(PHI, C)
M2 = mat_mul(A, mat_inv(PHI))
M1_INV = mat_inv(M1)


def sbox(x):
    return mat_apply(A, ginv(mat_apply(A, x) ^ C, P_SM4)) ^ C


def sbox_gfni(x):
    return mat_apply(M2, ginv(mat_apply(M1, x) ^ C1, P_AES)) ^ C


assert all(sbox(x) == sbox_gfni(x) for x in range(256))


def rol32(w, s):
    return ((w << s) | (w >> (32 - s))) & 0xFFFFFFFF


def lin(w):
    return w ^ rol32(w, 2) ^ rol32(w, 10) ^ rol32(w, 18) ^ rol32(w, 24)


# N[k]: output byte j of L as a function of input byte j-k (independent
# of j because L commutes with rotations by whole bytes).
N = [mat_from_fn(lambda x, k=k: (lin(x) >> (8 * k)) & 0xFF) for k in range(4)]
G = [mat_mul(M1, mat_mul(N[k], M2)) for k in range(4)]
E = 0
for k in range(4):
    E ^= mat_apply(M1, mat_apply(N[k], C))


def m1w(w):
    return sum(mat_apply(M1, (w >> (8 * b)) & 0xFF) << (8 * b)
               for b in range(4))


def m1iw(w):
    return sum(mat_apply(M1_INV, (w >> (8 * b)) & 0xFF) << (8 * b)
               for b in range(4))


def expand_key(key):
    fk = [0xA3B1BAC6, 0x56AA3350, 0x677D9197, 0xB27022DC]
    ck = [int.from_bytes(bytes(((4 * i + j) * 7) & 0xFF for j in range(4)),
                         "big") for i in range(32)]
    k = [int.from_bytes(key[4 * i:4 * i + 4], "big") ^ fk[i]
         for i in range(4)]
    rk = []
    for i in range(32):
        t = k[i + 1] ^ k[i + 2] ^ k[i + 3] ^ ck[i]
        t = int.from_bytes(bytes(sbox(b) for b in t.to_bytes(4, "big")),
                           "big")
        t ^= rol32(t, 13) ^ rol32(t, 23)
        k.append(k[i] ^ t)
        rk.append(k[i + 4])
    return rk


def encrypt_m1_domain(rk, block):
    """SM4 as the assembly computes it (big-endian word values here)."""
    u = [m1w(int.from_bytes(block[4 * i:4 * i + 4], "big"))
         for i in range(4)]
    rkt = [m1w(r) ^ (C1 * 0x01010101) for r in rk]
    for i in range(32):
        t = u[i + 1] ^ u[i + 2] ^ u[i + 3] ^ rkt[i]
        f = 0
        for k in range(4):
            p = sum(mat_apply(G[k], ginv((t >> (8 * b)) & 0xFF, P_AES))
                    << (8 * b) for b in range(4))
            if k == 0:
                p ^= E * 0x01010101
            f ^= rol32(p, 8 * k) if k else p
        u.append(u[i] ^ f)
    return b"".join(m1iw(u[35 - i]).to_bytes(4, "big") for i in range(4))


def encrypt_byte_sliced(rk, block):
    """SM4 as __sm4_gfni_blk64 computes it, on one block.

    Bytes are indexed in memory order (byte 0 is the most significant
    byte of a big-endian word), so rotating a word left by 8k bits moves
    byte j + k to byte j.  The state is updated through the S-box input
    u alone: u' = u ^ U0 ^ U1 ^ F ^ KK, KK = RK'(i) ^ RK'(i+1), and
    U4 = U0 ^ u' ^ (u ^ U0 ^ U1 ^ KK).
    """
    def bytes_of(w):
        return [(w >> (24 - 8 * j)) & 0xFF for j in range(4)]

    def m1(b):
        return mat_apply(M1, b)

    st = [[m1(b) for b in block[4 * i:4 * i + 4]] for i in range(4)]
    rkt = [[m1(b) ^ C1 for b in bytes_of(r)] for r in rk]
    kk = [rkt[0]] + [[a ^ b for a, b in zip(rkt[i], rkt[i + 1])]
                     for i in range(31)]
    u = [st[1][j] ^ st[2][j] ^ st[3][j] ^ kk[0][j] for j in range(4)]
    for i in range(32):
        inv = [ginv(b, P_AES) for b in u]
        p = [[mat_apply(G[k], inv[j]) ^ (E if k == 0 else 0)
              for j in range(4)] for k in range(4)]
        f = [p[0][j] ^ p[1][(j + 1) % 4] ^ p[2][(j + 2) % 4] ^
             p[3][(j + 3) % 4] for j in range(4)]
        u0, u1 = st[i % 4], st[(i + 1) % 4]
        if i < 31:
            uw = [u[j] ^ u0[j] ^ u1[j] ^ kk[i + 1][j] for j in range(4)]
            u = [f[j] ^ uw[j] for j in range(4)]
            st[i % 4] = [u0[j] ^ u[j] ^ uw[j] for j in range(4)]
        else:
            st[i % 4] = [u0[j] ^ f[j] for j in range(4)]
    # X35, X34, X33, X32 sit in words 3, 2, 1, 0 of st.
    return bytes(mat_apply(M1_INV, b) for w in (3, 2, 1, 0) for b in st[w])


def bs_transpose_order():
    """Which block each byte of a byte-sliced register holds.

    __sm4_gfni_blk64 loads 64 blocks as they are in memory (register i,
    128-bit lane l: block 4i + l) and transposes them with four levels
    of byte unpacks, pairing registers i and i + 8 into 2i and 2i + 1
    (BS_LEVEL).  Simulated here on (block, byte) labels: afterwards
    register c holds byte c of every block, and byte position p of
    every register holds the same block, order[p].  A CTR batch can
    then make its counters directly in that form (block k = counter +
    order[p]) instead of transposing counter blocks.  Also checks that
    the same network, run again, transposes back (the output side).
    """
    def unpack(s, t, hi):
        out = []
        for lane in range(4):
            a, b = s[16 * lane:16 * lane + 16], t[16 * lane:16 * lane + 16]
            for m in range(8):
                out += [a[8 * hi + m], b[8 * hi + m]]
        return out

    def level(regs):
        new = [None] * 16
        for i in range(8):
            new[2 * i] = unpack(regs[i], regs[i + 8], 0)
            new[2 * i + 1] = unpack(regs[i], regs[i + 8], 1)
        return new

    regs = [[(4 * i + p // 16, p % 16) for p in range(64)] for i in range(16)]
    start = regs
    for _ in range(4):
        regs = level(regs)
    order = [regs[0][p][0] for p in range(64)]
    for c in range(16):
        assert regs[c] == [(order[p], c) for p in range(64)]
    assert sorted(order) == list(range(64))
    back = regs
    for _ in range(4):
        back = level(back)
    assert back == start
    return order


BS_ORDER = bs_transpose_order()


KEY = bytes.fromhex("0123456789abcdeffedcba9876543210")
assert encrypt_m1_domain(expand_key(KEY), KEY).hex() == \
    "681edf34d206965e86b3e94f536e4246"
assert encrypt_byte_sliced(expand_key(KEY), KEY).hex() == \
    "681edf34d206965e86b3e94f536e4246"

# The assembly uses G1 for the rotations by 8 and 16 alike.
assert G[2] == G[1]
print("/* generated by tools/gen-sm4-gfni-consts.py */")
for name, m in [("M1", M1), ("M1_INV", M1_INV), ("G0", G[0]), ("G1", G[1]),
                ("G3", G[3])]:
    print("#define SM4_GFNI_%s\t0x%016x" % (name, gfni_qword(m)))
print("#define SM4_GFNI_C1\t0x%02x" % C1)
print("#define SM4_GFNI_E\t0x%02x" % E)
print("#define SM4_GFNI_M2\t0x%016x" % gfni_qword(M2))
print("#define SM4_GFNI_C\t0x%02x" % C)
# The order in closed form, as the header states it.
assert BS_ORDER == [4 * (p & 15) + (p >> 4) for p in range(64)]
print("#define SM4_GFNI_BS_BLOCK(p)\t(4 * ((p) & 15) + ((p) >> 4))")
