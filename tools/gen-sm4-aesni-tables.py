#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive the constants of arch/x86/sm4-aesni-modes.S and check them.

Prints the table section of that header (between its "Constants" line
and .Lsm4_mask_0f); exits with an assertion error if any check fails.

Model (all byte-wise over GF(2)):
  SM4 S(x) = A*Is(A*x + C) + C, Is = inverse mod 0x1f5.
  AES SB(y) = Aa*Ia(y) + 0x63, Ia = inverse mod 0x11b.
  phi: field isomorphism GF(2^8)/0x1f5 -> GF(2^8)/0x11b (linear).
  S(x) = post(SB(pre(x))) with pre(x) = M*x + c, M = phi*A, c = phi*C,
  post(z) = N*z + d, N = A*phi^-1*Aa^-1, d = N*0x63 + C.
The state words are kept as M*W ("M-domain") so that the round input is
directly pre(x); the round output contribution M*L(S) is a sum of byte
rotations of three byte-wise affine functions of the AES output z.
"""
import random, sys

SM4_ROWS = ["11100101", "11110010", "01111001", "10111100",
            "01011110", "00101111", "10010111", "11001011"]

def gmul(a, b, poly):
    r = 0
    while b:
        if b & 1: r ^= a
        b >>= 1; a <<= 1
        if a & 0x100: a ^= poly
    return r

def ginv(a, poly):
    return 0 if a == 0 else next(b for b in range(1, 256) if gmul(a, b, poly) == 1)

# 8x8 matrices as list of column images: mat[i] = image of bit i
def mat_apply(m, x):
    y = 0
    for i in range(8):
        if (x >> i) & 1: y ^= m[i]
    return y
def mat_from_fn(f): return [f(1 << i) for i in range(8)]
def mat_mul(a, b): return [mat_apply(a, b[i]) for i in range(8)]
def mat_inv(m):
    table = {mat_apply(m, x): x for x in range(256)}
    assert len(table) == 256
    return mat_from_fn(lambda y: table[y])

def sm4_A(x):
    bits = [(x >> i) & 1 for i in range(8)]
    y = 0
    for i, row in enumerate(SM4_ROWS):
        y |= (sum(int(c) * b for c, b in zip(row, bits)) & 1) << i
    return y
A = mat_from_fn(sm4_A)
C = 0xD3
sm4sbox = [mat_apply(A, ginv(mat_apply(A, x) ^ C, 0x1F5)) ^ C for x in range(256)]

def aes_aff(x):
    y = 0
    for i in range(8):
        b = ((x >> i) ^ (x >> ((i + 4) % 8)) ^ (x >> ((i + 5) % 8)) ^
             (x >> ((i + 6) % 8)) ^ (x >> ((i + 7) % 8))) & 1
        y |= b << i
    return y
Aa = mat_from_fn(aes_aff)
aessbox = [mat_apply(Aa, ginv(x, 0x11B)) ^ 0x63 for x in range(256)]
assert aessbox[0] == 0x63 and aessbox[1] == 0x7c and aessbox[0x53] == 0xed

# root of the SM4 polynomial in the AES field
def sm4poly_at(r):
    acc = 0
    for e in (8, 7, 6, 5, 4, 2, 0):
        p = 1
        for _ in range(e): p = gmul(p, r, 0x11B)
        acc ^= p
    return acc
root = next(r for r in range(2, 256) if sm4poly_at(r) == 0)
pw = [1]
for i in range(7): pw.append(gmul(pw[-1], root, 0x11B))
phi = pw[:]                        # bit i (x^i) -> root^i
phiinv = mat_inv(phi)
for a in range(256):
    assert mat_apply(phi, ginv(a, 0x1F5)) == ginv(mat_apply(phi, a), 0x11B)

M = mat_mul(phi, A)
c = mat_apply(phi, C)
N = mat_mul(A, mat_mul(phiinv, mat_inv(Aa)))
d = mat_apply(N, 0x63) ^ C
pre = lambda x: mat_apply(M, x) ^ c
post = lambda z: mat_apply(N, z) ^ d
for x in range(256):
    assert post(aessbox[pre(x)]) == sm4sbox[x]

Minv = mat_inv(M)
F = lambda b: mat_apply(M, (b << 2) & 0xff)
G = lambda b: mat_apply(M, b >> 6)
H0 = lambda s: mat_apply(M, s) ^ F(s)
H8 = lambda s: F(s) ^ G(s)
H24 = lambda s: mat_apply(M, s) ^ G(s)

def nib_tables(f, const=0):
    lo = [f(i) ^ const for i in range(16)]
    hi = [f(i << 4) for i in range(16)]
    return lo, hi

# tables on the AES output z (affine: constants live in the lo table)
T0 = ([H0(post(i)) for i in range(16)], [H0(post(i << 4)) ^ H0(post(0)) for i in range(16)])
T8 = ([H8(post(i)) for i in range(16)], [H8(post(i << 4)) ^ H8(post(0)) for i in range(16)])
T24 = ([H24(post(i)) for i in range(16)], [H24(post(i << 4)) ^ H24(post(0)) for i in range(16)])
for T, H in ((T0, H0), (T8, H8), (T24, H24)):
    for z in range(256):
        assert T[0][z & 15] ^ T[1][z >> 4] == H(post(z))
TM = nib_tables(lambda b: mat_apply(M, b))
TMI = nib_tables(lambda b: mat_apply(Minv, b))
TRK = nib_tables(lambda b: mat_apply(M, b), c)

# byte positions. AES state byte i = 4*col + row; ShiftRows: out[i] = in[sr[i]]
sr = [4 * (((i >> 2) + (i & 3)) % 4) + (i & 3) for i in range(16)]
srinv = [0] * 16
for i in range(16): srinv[sr[i]] = i
# State dwords hold SM4 words big-endian (memory order): byte p of a dword
# is value byte 3-p.  rol by 8k (value) : out[4c+p] = in[4c+(p+k)%4].
def perm_ctrl(k):
    return [srinv[4 * (j >> 2) + ((j & 3) + k) % 4] for j in range(16)]
P = {k: perm_ctrl(k) for k in (0, 1, 2, 3)}

def pshufb(tbl, idx):
    return [0 if i & 0x80 else tbl[i & 15] for i in idx]

def aesenclast0(s):
    return [aessbox[s[sr[i]]] for i in range(16)]

# ---- simulate: 4 blocks in transposed BE layout -------------------------
def sm4_ref(rk, blk):
    x = [int.from_bytes(bytes(blk[4 * i:4 * i + 4]), "big") for i in range(4)]
    def rol(v, s): return ((v << s) | (v >> (32 - s))) & 0xffffffff
    for i in range(32):
        t = x[1] ^ x[2] ^ x[3] ^ rk[i]
        b = int.from_bytes(bytes(sm4sbox[v] for v in t.to_bytes(4, "big")), "big")
        x = x[1:] + [x[0] ^ b ^ rol(b, 2) ^ rol(b, 10) ^ rol(b, 18) ^ rol(b, 24)]
    return b"".join(v.to_bytes(4, "big") for v in reversed(x))

def lookup(T, v):
    lo = [b & 15 for b in v]
    hi = [(b >> 4) & 15 for b in v]
    return [a ^ b for a, b in zip(pshufb(T[0], lo), pshufb(T[1], hi))]

def xorv(a, b): return [x ^ y for x, y in zip(a, b)]

def sm4_sim(rk, blocks):
    # W[j] = 16 bytes: dword b = word j of block b, big-endian bytes
    W = [sum((blocks[b][4 * j:4 * j + 4] for b in range(4)), []) for j in range(4)]
    W = [lookup(TM, w) for w in W]
    for i in range(32):
        rkb = list(rk[i].to_bytes(4, "big")) * 4
        rkp = lookup(TRK, rkb)
        x = xorv(xorv(xorv(W[1], W[2]), W[3]), rkp)
        z = aesenclast0(x)
        a = pshufb(lookup(T0, z), P[0])
        b8 = lookup(T8, z)
        b = xorv(pshufb(b8, P[1]), pshufb(b8, P[2]))
        e = pshufb(lookup(T24, z), P[3])
        W = W[1:] + [xorv(W[0], xorv(xorv(a, b), e))]
    W = [lookup(TMI, w) for w in W]
    return [bytes(sum((W[3 - j][4 * b:4 * b + 4] for j in range(4)), [])) for b in range(4)]

random.seed(1)
for trial in range(20):
    rk = [random.getrandbits(32) for _ in range(32)]
    blocks = [[random.getrandbits(8) for _ in range(16)] for _ in range(4)]
    got = sm4_sim(rk, blocks)
    for b in range(4):
        assert got[b] == sm4_ref(rk, blocks[b]), trial
print("simulation OK", file=sys.stderr)

# ---- The one-word construction (sm4x_*: 1 block per call) ---------------
#
# With the state word broadcast to all four dwords of an xmm register
# (row r of every AES column = bits 8r..8r+7 of the word), ShiftRows is
# the identity and MixColumns mixes the four bytes of the word.  M*L(post)
# is byte-circulant: writing F_r = sum_k C[k] z_{r+k} (z = SubBytes
# output, rows mod 4), C[2] == C[3] and C[1] == C[0] ^ C[2], which is the
# shape of MixColumns' (2, 3, 1, 1).  One AESENC output is not enough
# (C[0] != E*2*E^-1*C[2] for every usable domain), two are: the second
# AESENC runs on the bytes squared in the AES field (sigma, GF(2)-linear),
# whose S-box output is an affine image R of the first.  Then
#	F = E11*v1 ^ E12*v2 ^ kappa,  v1 = MC(z), v2 = MC(R z ^ Rc)
# for byte-wise E11, E12 solved below, and the domain-2 word is sigma(F).

def mat_add(a, b): return [x ^ y for x, y in zip(a, b)]
def xtime(a): return gmul(a, 2, 0x11B)
XM = lambda k: mat_from_fn(lambda b: gmul(b, k, 0x11B))
X2m, X3m, I8 = XM(2), XM(3), XM(1)
aesinv = [0] * 256
for i, s_ in enumerate(aessbox): aesinv[s_] = i

def rol32(v, s): return ((v << s) | (v >> (32 - s))) & 0xffffffff
def Lw(b): return b ^ rol32(b, 2) ^ rol32(b, 10) ^ rol32(b, 18) ^ rol32(b, 24)
def wbytes(w): return [(w >> (8 * r)) & 0xff for r in range(4)]
def wword(bs): return sum(b << (8 * r) for r, b in enumerate(bs))
def bmap(m, w): return wword([mat_apply(m, b) for b in wbytes(w)])

def Fz(zs): return bmap(M, Lw(wword([post(z) for z in zs])))
F0 = Fz([0, 0, 0, 0])
def cblock(r, k):
    cols = []
    for i in range(8):
        zs = [0] * 4
        zs[(r + k) % 4] = 1 << i
        cols.append(wbytes(Fz(zs) ^ F0)[r])
    return cols
CB = [cblock(0, k) for k in range(4)]
for r in range(4):
    for k in range(4):
        assert cblock(r, k) == CB[k]
assert CB[2] == CB[3] and mat_add(CB[0], CB[2]) == CB[1]
assert F0 == (F0 & 0xff) * 0x01010101

SIG = mat_from_fn(lambda y: gmul(y, y, 0x11B))
Rc = aessbox[mat_apply(SIG, aesinv[0])]
RS = mat_from_fn(lambda z: aessbox[mat_apply(SIG, aesinv[z])] ^ Rc)
assert all(aessbox[mat_apply(SIG, aesinv[z])] == mat_apply(RS, z) ^ Rc
           for z in range(256))
E12 = mat_mul(mat_add(CB[0], mat_mul(CB[2], X2m)),
              mat_inv(mat_add(mat_mul(RS, X2m), mat_mul(X2m, RS))))
E11 = mat_add(CB[2], mat_mul(E12, RS))
for k, mc in enumerate((X2m, X3m, I8, I8)):
    assert mat_add(mat_mul(E11, mc), mat_mul(E12, mat_mul(mc, RS))) == CB[k]
kappa = (F0 & 0xff) ^ mat_apply(E12, Rc)

X11 = nib_tables(lambda b: mat_apply(E11, b), kappa)
X12 = nib_tables(lambda b: mat_apply(E12, b))
X21 = nib_tables(lambda b: mat_apply(SIG, mat_apply(E11, b)),
                 mat_apply(SIG, kappa))
X22 = nib_tables(lambda b: mat_apply(SIG, mat_apply(E12, b)))
XR2 = nib_tables(lambda b: mat_apply(SIG, mat_apply(M, b)))
XRK2 = nib_tables(lambda b: mat_apply(SIG, mat_apply(M, b)), mat_apply(SIG, c))
# pshufb controls: big-endian word j of a block, byte-swapped, in all dwords
XBC = {j: [4 * j + 3 - (i & 3) for i in range(16)] for j in range(4)}

def aesenc(st, k):
    st = [aessbox[st[sr[i]]] for i in range(16)]
    out = []
    for col in range(4):
        a = st[4 * col:4 * col + 4]
        for r in range(4):
            b1 = a[(r + 1) % 4]
            out.append(xtime(a[r]) ^ xtime(b1) ^ b1 ^ a[(r + 2) % 4] ^
                       a[(r + 3) % 4])
    return xorv(out, k)

def bcast(w): return wbytes(w) * 4

def sm4x_sim(rk, blk):
    """The sm4x core, register by register (x: broadcast words)."""
    xs = [lookup(TM, pshufb(blk, XBC[j])) for j in range(4)]
    x2s = [lookup(XR2, pshufb(blk, XBC[j])) for j in range(4)]
    ring1 = {j: xs[j] for j in range(4)}
    ring2 = {j: x2s[j] for j in range(4)}
    w = xorv(xorv(pshufb(blk, XBC[1]), pshufb(blk, XBC[2])),
             xorv(pshufb(blk, XBC[3]), bcast(rk[0])))
    t1, t2 = lookup(TRK, w), lookup(XRK2, w)
    zero = [0] * 16
    for i in range(32):
        v1, v2 = aesenc(t1, zero), aesenc(t2, zero)
        tree1 = xorv(xorv(lookup(X11, v1), lookup(X12, v2)), zero)
        if i == 31:
            x35 = xorv(ring1[31], tree1)
            break
        d = rk[i] ^ rk[i + 1]
        a1 = xorv(xorv(t1, ring1[i + 1]), bcast(bmap(M, d)))
        a2 = xorv(xorv(t2, ring2[i + 1]),
                  bcast(bmap(mat_mul(SIG, M), d)))
        t1 = xorv(xorv(a1, ring1[i]), tree1)
        t2 = xorv(xorv(a2, ring2[i]),
                  xorv(lookup(X21, v1), lookup(X22, v2)))
        ring1[i + 4], ring2[i + 4] = xorv(t1, a1), xorv(t2, a2)
    # lanes (X35, X34, X33, X32), back from the M-domain, big-endian
    r = x35[0:4] + ring1[34][4:8] + ring1[33][8:12] + ring1[32][12:16]
    r = lookup(TMI, r)
    return bytes(pshufb(r, [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8,
                            15, 14, 13, 12]))

for trial in range(20):
    rk = [random.getrandbits(32) for _ in range(32)]
    blk = [random.getrandbits(8) for _ in range(16)]
    assert sm4x_sim(rk, blk) == sm4_ref(rk, blk), trial
print("sm4x simulation OK", file=sys.stderr)

NAMES = (("t0", T0), ("t8", T8), ("t24", T24), ("tm", TM), ("tmi", TMI),
         ("trk", TRK))
XNAMES = (("t11", X11), ("t12", X12), ("t21", X21), ("t22", X22),
          ("r2", XR2), ("rk2", XRK2))


def fmt(label, v):
    """One 16-byte constant, repeated for both lanes of a ymm register."""
    print(".Lsm4_%s:\n\t.rept 2" % label)
    for half in (v[:8], v[8:]):
        print("\t.byte " + ", ".join("0x%02x" % x for x in half))
    print("\t.endr")


def fmtx(label, v):
    """One 16-byte constant of the sm4x code (xmm only)."""
    print(".Lsm4x_%s:" % label)
    for half in (v[:8], v[8:]):
        print("\t.byte " + ", ".join("0x%02x" % x for x in half))


for name, T in NAMES:
    fmt(name + "_lo", T[0])
    fmt(name + "_hi", T[1])
for k in range(4):
    fmt("p%d" % (8 * k), P[k])
for name, T in XNAMES:
    fmtx(name + "_lo", T[0])
    fmtx(name + "_hi", T[1])
for j in range(4):
    fmtx("bc%d" % j, XBC[j])
