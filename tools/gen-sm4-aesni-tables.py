#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive the constants of arch/x86/sm4-aesni-modes.S and check them.

Prints its tables, each under its label as that file has it (compared by
tools/check-generated.py); exits with an assertion error if any check
fails.

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

from sm4_gf import SM4_A_ROWS as SM4_ROWS, gmul, ginv

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
# The byte rotations of L give M*rol24-part = M + G = H0 ^ H8: the third
# table is the sum of the other two, constants included, so the round
# computes T24(z) as T0(z) ^ T8(z) and keeps no table for it.
assert all(T24[h][i] == T0[h][i] ^ T8[h][i] for h in (0, 1) for i in range(16))
# AESENCLAST's round key is the nibble mask KEY (0x0f in every byte), the
# constant the round has in a register anyway: its output is z ^ KEY,
# whose low nibble is that of z complemented.  The low-nibble tables the
# round uses are indexed accordingly: lo'[i] = lo[i ^ 15].
KEY = 0x0F
def keyed(T): return ([T[0][i ^ KEY] for i in range(16)], T[1])
T0K, T8K = keyed(T0), keyed(T8)
for T, TK in ((T0, T0K), (T8, T8K)):
    for z in range(256):
        zk = z ^ KEY
        assert TK[0][zk & 15] ^ TK[1][zk >> 4] == T[0][z & 15] ^ T[1][z >> 4]
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

def aesenclast0(s, key=0):
    return [aessbox[s[sr[i]]] ^ key for i in range(16)]

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
        z = aesenclast0(x, KEY)
        a = lookup(T0K, z)
        b = lookup(T8K, z)
        c = xorv(a, b)
        w = xorv(xorv(W[0], pshufb(a, P[0])), pshufb(b, P[1]))
        w = xorv(w, xorv(pshufb(b, P[2]), pshufb(c, P[3])))
        W = W[1:] + [w]
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

# Round keys of the AESENCs.  F above includes the constant kappa; the
# next round input is t1' = F(t1) ^ P, P = the other three words, the
# round keys and kappa.  With k1, k2 added by the AESENCs (v1 ^= k1,
# v2 ^= k2), E11*v1 ^ E12*v2 picks up E11*k1 ^ E12*k2, so any "pair form"
# (k1, k2) of P will do, and the tables below are linear.  The pair form
# of the round input t_i is the previous AESENC output pair V_{i-1}, and
# that of a value d computed from key or input words is (Q*d, 0), Q =
# E11^-1.  See sm4x_sim() for the recurrences.
Q = mat_inv(E11)
QM = mat_mul(Q, M)
Minv_c = mat_apply(Minv, c)
Minv_kappa = mat_apply(Minv, kappa)
X11 = nib_tables(lambda b: mat_apply(E11, b))
X12 = nib_tables(lambda b: mat_apply(E12, b))
X21 = nib_tables(lambda b: mat_apply(SIG, mat_apply(E11, b)))
X22 = nib_tables(lambda b: mat_apply(SIG, mat_apply(E12, b)))
XQM = nib_tables(lambda b: mat_apply(QM, b))
# round 31 produces the plain word X35: M^-1 folded in
X11M = nib_tables(lambda b: mat_apply(Minv, mat_apply(E11, b)))
X12M = nib_tables(lambda b: mat_apply(Minv, mat_apply(E12, b)))
XRK2 = nib_tables(lambda b: mat_apply(SIG, mat_apply(M, b)), mat_apply(SIG, c))


def wctrl(words):
    """pshufb control: big-endian block words to native dwords (None: 0)."""
    return sum(([0x80] * 4 if w is None else [4 * w + 3 - p for p in range(4)]
                for w in words), [])


XBC = {j: wctrl([j] * 4) for j in range(4)}
XU = (wctrl([1, 0, 0, 1]), wctrl([2, 1, 1, 2]), wctrl([3, 2, None, None]))
XW = (wctrl([2, 1, None, None]), wctrl([3, 2, None, None]))
X35 = [3, 2, 1, 0] + [0x80] * 12
XCF = [c ^ kappa] * 4 + [c] * 4 + [c ^ kappa] * 4 + [c] * 4
# SM4X_ENTER: KU and KW from native round-key words (dword selects)
def dctrl(dws):
    return sum(([0x80] * 4 if d is None else [4 * d + p for p in range(4)]
                for d in dws), [])
XKU1 = dctrl([None, 3, 1, 2])
XKU2 = dctrl([None, 3, None, None])
XKUC = [Minv_c] * 8 + [Minv_kappa] * 8
XKW1 = dctrl([2, 0, 1, None])
XKW2 = dctrl([3, None, None, None])
XKWC = [Minv_kappa] * 4 + [0] * 4 + [Minv_c ^ Minv_kappa] * 4 + [0] * 4
# the fused CBC/CFB loop (SM4X_SERIAL): sigma*M, S1/S2 word selects, KS2
XSM = nib_tables(lambda b: mat_apply(SIG, mat_apply(M, b)))
XS2 = wctrl([2, 2, 1, 2])
XS3 = wctrl([3, 3, None, None])
XKS2A = dctrl([2, 0, None, None])
XKS2B = dctrl([None, 3, None, None])
XKS2C = [0] * 4 + [Minv_kappa] * 4 + [0] * 8


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
def bw(b): return b * 0x01010101
def dw(v, k): return v[4 * k:4 * k + 4]
def lanes(ws): return sum((wbytes(w) for w in ws), [])
def ev(y1, y2): return xorv(lookup(X11, y1), lookup(X12, y2))


def sm4x_keys(rk):
    """SM4X_ENTER: KK[0..31], KU, KW (native words); checks the vector
    construction of KU and KW."""
    rkx = list(rk) + [0] * 8
    qmw = lambda w: bmap(QM, w)
    kk = [0] + [qmw(rkx[j] ^ rkx[j + 1] ^ rkx[j + 4] ^ rkx[j + 5])
                for j in range(31)]
    # as sm4x_core_kk builds them: KK[j+1] = F_j ^ F_{j+1}, F = QM*E
    f = [qmw(rkx[j] ^ rkx[j + 4]) for j in range(33)]
    assert all(kk[j + 1] == f[j] ^ f[j + 1] for j in range(31))
    a = rk[0] ^ bw(Minv_c)
    e = [rk[j] ^ rk[j + 1] ^ bw(Minv_kappa) for j in range(3)]
    ku = [a, rk[0] ^ rk[3] ^ rk[4] ^ bw(Minv_c), e[0], e[1]]
    kw = [e[2], rk[0], a ^ e[0], 0]
    A, B = lanes(rk[0:4]), lanes(rk[1:5])
    vku = xorv(xorv(pshufb(A, dctrl([0, 0, 0, 1])), pshufb(A, XKU1)),
               xorv(pshufb(B, XKU2), XKUC))
    vkw = xorv(xorv(pshufb(A, XKW1), pshufb(A, XKW2)), XKWC)
    assert vku == lanes(ku) and vkw == lanes(kw)
    return kk, ku, kw


def sm4x_sim(rk, blk):
    """The sm4x core, register by register (pair values broadcast)."""
    kk, ku, kw = sm4x_keys(rk)
    zero = [0] * 16
    # set-up: round 0's inputs and keys, then the ring start values
    x0 = xorv(xorv(pshufb(blk, XBC[1]), pshufb(blk, XBC[2])),
              xorv(pshufb(blk, XBC[3]), bcast(kw[1])))
    kin = xorv(xorv(pshufb(blk, XBC[0]), pshufb(blk, XBC[2])),
               xorv(pshufb(blk, XBC[3]), bcast(kw[2])))
    t1, t2 = lookup(TRK, x0), lookup(XRK2, x0)
    k1, k2 = lookup(XQM, kin), zero
    u = lookup(XQM, xorv(xorv(pshufb(blk, XU[0]), pshufb(blk, XU[1])),
                         xorv(pshufb(blk, XU[2]), lanes(ku))))
    w = lookup(XQM, xorv(xorv(pshufb(blk, XW[0]), pshufb(blk, XW[1])),
                         lanes(kw)))
    V1 = {-1: dw(u, 0) * 4, -2: dw(u, 1) * 4}
    V2 = {-1: zero, -2: zero}
    Y1 = {0: dw(u, 2) * 4, 1: dw(u, 3) * 4, 2: dw(w, 0) * 4}
    Y2 = {0: zero, 1: zero, 2: zero}
    assert k1 == xorv(V1[-1], Y1[0])
    for i in range(31):
        v1, v2 = aesenc(t1, k1), aesenc(t2, k2)
        V1[i], V2[i] = v1, v2
        t1 = ev(v1, v2)
        t2 = xorv(lookup(X21, v1), lookup(X22, v2))
        k1, k2 = xorv(v1, Y1[i + 1]), xorv(v2, Y2[i + 1])
        Y1[i + 3] = xorv(xorv(v1, V1[i - 2]), xorv(Y1[i], bcast(kk[i])))
        Y2[i + 3] = xorv(xorv(v2, V2[i - 2]), Y2[i])
    # round 31: X35 (plain), the rest from the rings
    v1, v2 = aesenc(t1, k1), aesenc(t2, k2)
    x35 = pshufb(xorv(lookup(X11M, v1), lookup(X12M, v2)), X35)
    pre1 = xorv(xorv(V1[29], Y1[31]), bcast(kk[31]))
    pre2 = xorv(V2[29], Y2[31])
    def arr(Y, pre):
        return (dw(Y[33], 0) + dw(xorv(Y[33], pre), 1) + dw(pre, 2) +
                dw(xorv(Y[32], pre), 3))
    e = lookup(TMI, xorv(ev(arr(Y1, pre1), arr(Y2, pre2)), XCF))
    e = pshufb(e, [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12])
    return bytes(xorv(x35, e))

for trial in range(50):
    rk = [random.getrandbits(32) for _ in range(32)]
    blk = [random.getrandbits(8) for _ in range(16)]
    assert sm4x_sim(rk, blk) == sm4_ref(rk, blk), trial
print("sm4x simulation OK", file=sys.stderr)

# ---- The fused CBC/CFB encryption loop (SM4X_SERIAL) -----------------------

def sm4x_setup(blk, kk, ku, kw):
    """SM4X_SETUP: state dict of round 0 from a block (memory order)."""
    zero = [0] * 16
    x0 = xorv(xorv(pshufb(blk, XBC[1]), pshufb(blk, XBC[2])),
              xorv(pshufb(blk, XBC[3]), bcast(kw[1])))
    kin = xorv(xorv(pshufb(blk, XBC[0]), pshufb(blk, XBC[2])),
               xorv(pshufb(blk, XBC[3]), bcast(kw[2])))
    u = lookup(XQM, xorv(xorv(pshufb(blk, XU[0]), pshufb(blk, XU[1])),
                         xorv(pshufb(blk, XU[2]), lanes(ku))))
    w = lookup(XQM, xorv(xorv(pshufb(blk, XW[0]), pshufb(blk, XW[1])),
                         lanes(kw)))
    return dict(t1=lookup(TRK, x0), t2=lookup(XRK2, x0),
                k1=lookup(XQM, kin), k2=zero,
                V1={-1: dw(u, 0) * 4, -2: dw(u, 1) * 4},
                V2={-1: zero, -2: zero},
                Y1={0: dw(u, 2) * 4, 1: dw(u, 3) * 4, 2: dw(w, 0) * 4},
                Y2={0: zero, 1: zero, 2: zero})


def sm4x_rounds(st, kk):
    """SM4X_RND_0_27 and SM4X_RND_28_30: rounds 0-30 on a state dict."""
    V1, V2, Y1, Y2 = st["V1"], st["V2"], st["Y1"], st["Y2"]
    t1, t2, k1, k2 = st["t1"], st["t2"], st["k1"], st["k2"]
    for i in range(31):
        v1, v2 = aesenc(t1, k1), aesenc(t2, k2)
        V1[i], V2[i] = v1, v2
        t1 = ev(v1, v2)
        t2 = xorv(lookup(X21, v1), lookup(X22, v2))
        k1, k2 = xorv(v1, Y1[i + 1]), xorv(v2, Y2[i + 1])
        Y1[i + 3] = xorv(xorv(v1, V1[i - 2]), xorv(Y1[i], bcast(kk[i])))
        Y2[i + 3] = xorv(xorv(v2, V2[i - 2]), Y2[i])
    st.update(t1=t1, t2=t2, k1=k1, k2=k2)


def sm4x_last(st, kk):
    """SM4X_LAST: round 31 and the output; also returns V_31 and pre."""
    V1, V2, Y1, Y2 = st["V1"], st["V2"], st["Y1"], st["Y2"]
    v1, v2 = aesenc(st["t1"], st["k1"]), aesenc(st["t2"], st["k2"])
    x35 = pshufb(xorv(lookup(X11M, v1), lookup(X12M, v2)), X35)
    pre1 = xorv(xorv(V1[29], Y1[31]), bcast(kk[31]))
    pre2 = xorv(V2[29], Y2[31])
    def arr(Y, pre):
        return (dw(Y[33], 0) + dw(xorv(Y[33], pre), 1) + dw(pre, 2) +
                dw(xorv(Y[32], pre), 3))
    e = lookup(TMI, xorv(ev(arr(Y1, pre1), arr(Y2, pre2)), XCF))
    e = pshufb(e, [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12])
    return xorv(x35, e), v1, v2, pre1, pre2


def sm4x_serial_keys(rk):
    """SM4X_SERIAL_KEYS: KS1, KS2 as the vector code builds them."""
    a, dd = lanes(rk[0:4]), xorv(lanes(rk[0:4]), lanes(rk[1:5]))
    ks1 = xorv(a, bcast(rk[31]))[:8] + pshufb(dd, dctrl([0, 0, 0, 1]))[8:]
    ks2 = xorv(xorv(pshufb(dd, XKS2A), pshufb(dd, XKS2B)), XKS2C)
    K = lambda m: rk[m - 1] ^ rk[m]
    assert ks1 == lanes([rk[0] ^ rk[31], rk[1] ^ rk[31], K(1), K(2)])
    assert ks2 == lanes([K(3), K(1) ^ K(4) ^ bw(Minv_kappa), 0, 0])
    return ks1, ks2


def sm4x_serial_next(st, kk, dblk, ks1, ks2):
    """SM4X_SERIAL_PREP + SM4X_SERIAL_NEXT: output of this block and the
    state of the next one, whose cipher input is dblk ^ this output."""
    V1, V2, Y1, Y2 = st["V1"], st["V2"], st["Y1"], st["Y2"]
    gb = xorv(xorv(pshufb(dblk, XBC[1]), pshufb(dblk, XBC[2])),
              xorv(pshufb(dblk, XBC[3]), dw(ks1, 0) * 4))
    tmg, smg = lookup(TM, gb), lookup(XSM, gb)
    q1 = lookup(XQM, xorv(xorv(pshufb(dblk, XU[0]), pshufb(dblk, XS2)),
                          xorv(pshufb(dblk, XS3), ks1)))
    q2 = lookup(XQM, xorv(xorv(pshufb(dblk, XW[0]), pshufb(dblk, XS3)),
                          ks2))
    Q = lambda q, i: dw(q, i) * 4
    out, v1, v2, pre1, pre2 = sm4x_last(st, kk)
    zero = [0] * 16
    n = dict(t1=xorv(st["t1"], tmg), t2=xorv(st["t2"], smg),
             k1=xorv(xorv(v1, V1[30]), xorv(pre1, Q(q1, 1))),
             k2=xorv(xorv(v2, V2[30]), pre2))
    y0 = (xorv(xorv(Q(q1, 2), v1), pre1), xorv(v2, pre2))
    vm1 = (xorv(V1[30], Q(q1, 0)), V2[30])
    n["V1"] = {-1: vm1[0], -2: xorv(xorv(xorv(vm1[0], Q(q2, 1)),
                                        xorv(Y1[32], Y1[33])), y0[0])}
    n["V2"] = {-1: vm1[1], -2: xorv(xorv(vm1[1], xorv(Y2[32], Y2[33])),
                                    y0[1])}
    n["Y1"] = {0: y0[0], 1: xorv(Q(q1, 3), Y1[33]), 2: xorv(Q(q2, 0), Y1[32])}
    n["Y2"] = {0: y0[1], 1: Y2[33], 2: Y2[32]}
    return out, n


def sm4x_serial_sim(rk, iv, data, cbc):
    kk, ku, kw = sm4x_keys(rk)
    ks1, ks2 = sm4x_serial_keys(rk)
    p = [list(data[16 * i:16 * i + 16]) for i in range(len(data) // 16)]
    st = sm4x_setup(xorv(list(iv), p[0]) if cbc else list(iv), kk, ku, kw)
    out = b""
    for i in range(len(p)):
        sm4x_rounds(st, kk)
        if i + 1 < len(p):
            e, st = sm4x_serial_next(st, kk, p[i + 1] if cbc else p[i],
                                     ks1, ks2)
        else:
            e = sm4x_last(st, kk)[0]
        out += bytes(e if cbc else xorv(e, p[i]))
    return out


for trial in range(6):
    rk = [random.getrandbits(32) for _ in range(32)]
    iv = bytes(random.getrandbits(8) for _ in range(16))
    data = bytes(random.getrandbits(8) for _ in range(64))
    for cbc in (True, False):
        prev, want = iv, b""
        for i in range(4):
            blk = data[16 * i:16 * i + 16]
            if cbc:
                c = sm4_ref(rk, [a ^ b for a, b in zip(prev, blk)])
            else:
                c = bytes(a ^ b for a, b in zip(sm4_ref(rk, list(prev)), blk))
            want, prev = want + c, c
        assert sm4x_serial_sim(rk, iv, data, cbc) == want, (trial, cbc)
print("sm4x fused CBC/CFB simulation OK", file=sys.stderr)

NAMES = (("t0", T0K), ("t8", T8K), ("tm", TM), ("tmi", TMI), ("trk", TRK))
XNAMES = (("rk2", XRK2), ("t11", X11), ("t12", X12), ("t21", X21),
          ("t22", X22), ("qm", XQM), ("t11m", X11M), ("t12m", X12M))


def fmt(label, v):
    """One 16-byte constant, repeated for both lanes of a ymm register."""
    print(".Lsm4_%s:\n\t.rept 2" % label)
    for half in (v[:8], v[8:]):
        print("\t.byte " + ", ".join("0x%02x" % x for x in half))
    print("\t.endr")


def fmtx(label, v, prefix="sm4x"):
    """One 16-byte constant of the sm4x code (xmm only)."""
    print(".L%s_%s:" % (prefix, label))
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
fmtx("x35", X35)
for j in range(4):
    fmtx("bc%d" % j, XBC[j])
for j in range(3):
    fmtx("u%d" % (j + 1), XU[j])
for j in range(2):
    fmtx("w%d" % (j + 1), XW[j])
fmtx("cf", XCF)
for name, v in (("ku1", XKU1), ("ku2", XKU2), ("kuc", XKUC), ("kw1", XKW1),
                ("kw2", XKW2), ("kwc", XKWC)):
    fmtx(name, v)
fmtx("sm_lo", XSM[0])
fmtx("sm_hi", XSM[1])
for name, v in (("s2", XS2), ("s3", XS3), ("ks2a", XKS2A), ("ks2b", XKS2B),
                ("ks2c", XKS2C)):
    fmtx(name, v)
# The S-box alone (the key expansion): post() by nibbles, d in the low one.
POST = ([post(i) for i in range(16)],
        [post(i << 4) ^ post(0) for i in range(16)])
for z in range(256):
    assert POST[0][z & 15] ^ POST[1][z >> 4] == post(z)
fmtx("post_lo", POST[0], "sm4")
fmtx("post_hi", POST[1], "sm4")
