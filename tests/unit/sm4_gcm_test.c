// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-gcm-test: gcm(sm4) and cts(cbc(sm4)) of every implementation of the
 * harness (the portable code and the SIMD backends' .S files) against
 * libgcrypt, through the same linear GCM code as the kernel glue
 * (crypto/sm4_gcm.c) and the same CTS code (crypto/sm4_modes.c).
 *
 *   sm4-gcm-test [--cases N] [--grid N] [--seed S] [--impl NAME]
 *                [--emulate-gfni] [--emulate-avx512] [--with-broken]
 *
 * gcm: every associated-data length 0..G with every text length 0..G
 * (--grid, default 64), the boundary lengths around 2^k up to 4096 for
 * both (those up to 4 * G with a smaller grid), and N random
 * pairs up to 4096 bytes; each case encrypts with random pieces (AAD cut
 * anywhere, text cut at random block boundaries), in place or not,
 * sometimes hashing the AAD with the portable GHASH and the text with the
 * backend (the two must continue each other), compares ciphertext and a
 * tag of random accepted length with libgcrypt, then decrypts the way the
 * glue does (GHASH over the ciphertext, tag check, CTR) and checks that
 * a flipped bit of AAD, ciphertext or tag is rejected.
 * cts: every length 16..560 and N random lengths up to 4096, both
 * directions, in place or not, against libgcrypt's CBC with
 * GCRY_CIPHER_CBC_CTS (the same CS3 swap as crypto/cts.c), and the IV
 * each direction leaves against the one crypto/cts.c leaves in req->iv.
 * gcm-guard: the backend's init, ghash and enc on every block count 1..80
 * with the table, src and dst each right after and right before an
 * inaccessible page (an access outside them faults), against the
 * portable GHASH and CTR.
 * gcm-dstread (x86-64, natively run backends): enc out of place on
 * block counts 1..320 (each batch size's edges, pipelined ones
 * included) with dst unreadable: every store into it is let through
 * and single-stepped, every load from it counted.  The fused CTR+GHASH
 * must hash the ciphertext it wrote, never what dst holds afterwards
 * (include/sm4/gcm.h: another user of those pages could change it in
 * between, and get a tag over ciphertext of its choosing).
 * --with-broken adds "broken": the portable code with one bit of the
 * GHASH accumulator flipped after every multi-block call and one bit of
 * CBC output flipped, which both suites must fail.
 * Ends with "N passed, N failed".
 */

#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sm4/compat.h>
#include <sm4/modes.h>
#include <sm4/gcm.h>
#include <gcrypt.h>
#include "calls.h"
#include "impl.h"
#if defined(__x86_64__)
#include "evex_emu.h"
#include "gfni_emu.h"
#endif

int sm4_shim_init_sm4_lib_init(void);

static unsigned int n_passed, n_failed;
static unsigned long n_cases = 1000;
static unsigned int grid = 64;
static uint64_t rng_state = 0x6a09e667f3bcc909ULL;
static const char *only_impl;

static struct sm4_test_impl generic_impl = {
	.name = "generic",
	.ops = &sm4_generic_mode_ops,
	.gcm = &sm4_gcm_generic_ops,
};
SM4_TEST_IMPL(generic_impl);

/* --with-broken: wrong GHASH on multi-block calls, wrong CBC output. */
static void broken_ghash(struct sm4_ghash *gh, const u8 *src,
			 unsigned int nblocks)
{
	sm4_gcm_generic_ops.ghash(gh, src, nblocks);
	if (nblocks > 1)
		gh->acc[5] ^= 0x10;
}

static void broken_cbc_enc(const u32 *rk, u8 *dst, const u8 *src,
			   unsigned int nblocks, u8 *iv)
{
	sm4_generic_mode_ops.cbc_enc(rk, dst, src, nblocks, iv);
	dst[3] ^= 0x02;
}

static const struct sm4_gcm_ops broken_gcm_ops = {
	.ghash	= broken_ghash,
};
static struct sm4_mode_ops broken_ops;
static struct sm4_test_impl broken_impl = {
	.name = "broken",
	.ops = &broken_ops,
	.gcm = &broken_gcm_ops,
};

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void rnd_fill(u8 *p, size_t n)
{
	while (n--)
		*p++ = (u8)rnd();
}

#define MAX_LEN		4096

struct gcm_case {
	u8 key[SM4_KEY_SIZE], iv[SM4_GCM_IV_SIZE];
	u8 aad[MAX_LEN], pt[MAX_LEN];
	unsigned int alen, tlen, authsize;
	/* libgcrypt's results */
	u8 ct[MAX_LEN], tag[16];
};

static void gcry_check(gcry_error_t e, const char *what)
{
	if (e) {
		fprintf(stderr, "libgcrypt %s: %s\n", what, gcry_strerror(e));
		exit(2);
	}
}

static void gcry_gcm(struct gcm_case *c)
{
	gcry_cipher_hd_t h;

	gcry_check(gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_GCM,
				    0), "open gcm");
	gcry_check(gcry_cipher_setkey(h, c->key, SM4_KEY_SIZE), "setkey");
	gcry_check(gcry_cipher_setiv(h, c->iv, SM4_GCM_IV_SIZE), "setiv");
	gcry_check(gcry_cipher_authenticate(h, c->aad, c->alen), "aad");
	gcry_check(gcry_cipher_final(h), "final");
	gcry_check(gcry_cipher_encrypt(h, c->ct, c->tlen, c->pt, c->tlen),
		   "encrypt");
	gcry_check(gcry_cipher_gettag(h, c->tag, 16), "gettag");
	gcry_cipher_close(h);
}

/* A key set up as the glue's setkey does. */
struct gcm_key {
	struct sm4_ctx ctx;
	u8 h[SM4_BLOCK_SIZE];
	u8 table_space[SM4_GCM_TABLE_SIZE + 16];
	u8 *table;
};

static void gcm_setkey(const struct sm4_test_impl *impl, struct gcm_key *k,
		       const u8 *key)
{
	if (impl->expandkey)
		impl->expandkey(&k->ctx, key, SM4_KEY_SIZE);
	else
		sm4_expandkey(&k->ctx, key, SM4_KEY_SIZE);
	/* H with the implementation's own ecb, as the glue's setkey. */
	sm4_gcm_hash_subkey(impl->ops, k->ctx.rkey_enc, k->h);
	/* No alignment is promised: use a random offset. */
	k->table = k->table_space + rnd() % 16;
	if (impl->gcm->init)
		impl->gcm->init(k->table, k->h);
	else
		k->table = k->h;
}

/* Cut @len into pieces at random points; multiples of @unit but the last. */
static unsigned int cut(unsigned int len, unsigned int unit,
			unsigned int *pieces)
{
	unsigned int n = 0, at = 0;
	unsigned int want = rnd() % 4;

	while (want-- && len - at > unit) {
		unsigned int step = (rnd() % (len - at)) / unit * unit;

		if (!step)
			continue;
		pieces[n++] = step;
		at += step;
	}
	pieces[n++] = len - at;
	return n;
}

static void hash_stream(const struct sm4_gcm_ops *gops, struct sm4_ghash *gh,
			const u8 *p, unsigned int len)
{
	unsigned int pieces[8], n = cut(len, 1, pieces), i;

	for (i = 0; i < n; i++) {
		sm4_ghash_update(gops, gh, p, pieces[i]);
		p += pieces[i];
	}
	sm4_ghash_pad(gops, gh);
}

/* Count a suite's result: its PASS or FAIL. */
/* A FAIL if anything was wrong, or if nothing was checked (@cases 0). */
static const char *verdict(unsigned long bad, unsigned long cases)
{
	if (bad || !cases) {
		n_failed++;
		return "FAIL";
	}
	n_passed++;
	return "PASS";
}

/* Details of the first few failures only. */
static unsigned int n_details;

static bool detail(void)
{
	return n_details++ < 5;
}

static void dump(const char *what, const u8 *p, unsigned int len)
{
	unsigned int i;

	fprintf(stderr, "  %s:", what);
	for (i = 0; i < len && i < 48; i++)
		fprintf(stderr, "%02x", p[i]);
	fprintf(stderr, "%s\n", len > 48 ? "..." : "");
}

/* Decrypt as the glue does; 0 on success, -1 if the tag is rejected. */
static int gcm_decrypt(const struct sm4_test_impl *impl,
		       const struct gcm_key *k, const u8 *iv, const u8 *aad,
		       unsigned int alen, const u8 *ct, unsigned int tlen,
		       const u8 *tag, unsigned int authsize, u8 *dst)
{
	unsigned int pieces[8], n, i, off = 0;
	struct sm4_gcm_ctr c;
	struct sm4_ghash gh;
	u8 mytag[16];

	sm4_gcm_ctr_start(impl->ops, impl->gcm, k->ctx.rkey_enc, iv, tlen, &c);
	sm4_ghash_start(&gh, k->table);
	hash_stream(impl->gcm, &gh, aad, alen);
	hash_stream(impl->gcm, &gh, ct, tlen);
	sm4_gcm_tag(impl->gcm, &gh, &c, alen, tlen, mytag);
	if (memcmp(mytag, tag, authsize))
		return -1;
	n = cut(tlen, SM4_BLOCK_SIZE, pieces);
	for (i = 0; i < n; i++) {
		sm4_gcm_decrypt_piece(impl->ops, k->ctx.rkey_enc, &c, dst + off,
				      ct + off, pieces[i]);
		off += pieces[i];
	}
	return 0;
}

static const unsigned int authsizes[] = { 4, 8, 12, 13, 14, 15, 16 };

static bool gcm_one(const struct sm4_test_impl *impl, struct gcm_case *c)
{
	static u8 buf[MAX_LEN + 16], back[MAX_LEN + 16];
	unsigned int pieces[8], n, i, off = 0;
	bool in_place = rnd() & 1, mixed = rnd() % 4 == 0;
	const u8 *src;
	struct gcm_key k;
	struct sm4_gcm_ctr ctr;
	struct sm4_ghash gh;
	u8 tag[16];
	int flip;

	rnd_fill(c->key, sizeof(c->key));
	rnd_fill(c->iv, sizeof(c->iv));
	rnd_fill(c->aad, c->alen);
	rnd_fill(c->pt, c->tlen);
	c->authsize = authsizes[rnd() % ARRAY_SIZE(authsizes)];
	gcry_gcm(c);

	gcm_setkey(impl, &k, c->key);
	/* AAD: sometimes by the portable GHASH, handing over .acc. */
	sm4_ghash_start(&gh, mixed ? k.h : k.table);
	hash_stream(mixed ? &sm4_gcm_generic_ops : impl->gcm, &gh, c->aad,
		    c->alen);
	gh.table = k.table;
	sm4_gcm_ctr_start(impl->ops, impl->gcm, k.ctx.rkey_enc, c->iv, c->tlen,
			  &ctr);
	memcpy(buf, c->pt, c->tlen);
	src = in_place ? buf : c->pt;
	n = cut(c->tlen, SM4_BLOCK_SIZE, pieces);
	for (i = 0; i < n; i++) {
		sm4_gcm_encrypt_piece(impl->ops, impl->gcm, k.ctx.rkey_enc,
				      &gh, &ctr, buf + off, src + off,
				      pieces[i]);
		off += pieces[i];
	}
	sm4_gcm_tag(impl->gcm, &gh, &ctr, c->alen, c->tlen, tag);
	if (memcmp(buf, c->ct, c->tlen) || memcmp(tag, c->tag, c->authsize)) {
		if (!detail())
			return false;
		fprintf(stderr, "FAIL detail: %s gcm encrypt alen %u tlen %u authsize %u%s%s\n",
			impl->name, c->alen, c->tlen, c->authsize,
			in_place ? " in-place" : "", mixed ? " mixed" : "");
		dump("got ct ", buf, c->tlen);
		dump("want ct", c->ct, c->tlen);
		dump("got tag ", tag, 16);
		dump("want tag", c->tag, 16);
		return false;
	}

	/* Decrypt (verify first), then with one bit flipped somewhere. */
	memset(back, 0xa5, c->tlen);
	if (gcm_decrypt(impl, &k, c->iv, c->aad, c->alen, c->ct, c->tlen,
			c->tag, c->authsize, back) ||
	    memcmp(back, c->pt, c->tlen)) {
		if (detail())
			fprintf(stderr, "FAIL detail: %s gcm decrypt alen %u tlen %u\n",
				impl->name, c->alen, c->tlen);
		return false;
	}
	flip = rnd() % (c->alen + c->tlen + c->authsize);
	if (flip < (int)c->alen)
		c->aad[flip] ^= 1 << (rnd() % 8);
	else if (flip < (int)(c->alen + c->tlen))
		c->ct[flip - c->alen] ^= 1 << (rnd() % 8);
	else
		c->tag[flip - c->alen - c->tlen] ^= 1 << (rnd() % 8);
	memset(back, 0xa5, c->tlen);
	if (!gcm_decrypt(impl, &k, c->iv, c->aad, c->alen, c->ct, c->tlen,
			 c->tag, c->authsize, back)) {
		if (detail())
			fprintf(stderr, "FAIL detail: %s gcm accepts a flipped bit at %d (alen %u tlen %u)\n",
				impl->name, flip, c->alen, c->tlen);
		return false;
	}
	return true;
}

/*
 * 112/113, 240/241 and 496/497: the longest texts whose keystream
 * drivers make all up front (short_blocks 7, 15 and 31), and one byte
 * more; 1520/1521: the longest tail after a whole batch of 64 that
 * gfni-avx512 makes up front, and one byte more.
 */
static const unsigned int boundary[] = {
	0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 112, 113, 127, 128, 129, 240,
	241, 255, 256, 257, 496, 497, 511, 512, 513, 1023, 1024, 1025, 1520,
	1521, 2047, 2048, 2049, 4095, 4096,
};

static void test_gcm(const struct sm4_test_impl *impl)
{
	static struct gcm_case c;
	unsigned long cases = 0, bad = 0;
	unsigned int a, t;
	unsigned long i;

	for (a = 0; a <= grid; a++)
		for (t = 0; t <= grid; t++) {
			c.alen = a;
			c.tlen = t;
			cases++;
			bad += !gcm_one(impl, &c);
		}
	for (a = 0; a < ARRAY_SIZE(boundary); a++)
		for (t = 0; t < ARRAY_SIZE(boundary); t++) {
			if (grid < 64 && (boundary[a] > 4 * grid ||
					  boundary[t] > 4 * grid))
				continue;
			c.alen = boundary[a];
			c.tlen = boundary[t];
			cases++;
			bad += !gcm_one(impl, &c);
		}
	for (i = 0; i < n_cases; i++) {
		c.alen = rnd() % (MAX_LEN + 1);
		c.tlen = rnd() % (MAX_LEN + 1);
		cases++;
		bad += !gcm_one(impl, &c);
	}
	printf("%s: gcm %s: %lu cases (AAD x text 0..%u, boundaries, %lu random to 4096), %lu wrong\n",
	       verdict(bad, cases), impl->name, cases, grid, n_cases, bad);
}

/*
 * The IV crypto/cts.c leaves in req->iv after a request of @len bytes of
 * ciphertext @ct, encryption and decryption alike: its CBC subrequests
 * leave the last ciphertext block they went over, which is the 16 bytes
 * before the final 1..16 (for a lone block, the block).
 */
static const u8 *cts_template_iv_out(const u8 *ct, unsigned int len)
{
	unsigned int last = len - (len - 1) / 16 * 16;

	return len == 16 ? ct : ct + len - last - 16;
}

/* Is @iv what the cts template leaves?  Details for @what if not. */
static bool cts_iv_ok(const struct sm4_test_impl *impl, const char *what,
		      unsigned int len, const u8 *iv, const u8 *ct)
{
	if (!memcmp(iv, cts_template_iv_out(ct, len), 16))
		return true;
	if (detail()) {
		fprintf(stderr, "FAIL detail: %s cts %s len %u: output IV is not crypto/cts.c's\n",
			impl->name, what, len);
		dump("got ", iv, 16);
		dump("want", cts_template_iv_out(ct, len), 16);
	}
	return false;
}

static bool cts_one(const struct sm4_test_impl *impl, unsigned int len)
{
	static u8 pt[MAX_LEN], ct[MAX_LEN], want[MAX_LEN], buf[MAX_LEN];
	u8 key[SM4_KEY_SIZE], iv[16], iv2[16];
	bool in_place = rnd() & 1;
	struct sm4_ctx ctx;
	gcry_cipher_hd_t h;

	rnd_fill(key, sizeof(key));
	rnd_fill(iv, sizeof(iv));
	rnd_fill(pt, len);
	gcry_check(gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC,
				    GCRY_CIPHER_CBC_CTS), "open cts");
	gcry_check(gcry_cipher_setkey(h, key, SM4_KEY_SIZE), "setkey");
	gcry_check(gcry_cipher_setiv(h, iv, 16), "setiv");
	gcry_check(gcry_cipher_encrypt(h, want, len, pt, len), "cts");
	gcry_cipher_close(h);

	sm4_expandkey(&ctx, key, SM4_KEY_SIZE);
	memcpy(iv2, iv, 16);
	memcpy(buf, pt, len);
	sm4_mode_cts_encrypt(impl->ops, ctx.rkey_enc, in_place ? buf : ct,
			     in_place ? buf : pt, len, iv2);
	if (!in_place)
		memcpy(buf, ct, len);
	if (memcmp(buf, want, len)) {
		if (!detail())
			return false;
		fprintf(stderr, "FAIL detail: %s cts encrypt len %u%s\n",
			impl->name, len, in_place ? " in-place" : "");
		dump("got ", buf, len);
		dump("want", want, len);
		return false;
	}
	if (!cts_iv_ok(impl, "encrypt", len, iv2, want))
		return false;
	memcpy(iv2, iv, 16);
	sm4_mode_cts_decrypt(impl->ops, ctx.rkey_dec, in_place ? buf : ct,
			     in_place ? buf : want, len, iv2);
	if (!in_place)
		memcpy(buf, ct, len);
	if (memcmp(buf, pt, len)) {
		if (detail())
			fprintf(stderr, "FAIL detail: %s cts decrypt len %u%s\n",
				impl->name, len, in_place ? " in-place" : "");
		return false;
	}
	return cts_iv_ok(impl, "decrypt", len, iv2, want);
}

/* @size bytes with an inaccessible page on either side, or NULL. */
static u8 *guarded(size_t size, size_t pg)
{
	u8 *m = mmap(NULL, size + 2 * pg, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return NULL;
	if (mprotect(m, pg, PROT_NONE) ||
	    mprotect(m + pg + size, pg, PROT_NONE))
		return NULL;
	return m + pg;
}

#define GUARD_BLOCKS	80

/* A fault in the guard pages ends the program with a FAIL line. */
static char guard_msg[128];

static void guard_fault(int sig)
{
	ssize_t r = write(1, guard_msg, strlen(guard_msg));

	(void)r;
	_exit(1);
}

/*
 * A random key (its table at @table, and ctx, h), @len bytes of @src,
 * counter (@ctr and its copy @ctr2), and accumulator, in @gh (over
 * @table) and @ref (over h, for the portable GHASH).
 */
struct gcm_enc_case {
	struct sm4_ctx ctx;
	struct sm4_ghash gh, ref;
	u8 h[SM4_BLOCK_SIZE], ctr[16], ctr2[16];
};

static void gcm_enc_case(const struct sm4_test_impl *impl,
			 struct gcm_enc_case *c, u8 *table, u8 *src,
			 unsigned int len)
{
	static const u8 zero[SM4_BLOCK_SIZE];
	u8 key[SM4_KEY_SIZE], acc[16];

	rnd_fill(key, sizeof(key));
	rnd_fill(src, len);
	rnd_fill(acc, sizeof(acc));
	rnd_fill(c->ctr, sizeof(c->ctr));
	memcpy(c->ctr2, c->ctr, sizeof(c->ctr));
	sm4_expandkey(&c->ctx, key, SM4_KEY_SIZE);
	sm4_crypt_block(c->ctx.rkey_enc, c->h, zero);
	impl->gcm->init(table, c->h);
	sm4_ghash_start(&c->gh, table);
	memcpy(c->gh.acc, acc, 16);
	sm4_ghash_start(&c->ref, c->h);
	memcpy(c->ref.acc, acc, 16);
}

/*
 * The table, src and dst at the start of their guarded areas (at = 0)
 * or at the end (at = 1): init, ghash and enc of @n blocks must agree
 * with the portable code without touching a byte outside them.
 */
static bool gcm_guard_case(const struct sm4_test_impl *impl, u8 *tpage,
			   u8 *spage, u8 *dpage, size_t pg, unsigned int n,
			   int at)
{
	unsigned int len = n * SM4_BLOCK_SIZE;
	u8 *table = tpage + (at ? pg - SM4_GCM_TABLE_SIZE : 0);
	u8 *src = spage + (at ? pg - len : 0), *dst = dpage + (at ? pg - len : 0);
	u8 want[GUARD_BLOCKS * SM4_BLOCK_SIZE];
	struct gcm_enc_case c;
	bool ok;

	gcm_enc_case(impl, &c, table, src, len);
	impl->gcm->ghash(&c.gh, src, n);
	sm4_gcm_generic_ops.ghash(&c.ref, src, n);
	ok = !memcmp(c.gh.acc, c.ref.acc, 16);

	sm4_generic_mode_ops.ctr(c.ctx.rkey_enc, want, src, n, c.ctr2);
	sm4_gcm_generic_ops.ghash(&c.ref, want, n);
	impl->gcm->enc(c.ctx.rkey_enc, dst, src, n, c.ctr, &c.gh);
	return ok && !memcmp(dst, want, len) && !memcmp(c.ctr, c.ctr2, 16) &&
	       !memcmp(c.gh.acc, c.ref.acc, 16);
}

/*
 * A guarded suite's start: FAIL if its mappings (@mapped) failed, else
 * the message its SIGSEGV handler prints (an access outside @what).
 */
static bool guard_start(const char *suite, const struct sm4_test_impl *impl,
			bool mapped, const char *what)
{
	if (!mapped) {
		printf("FAIL: %s %s: no guarded mappings\n", suite, impl->name);
		n_failed++;
		return false;
	}
	snprintf(guard_msg, sizeof(guard_msg),
		 "FAIL: %s %s: an access outside %s (SIGSEGV)\n", suite,
		 impl->name, what);
	return true;
}

static void test_gcm_guard(const struct sm4_test_impl *impl)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	unsigned long cases = 0, bad = 0;
	u8 *tpage = guarded(pg, pg), *spage = guarded(pg, pg);
	u8 *dpage = guarded(pg, pg);
	unsigned int n;
	int at;

	if (!guard_start("gcm-guard", impl, tpage && spage && dpage,
			 "the table, src or dst"))
		return;
	signal(SIGSEGV, guard_fault);
	for (n = 1; n <= GUARD_BLOCKS; n++)
		for (at = 0; at < 2; at++, cases++)
			if (!gcm_guard_case(impl, tpage, spage, dpage, pg, n,
					    at)) {
				bad++;
				if (detail())
					fprintf(stderr, "FAIL detail: %s gcm-guard %u blocks at the %s\n",
						impl->name, n,
						at ? "end" : "start");
			}
	signal(SIGSEGV, SIG_DFL);
	printf("%s: gcm-guard %s: %lu cases (1..%u blocks, table/src/dst against both guard pages), %lu wrong\n",
	       verdict(bad, cases), impl->name, cases, GUARD_BLOCKS, bad);
	munmap(tpage - pg, 3 * pg);
	munmap(spage - pg, 3 * pg);
	munmap(dpage - pg, 3 * pg);
}

/*
 * gcm-calls: how a request's blocks reach @impl's functions.  Each
 * request makes one ecb call, in sm4_gcm_ctr_start(): E_K(J0) with the
 * whole keystream of a text of at most short_blocks blocks, or with that
 * of the full blocks after the text's last whole ops->batch and of a
 * partial final block, if they number at most short_blocks, or with
 * that of the partial block alone; every other block goes through ctr
 * or the fused enc, in whole batches where the tail came up front.
 * Counted through wrappers around @impl's functions.
 */
static const struct sm4_gcm_ops *calls_gops;

static void calls_enc_fn(const u32 *rk, u8 *dst, const u8 *src,
			 unsigned int nblocks, u8 *ctr, struct sm4_ghash *gh)
{
	sm4_calls.bulk_blocks += nblocks;
	calls_gops->enc(rk, dst, src, nblocks, ctr, gh);
}

static void test_gcm_calls(const struct sm4_test_impl *impl)
{
	static u8 buf[MAX_LEN], pt[MAX_LEN];
	struct sm4_mode_ops ops;
	struct sm4_gcm_ops gops = *impl->gcm;
	unsigned long cases = 0, bad = 0;
	unsigned int i, k = impl->gcm->short_blocks;
	unsigned int batch = impl->ops->batch;
	struct gcm_key key;
	u8 kb[SM4_KEY_SIZE], iv[SM4_GCM_IV_SIZE], tag[16];

	sm4_calls_wrap(&ops, impl->ops);
	calls_gops = impl->gcm;
	if (gops.enc)
		gops.enc = calls_enc_fn;
	rnd_fill(kb, sizeof(kb));
	gcm_setkey(impl, &key, kb);
	for (i = 0; i < 300 + 200; i++) {
		unsigned int len = i < 300 ? i : rnd() % (MAX_LEN + 1);
		unsigned int full = len / 16, part = len % 16 != 0;
		bool all = full + part <= k;
		unsigned int tail = batch ? full % batch : 0;
		unsigned int pieces[8], n, j, off = 0;
		struct sm4_gcm_ctr c;
		struct sm4_ghash gh;
		bool enc = rnd() & 1;

		rnd_fill(iv, sizeof(iv));
		rnd_fill(pt, len);
		sm4_calls_reset();
		sm4_gcm_ctr_start(&ops, &gops, key.ctx.rkey_enc, iv, len, &c);
		sm4_ghash_start(&gh, key.table);
		n = cut(len, SM4_BLOCK_SIZE, pieces);
		for (j = 0; j < n; j++) {
			if (enc)
				sm4_gcm_encrypt_piece(&ops, &gops,
						      key.ctx.rkey_enc, &gh,
						      &c, buf + off, pt + off,
						      pieces[j]);
			else
				sm4_gcm_decrypt_piece(&ops, key.ctx.rkey_enc,
						      &c, buf + off, pt + off,
						      pieces[j]);
			off += pieces[j];
		}
		sm4_gcm_tag(&gops, &gh, &c, 0, len, tag);
		cases++;
		if (all)
			tail = full;
		else if (tail + part > k)
			tail = 0;
		if (sm4_calls.ecb == 1 &&
		    sm4_calls.ecb_blocks == 1 + tail + part &&
		    sm4_calls.bulk_blocks == full - tail)
			continue;
		bad++;
		if (detail())
			fprintf(stderr, "FAIL detail: %s gcm-calls %s len %u: %u ecb calls of %u blocks, %u blocks by ctr/enc\n",
				impl->name, enc ? "encrypt" : "decrypt", len,
				sm4_calls.ecb, sm4_calls.ecb_blocks, sm4_calls.bulk_blocks);
	}
	printf("%s: gcm-calls %s: %lu requests (text 0..299, 200 random to 4096), one ecb call each with the keystream of texts to %u blocks, or of the tail after whole batches of %u with a partial block, %lu wrong\n",
	       verdict(bad, cases), impl->name, cases, k, batch, bad);
}

#if defined(__x86_64__)
/* The gcm-dstread observer: dst's pages [lo, hi) are PROT_NONE. */
static struct {
	u8 *lo, *hi;
	unsigned long loads, stores;
	volatile sig_atomic_t active, stepping;
} rd;

#define RD_TRAP_FLAG	0x100
#define RD_PF_WRITE	0x2	/* page fault error code: a write */

static void rd_segv(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	u8 *a = si->si_addr;

	if (!rd.active || a < rd.lo || a >= rd.hi) {
		ssize_t r = write(1, guard_msg, strlen(guard_msg));

		(void)r;
		_exit(1);
	}
	if (uc->uc_mcontext.gregs[REG_ERR] & RD_PF_WRITE)
		rd.stores++;
	else
		rd.loads++;
	mprotect(rd.lo, rd.hi - rd.lo, PROT_READ | PROT_WRITE);
	rd.stepping = 1;
	uc->uc_mcontext.gregs[REG_EFL] |= RD_TRAP_FLAG;
}

static void rd_trap(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	if (!rd.stepping) {
		signal(SIGTRAP, SIG_DFL);
		return;
	}
	rd.stepping = 0;
	mprotect(rd.lo, rd.hi - rd.lo, PROT_NONE);
	uc->uc_mcontext.gregs[REG_EFL] &= ~RD_TRAP_FLAG;
}

/*
 * Texts whose keystream is made up front whole, in part (a tail after
 * whole batches: 496, 1040, 1420; a partial block), or not.
 */
static const unsigned int dstread_texts[] = {
	1, 15, 16, 17, 100, 112, 113, 240, 241, 256, 496, 1023, 1040, 1420,
	4095,
};
static const unsigned int dstread_blocks[] = {
	1, 3, 4, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129,
	191, 192, 193, 200, 255, 256, 257, 320,
};

#define DSTREAD_MAX	320

/* Make @dst unreadable, counting its loads and stores from now. */
static void rd_watch(u8 *dst, size_t size)
{
	rd.lo = dst;
	rd.hi = dst + size;
	rd.loads = rd.stores = 0;
	mprotect(dst, size, PROT_NONE);
	rd.active = 1;
}

/* Stop counting; add the counts to @loads and @stores. */
static void rd_unwatch(u8 *dst, size_t size, unsigned long *loads,
		       unsigned long *stores)
{
	rd.active = 0;
	mprotect(dst, size, PROT_READ | PROT_WRITE);
	*loads += rd.loads;
	*stores += rd.stores;
}

/*
 * Whether a watched call failed: it read dst, never wrote it, or its
 * results were @wrong; the first few failures described.
 */
static bool rd_bad(const struct sm4_test_impl *impl, unsigned int n,
		   const char *unit, bool wrong)
{
	if (!rd.loads && rd.stores && !wrong)
		return false;
	if (detail())
		fprintf(stderr, "FAIL detail: %s gcm-dstread %u %s: %lu loads from dst, %lu stores, output %s\n",
			impl->name, n, unit, rd.loads, rd.stores,
			wrong ? "wrong" : "right");
	return true;
}

static void test_gcm_dstread(const struct sm4_test_impl *impl)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	size_t size = (DSTREAD_MAX * SM4_BLOCK_SIZE + pg - 1) / pg * pg;
	static u8 src[DSTREAD_MAX * SM4_BLOCK_SIZE];
	static u8 want[DSTREAD_MAX * SM4_BLOCK_SIZE];
	unsigned long cases = 0, bad = 0, loads = 0, stores = 0;
	u8 *dst = guarded(size, pg), *table = guarded(pg, pg);
	struct sigaction sa, old_segv, old_trap;
	unsigned int i;

	if (sm4_gfni_emu_active || sm4_avx512_emu_active) {
		printf("SKIP: gcm-dstread %s: its instructions are emulated (the emulators read memory in their signal handlers)\n",
		       impl->name);
		return;
	}
	if (!guard_start("gcm-dstread", impl, dst && table, "dst"))
		return;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sa.sa_sigaction = rd_segv;
	sigaction(SIGSEGV, &sa, &old_segv);
	sa.sa_flags = SA_SIGINFO;
	sa.sa_sigaction = rd_trap;
	sigaction(SIGTRAP, &sa, &old_trap);
	for (i = 0; i < ARRAY_SIZE(dstread_blocks); i++, cases++) {
		unsigned int n = dstread_blocks[i], len = n * SM4_BLOCK_SIZE;
		struct gcm_enc_case c;

		gcm_enc_case(impl, &c, table, src, len);
		sm4_generic_mode_ops.ctr(c.ctx.rkey_enc, want, src, n, c.ctr2);
		sm4_gcm_generic_ops.ghash(&c.ref, want, n);

		rd_watch(dst, size);
		impl->gcm->enc(c.ctx.rkey_enc, dst, src, n, c.ctr, &c.gh);
		rd_unwatch(dst, size, &loads, &stores);
		bad += rd_bad(impl, n, "blocks",
			      memcmp(dst, want, len) ||
			      memcmp(c.ctr, c.ctr2, 16) ||
			      memcmp(c.gh.acc, c.ref.acc, 16));
	}
	/* The whole text path: keystream made up front, partial blocks. */
	for (i = 0; i < ARRAY_SIZE(dstread_texts); i++, cases++) {
		unsigned int len = dstread_texts[i];
		struct sm4_gcm_ctr gc, ref;
		struct gcm_enc_case c;

		gcm_enc_case(impl, &c, table, src, len);
		sm4_gcm_ctr_start(&sm4_generic_mode_ops, impl->gcm,
				  c.ctx.rkey_enc, c.h, len, &ref);
		sm4_gcm_encrypt_piece(&sm4_generic_mode_ops,
				      &sm4_gcm_generic_ops, c.ctx.rkey_enc,
				      &c.ref, &ref, want, src, len);
		sm4_ghash_pad(&sm4_gcm_generic_ops, &c.ref);
		sm4_gcm_ctr_start(impl->ops, impl->gcm, c.ctx.rkey_enc, c.h,
				  len, &gc);

		rd_watch(dst, size);
		sm4_gcm_encrypt_piece(impl->ops, impl->gcm, c.ctx.rkey_enc,
				      &c.gh, &gc, dst, src, len);
		rd_unwatch(dst, size, &loads, &stores);
		sm4_ghash_pad(impl->gcm, &c.gh);
		bad += rd_bad(impl, len, "bytes of text",
			      memcmp(dst, want, len) ||
			      memcmp(c.gh.acc, c.ref.acc, 16));
	}
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGTRAP, &old_trap, NULL);
	printf("%s: gcm-dstread %s: %lu cases (enc on 1..%u blocks, sm4_gcm_encrypt_piece() on %zu texts of 1..%u bytes, dst unreadable), %lu stores into dst, %lu loads from it, %lu wrong\n",
	       verdict(bad, cases), impl->name, cases, DSTREAD_MAX,
	       ARRAY_SIZE(dstread_texts),
	       dstread_texts[ARRAY_SIZE(dstread_texts) - 1], stores, loads,
	       bad);
	munmap(dst - pg, size + 2 * pg);
	munmap(table - pg, 3 * pg);
}
#endif

static void test_cts(const struct sm4_test_impl *impl)
{
	unsigned long cases = 0, bad = 0, i;
	unsigned int len;
	struct sm4_ctx ctx;
	u8 b[16], iv[16];

	for (len = 16; len <= 560; len++, cases++)
		bad += !cts_one(impl, len);
	for (i = 0; i < n_cases; i++, cases++)
		bad += !cts_one(impl, 16 + rnd() % (MAX_LEN - 15));
	/* Below one block: -EINVAL, nothing written. */
	memset(&ctx, 0, sizeof(ctx));
	for (len = 0; len < 16; len++, cases++) {
		memset(b, 0x5a, sizeof(b));
		if (sm4_mode_cts_encrypt(impl->ops, ctx.rkey_enc, b, b, len,
					 iv) != -EINVAL || b[0] != 0x5a)
			bad++;
	}
	printf("%s: cts %s: %lu cases (16..560, %lu random to 4096, 0..15 rejected), %lu wrong\n",
	       verdict(bad, cases), impl->name, cases, n_cases, bad);
}

int main(int argc, char **argv)
{
	struct sm4_test_impl *impl;
	unsigned int ran = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--cases") && i + 1 < argc)
			n_cases = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			rng_state = strtoull(argv[++i], NULL, 0) | 1;
		else if (!strcmp(argv[i], "--impl") && i + 1 < argc)
			only_impl = argv[++i];
		else if (!strcmp(argv[i], "--grid") && i + 1 < argc)
			grid = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--with-broken")) {
			broken_ops = sm4_generic_mode_ops;
			broken_ops.cbc_enc = broken_cbc_enc;
			sm4_test_register_impl(&broken_impl);
		}
#if defined(__x86_64__)
		else if (!strcmp(argv[i], "--emulate-gfni")) {
			__builtin_cpu_init();
			if (!__builtin_cpu_supports("gfni") &&
			    sm4_gfni_emu_install())
				return 1;
		} else if (!strcmp(argv[i], "--emulate-avx512")) {
			__builtin_cpu_init();
			if (!__builtin_cpu_supports("avx512f") &&
			    sm4_avx512_emu_install())
				return 1;
		}
#endif
		else {
			fprintf(stderr, "usage: %s [--cases N] [--grid N] [--seed S] [--impl NAME] [--emulate-gfni] [--emulate-avx512] [--with-broken]\n",
				argv[0]);
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!gcry_check_version(NULL))
		return 2;
	sm4_shim_init_sm4_lib_init();

	for (impl = sm4_test_impl_list(); impl; impl = impl->next) {
		if (only_impl && strcmp(only_impl, impl->name))
			continue;
		if (impl->available && !impl->available()) {
			printf("SKIP: %s: not supported by this CPU\n",
			       impl->name);
			continue;
		}
		if (impl->gcm) {
			test_gcm(impl);
			test_gcm_calls(impl);
		}
		if (impl->gcm && impl->gcm->init && impl->gcm->enc)
			test_gcm_guard(impl);
#if defined(__x86_64__)
		if (impl->gcm && impl->gcm->init && impl->gcm->enc)
			test_gcm_dstread(impl);
#endif
		/* The other CPUs' GHASH (gcm_enc is the same function). */
		if (impl->gcm_alt) {
			struct sm4_test_impl alt = *impl;
			char name[64];

			snprintf(name, sizeof(name), "%s, other CPUs' GHASH",
				 impl->name);
			alt.name = name;
			alt.gcm = impl->gcm_alt;
			test_gcm(&alt);
			if (alt.gcm->init && alt.gcm->enc)
				test_gcm_guard(&alt);
		}
		if (!impl->gcm)
			printf("SKIP: gcm %s: no GHASH functions\n",
			       impl->name);
		test_cts(impl);
		ran++;
	}
	if (!ran)
		printf("%s: impl: no implementation ran%s%s%s\n",
		       verdict(1, 0), only_impl ? " (--impl " : "",
		       only_impl ? only_impl : "",
		       only_impl ? ": not supported by this CPU)" : "");
	printf("%u passed, %u failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
