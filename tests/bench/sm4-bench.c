// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-bench: native userspace throughput of every SM4 implementation this
 * CPU can run (the portable C code and each SIMD backend registered with
 * the unit-test harness through tests/unit/impl_*.c), side by side with
 * libgcrypt's SM4 in the same process.
 *
 * One request is what one skcipher request costs in the kernel glue:
 * the mode function over the whole buffer, through the same sm4_mode_ops
 * and sm4_mode_*() calls (CBC/CFB/CTR start from a fresh IV, XTS encrypts
 * its tweak first); key expansion is done once, outside the timing.  For
 * libgcrypt a request is gcry_cipher_setiv()/setctr() plus one
 * gcry_cipher_encrypt()/decrypt() on a handle keyed once.
 *
 * ccm(sm4) and cmac(sm4) requests run as crypto/sm4_mac_glue.c runs
 * them (include/sm4/mac.h), for each backend with MAC functions and, as
 * "template/<backend>", the way the kernel's ccm and cmac templates
 * compute them over that backend's CTR and the single-block sm4-generic.
 *
 * Sizes are those of tcrypt (ECB, CBC and XTS round 1420 up to 1424
 * bytes like tcrypt does for block ciphers) plus 1 MiB.  Each cell is the
 * median of several timed runs of a calibrated number of requests.
 * Before timing, every implementation's output for the cell is compared
 * with libgcrypt's (or, without libgcrypt, the portable code's); a
 * mismatch is reported and makes the program exit with status 1.
 *
 * Time is measured with the TSC (x86-64) or the generic timer (arm64);
 * "cycles/B" are TSC ticks per byte, which equal core cycles only when
 * the core runs at the TSC frequency (not under turbo or power saving).
 * The core-cycles/TSC-ticks ratio comes from the perf core-cycle
 * counter or, without it, from chains of dependent IMULs beside each
 * timed run (with -b, those beside each cell's fastest run); it is
 * printed (and core cycles per byte with it) only if the core clock it
 * implies lies between half the TSC rate and 6 GHz.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/perf_event.h>

#ifdef HAVE_GCRYPT
#include <gcrypt.h>
#endif

#include <sm4/modes.h>
#include <sm4/mac.h>
#include <sm4/gcm.h>
#include "impl.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* ---- Implementations ----------------------------------------------- */

#define MAX_IMPLS	16


static struct sm4_test_impl generic_impl = {
	.name = "generic",
	.ops = &sm4_generic_mode_ops,
	.mac_ops = &sm4_generic_mac_ops,
	.gcm = &sm4_gcm_generic_ops,
};

/*
 * What the kernel's templates do for a driver without MAC functions:
 * ccm_base(ctr-sm4-<driver>, cbcmac(sm4-generic)) and cmac(sm4-generic),
 * i.e. the CBC-MAC one sm4_crypt_block() call per block (the template's
 * crypto_cipher_encrypt_one() on the single-block cipher, which is
 * sm4-generic on x86) and the driver's CTR for the text.  A "template/X"
 * implementation measures only the CCM and CMAC rows.
 */
static void template_cbcmac(const u32 *rk, u8 *mac, const u8 *src,
			    unsigned int nblocks)
{
	unsigned int i;

	for (; nblocks; nblocks--, src += SM4_BLOCK_SIZE) {
		for (i = 0; i < SM4_BLOCK_SIZE; i++)
			mac[i] ^= src[i];
		sm4_crypt_block(rk, mac, mac);
	}
}

static const struct sm4_mac_ops template_mac_ops = {
	.cbcmac = template_cbcmac,
};
static struct sm4_test_impl template_impls[MAX_IMPLS];

struct bench_impl {
	char name[64];			/* "sm4-generic", "libgcrypt" */
	const struct sm4_test_impl *ti;	/* NULL: libgcrypt */
	const struct gcry_path *path;	/* libgcrypt forced onto a path */
	int template_of;		/* template/X: X's index, else -1 */
};

/*
 * libgcrypt's SM4 paths, each forced in a child process by switching off
 * the hardware features of the faster ones (GCRYCTL_DISABLE_HWF must come
 * before libgcrypt's initialisation), next to this project's driver for
 * the same instruction set.  A path runs only on a CPU that has its
 * features, or libgcrypt would silently fall back to a slower one.
 * The names are switched off one by one: libgcrypt stops at the first
 * name of a list it does not know, and a feature it does not know (1.10
 * has no "intel-avx512") is one none of its code paths uses anyway.
 */
struct gcry_path {
	const char *name;	/* "libgcrypt GFNI/AVX2" */
	const char *disable;	/* for GCRYCTL_DISABLE_HWF, or NULL */
	const char *driver;	/* the matching implementation */
	const char *cpu[3];	/* __builtin_cpu_supports() names */
	const char *driver2;	/* another one for the same path, or NULL */
};

#ifdef HAVE_GCRYPT
static const struct gcry_path gcry_paths[] = {
	{ "libgcrypt GFNI/AVX-512", NULL, "sm4-gfni-avx512",
	  { "gfni", "avx512f", "avx512vl" }, NULL },
	{ "libgcrypt GFNI/AVX2", "intel-avx512", "sm4-gfni-avx2",
	  { "gfni", "avx2" }, NULL },
	{ "libgcrypt AES-NI/AVX2", "intel-gfni,intel-avx512",
	  "sm4-aesni-avx2", { "aes", "avx2" }, "sm4-vaes-avx2" },
	{ "libgcrypt AES-NI/AVX", "intel-avx2,intel-gfni,intel-avx512",
	  "sm4-aesni-avx", { "aes", "avx" }, NULL },
};
#endif

static struct bench_impl bimpls[MAX_IMPLS];
static int n_bimpls;

/* ---- Rows and columns ---------------------------------------------- */

enum kind { K_ECB, K_CBC, K_CFB, K_CTR, K_XTS, K_GCM, K_CCM, K_CMAC,
	    N_KINDS };

static const struct row {
	const char *label;		/* as in the tcrypt tables */
	const char *mode, *dir;		/* CSV */
	enum kind kind;
	bool enc;
} rows[] = {
	{ "ECB enc", "ecb", "enc", K_ECB, true },
	{ "ECB dec", "ecb", "dec", K_ECB, false },
	{ "CBC enc", "cbc", "enc", K_CBC, true },
	{ "CBC dec", "cbc", "dec", K_CBC, false },
	{ "CFB enc", "cfb", "enc", K_CFB, true },
	{ "CFB dec", "cfb", "dec", K_CFB, false },
	{ "CTR", "ctr", "enc", K_CTR, true },
	{ "XTS enc", "xts", "enc", K_XTS, true },
	{ "XTS dec", "xts", "dec", K_XTS, false },
	{ "GCM enc", "gcm", "enc", K_GCM, true },
	{ "GCM dec", "gcm", "dec", K_GCM, false },
	{ "CCM enc", "ccm", "enc", K_CCM, true },
	{ "CCM dec", "ccm", "dec", K_CCM, false },
	{ "CMAC", "cmac", "mac", K_CMAC, true },
};
#define N_ROWS	((int)ARRAY_SIZE(rows))

static const unsigned int sizes[] = { 16, 64, 128, 256, 1024, 1420, 4096,
				      16384, 1 << 20 };
static const char *const size_names[] = { "16", "64", "128", "256", "1024",
					  "1420", "4096", "16K", "1M" };
#define N_SIZES	((int)ARRAY_SIZE(sizes))
#define MAX_LEN	((1 << 20) + 16)

/* Whether row @r is one of the CBC-MAC family's. */
static bool mac_row(int r)
{
	return rows[r].kind == K_CCM || rows[r].kind == K_CMAC;
}

/* Bytes one request of column @s processes in row @r (as tcrypt does). */
static unsigned int req_len(int r, int s)
{
	unsigned int len = sizes[s];

	if (rows[r].kind == K_ECB || rows[r].kind == K_CBC ||
	    rows[r].kind == K_XTS)
		len = (len + 15) & ~15u;
	return len;
}

/*
 * Bytes of output compared with the reference: the MAC for CMAC, the
 * ciphertext and the tag for CCM encryption.
 */
static unsigned int out_len(int r, int s)
{
	if (rows[r].kind == K_CMAC)
		return SM4_BLOCK_SIZE;
	if (rows[r].kind == K_CCM && rows[r].enc)
		return req_len(r, s) + SM4_BLOCK_SIZE;
	return req_len(r, s);
}

struct cell {
	double ticks_per_req;	/* median */
	double core_per_tick;	/* IMUL method: beside the runs, else 0 */
	double spread;		/* (max - min) / median of the runs */
	unsigned long reqs;	/* requests per run */
	unsigned int preempted;	/* runs timed by CPU time: lost the CPU */
	bool done, bad;
};

static struct cell cells[MAX_IMPLS][N_ROWS][N_SIZES];

/* ---- Time ----------------------------------------------------------- */

static inline u64 ticks(void)
{
#if defined(__x86_64__)
	unsigned int lo, hi;

	__asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi) :: "memory");
	return ((u64)hi << 32) | lo;
#elif defined(__aarch64__)
	u64 v;

	__asm__ __volatile__("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
#endif
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static u64 thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static double tick_hz;
static double core_per_tick;	/* 0: unknown */
static bool core_by_imul;	/* core_per_tick from the IMUL chain */
static const char *tick_name = "TSC";

static void calibrate_ticks(void)
{
	u64 t0, c0, t1, c1;

	t0 = now_ns();
	c0 = ticks();
	do
		t1 = now_ns();
	while (t1 - t0 < 100000000ull);
	c1 = ticks();
	tick_hz = (double)(c1 - c0) * 1e9 / (double)(t1 - t0);
#if defined(__aarch64__)
	tick_name = "CNTVCT";
#elif !defined(__x86_64__)
	tick_name = "ns";
#endif
}

/*
 * Without a cycle counter: core cycles per tick from a chain of dependent
 * 64-bit IMULs, 3 core cycles each on every x86-64 core of the last
 * decade (Intel from Nehalem, AMD from Zen).  A chain of "add $1" is no
 * measure: Golden Cove and later cores eliminate such adds at rename
 * (8.4 "cycles" per TSC tick were seen that way).  The multiplier is a
 * run-time value, so nothing can be folded.  The best of 40 short runs
 * (about 2 ms each; the least disturbed one on a busy machine) is taken.
 */
#define IMUL_LATENCY	3

static double dependent_imul_cycles_per_tick_n(unsigned long iters, int runs)
{
#if defined(__x86_64__)
	const unsigned long muls = 64;
	volatile unsigned long seed = 3;
	unsigned long m = seed;
	double best = 0;
	int run;

	for (run = 0; run < runs; run++) {
		unsigned long x = 1, i;
		u64 t0, t1;

		t0 = ticks();
		for (i = 0; i < iters; i++)
			__asm__ __volatile__(".rept 64\n\timul %1, %0\n\t.endr"
					     : "+r"(x) : "r"(m));
		t1 = ticks();
		if (t1 > t0 &&
		    (double)(iters * muls * IMUL_LATENCY) / (t1 - t0) > best)
			best = (double)(iters * muls * IMUL_LATENCY) /
			       (t1 - t0);
	}
	return best;
#else
	return 0;
#endif
}

static double dependent_imul_cycles_per_tick(void)
{
	return dependent_imul_cycles_per_tick_n(30000, 40);
}

/*
 * The same beside every timed run of a cell (IMUL method only): a
 * start-up figure misses how fast the core runs later (one host, minutes
 * apart: 1.38 and 1.57 cycles per tick, the cells' ticks unchanged), so
 * each run gets the better of the two chains (about 0.2 ms each) just
 * before and just after it: one disturbed chain reads low, not high.
 */
static double imul_beside_run(void)
{
	return dependent_imul_cycles_per_tick_n(4000, 1);
}

/*
 * A core clock above 6 GHz or below half the tick rate means the method
 * failed (an eliminated instruction, a throttled or migrated run):
 * then no core cycles are printed at all.
 */
static bool core_clock_plausible(double per_tick)
{
	return per_tick >= 0.5 && per_tick * tick_hz <= 6e9;
}

/*
 * An estimate of what kernel_fpu_begin()/kernel_fpu_end() add to a
 * request on x86-64: the first section after entering the kernel saves
 * the task's FPU/vector state (XSAVEOPT/XSAVES of every XCR0 component),
 * and the return to user space restores it (XRSTOR).  Measured here as
 * one XSAVE plus one XRSTOR of all enabled state (a ymm register is
 * dirtied in between, so the save cannot be skipped), median of
 * 1000-pair runs, in TSC ticks.  The kernel's bookkeeping (preemption,
 * the TIF flag) is not included.
 */
static int cmp_double(const void *a, const void *b);

static double fpu_save_restore_ticks(void)
{
#if defined(__x86_64__)
	static unsigned char area[8192] __attribute__((aligned(64)));
	unsigned int lo, hi;
	double runs[9];
	int r, k;

	__asm__ __volatile__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	for (r = 0; r < 9; r++) {
		u64 t0, t1;

		t0 = ticks();
		for (k = 0; k < 1000; k++) {
			__asm__ __volatile__("vpxor %%ymm0, %%ymm0, %%ymm0\n\t"
					     "xsave64 %0"
					     : "+m"(area) : "a"(lo), "d"(hi)
					     : "xmm0", "memory");
			__asm__ __volatile__("xrstor64 %0"
					     : : "m"(area), "a"(lo), "d"(hi)
					     : "memory");
		}
		t1 = ticks();
		runs[r] = (double)(t1 - t0) / 1000;
	}
	qsort(runs, 9, sizeof(runs[0]), cmp_double);
	return runs[4];
#else
	return 0;
#endif
}

/* Core cycles per tick from the perf cycle counter, if there is one. */
static void calibrate_core_cycles(char *why, size_t whylen)
{
	struct perf_event_attr pe;
	unsigned long sink = 0;
	u64 cyc = 0, t0, t1;
	unsigned long i;
	int fd;

	memset(&pe, 0, sizeof(pe));
	pe.type = PERF_TYPE_HARDWARE;
	pe.size = sizeof(pe);
	pe.config = PERF_COUNT_HW_CPU_CYCLES;
	pe.disabled = 1;
	pe.exclude_kernel = 1;
	pe.exclude_hv = 1;
	fd = syscall(SYS_perf_event_open, &pe, 0, -1, -1, 0);
	if (fd < 0) {
		int err = errno;

		core_per_tick = dependent_imul_cycles_per_tick();
		core_by_imul = core_per_tick > 0;
		if (core_per_tick > 0 && !core_clock_plausible(core_per_tick)) {
			snprintf(why, whylen,
				 "perf_event_open(cycles): %s; a chain of dependent imuls gives %.3f core cycles per %s tick (%.2f GHz), implausible: no core cycles printed",
				 strerror(err), core_per_tick, tick_name,
				 core_per_tick * tick_hz / 1e9);
			core_per_tick = 0;
			core_by_imul = false;
		} else if (core_per_tick > 0)
			snprintf(why, whylen,
				 "perf_event_open(cycles): %s; a chain of dependent imuls (%d cycles each) gives %.3f core cycles per %s tick (core %.2f GHz) at start; core cycles below from chains beside each run",
				 strerror(err), IMUL_LATENCY, core_per_tick,
				 tick_name, core_per_tick * tick_hz / 1e9);
		else
			snprintf(why, whylen, "perf_event_open(cycles): %s",
				 strerror(err));
		return;
	}
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	t0 = ticks();
	for (i = 0; i < 200000000ul; i++) {
		sink += i;
		__asm__ __volatile__("" : "+r"(sink));
	}
	t1 = ticks();
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	if (read(fd, &cyc, sizeof(cyc)) != sizeof(cyc) || !cyc) {
		snprintf(why, whylen, "perf cycle counter reads nothing");
	} else {
		core_per_tick = (double)cyc / (double)(t1 - t0);
		snprintf(why, whylen, "perf: %.3f core cycles per %s tick (core %.2f GHz)%s",
			 core_per_tick, tick_name, core_per_tick * tick_hz / 1e9,
			 core_clock_plausible(core_per_tick) ? "" :
			 ", implausible: no core cycles printed");
		if (!core_clock_plausible(core_per_tick))
			core_per_tick = 0;
	}
	close(fd);
}

/* ---- Requests ------------------------------------------------------- */

static const u8 key[32] = {
	0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
	0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
	0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78,
	0x87, 0x96, 0xa5, 0xb4, 0xc3, 0xd2, 0xe1, 0xf0,
};
static const u8 iv0[16] = {
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xf0,
};

/*
 * GCM and CCM requests carry 16 bytes of associated data (and a 12-byte
 * nonce: CCM's L is 3, iv[0] = L - 1, as kTLS's SM4-CCM).
 */
static const u8 gcm_aad[16] = "sm4-bench aad..";
static const u8 ccm_iv[16] = {
	2, 0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6,
	0xa7, 0xa8, 0xa9, 0xaa, 0xab, 0, 0, 0,
};

struct keys {
	struct sm4_ctx data, tweak;
	u8 gh[SM4_BLOCK_SIZE], table[SM4_GCM_TABLE_SIZE];	/* GCM */
	u8 k1[SM4_BLOCK_SIZE], k2[SM4_BLOCK_SIZE];		/* CMAC */
#ifdef HAVE_GCRYPT
	gcry_cipher_hd_t h[N_KINDS];
	gcry_mac_hd_t mh;
#endif
};

static struct keys keys[MAX_IMPLS];

static int setup_keys(int i)
{
	const struct sm4_test_impl *ti = bimpls[i].ti;
	struct keys *k = &keys[i];

	if (ti) {
		int (*expand)(struct sm4_ctx *, const u8 *, unsigned int) =
			ti->expandkey ? ti->expandkey : sm4_expandkey;

		static const u8 zero[SM4_BLOCK_SIZE];

		if (expand(&k->data, key, SM4_KEY_SIZE) ||
		    expand(&k->tweak, key + SM4_KEY_SIZE, SM4_KEY_SIZE))
			return -1;
		sm4_crypt_block(k->data.rkey_enc, k->gh, zero);
		if (ti->gcm && ti->gcm->init)
			ti->gcm->init(k->table, k->gh);
		if (ti->mac_ops)
			sm4_cmac_subkeys(ti->mac_ops, k->data.rkey_enc, k->k1,
					 k->k2);
		return 0;
	}
#ifdef HAVE_GCRYPT
	{
		static const int gmode[N_KINDS] = {
			GCRY_CIPHER_MODE_ECB, GCRY_CIPHER_MODE_CBC,
			GCRY_CIPHER_MODE_CFB, GCRY_CIPHER_MODE_CTR,
			GCRY_CIPHER_MODE_XTS, GCRY_CIPHER_MODE_GCM,
			GCRY_CIPHER_MODE_CCM,
		};
		int m;

		for (m = 0; m < N_KINDS; m++) {
			if (m == K_CMAC)
				continue;
			if (gcry_cipher_open(&k->h[m], GCRY_CIPHER_SM4,
					     gmode[m], 0) ||
			    gcry_cipher_setkey(k->h[m], key,
					       m == K_XTS ? 32 : 16))
				return -1;
		}
		if (gcry_mac_open(&k->mh, GCRY_MAC_CMAC_SM4, 0, NULL) ||
		    gcry_mac_setkey(k->mh, key, 16))
			return -1;
	}
	return 0;
#else
	return -1;
#endif
}

/*
 * One gcm(sm4) request as the kernel glue runs it (crypto/sm4_aead_glue.c
 * over crypto/sm4_gcm.c): E_K(J0) and the keystream made up front, AAD,
 * then encryption with hashing (fused where the backend has gcm_enc), or
 * GHASH over the ciphertext and the tag followed by CTR decryption (timed
 * as if the tag matched).
 */
#ifdef SM4_GCM_SHORT_MAX
static void gcm_request(const struct sm4_test_impl *ti, const struct keys *k,
			bool enc, u8 *dst, const u8 *src, unsigned int len)
{
	const struct sm4_gcm_ops *g = ti->gcm;
	const u32 *rk = k->data.rkey_enc;
	struct sm4_gcm_ctr c;
	struct sm4_ghash gh;
	u8 tag[SM4_BLOCK_SIZE];

	sm4_gcm_ctr_start(ti->ops, g, rk, iv0, len, &c);
	sm4_ghash_start(&gh, g->init ? k->table : k->gh);
	sm4_ghash_update(g, &gh, gcm_aad, sizeof(gcm_aad));
	sm4_ghash_pad(g, &gh);
	if (enc) {
		sm4_gcm_encrypt_piece(ti->ops, g, rk, &gh, &c, dst, src, len);
		sm4_gcm_tag(g, &gh, &c, sizeof(gcm_aad), len, tag);
	} else {
		sm4_ghash_update(g, &gh, src, len);
		sm4_gcm_tag(g, &gh, &c, sizeof(gcm_aad), len, tag);
		sm4_gcm_decrypt_piece(ti->ops, rk, &c, dst, src, len);
	}
}
#else
/*
 * A tree from before sm4_gcm_ctr_start() (tools/bench-compare.sh builds
 * older revisions with this file): E_K(J0) and a partial block's
 * keystream each a one-block ecb call of their own, after the bulk.
 */
static void gcm_request(const struct sm4_test_impl *ti, const struct keys *k,
			bool enc, u8 *dst, const u8 *src, unsigned int len)
{
	const struct sm4_gcm_ops *g = ti->gcm;
	const u32 *rk = k->data.rkey_enc;
	struct sm4_ghash gh;
	u8 ctr[SM4_BLOCK_SIZE], tag[SM4_BLOCK_SIZE];

	sm4_ghash_start(&gh, g->init ? k->table : k->gh);
	sm4_ghash_update(g, &gh, gcm_aad, sizeof(gcm_aad));
	sm4_ghash_pad(g, &gh);
	sm4_gcm_first_ctr(ctr, iv0);
	if (enc) {
		sm4_gcm_encrypt_piece(ti->ops, g, rk, &gh, dst, src, len, ctr);
	} else {
		sm4_ghash_update(g, &gh, src, len);
		sm4_mode_ctr_crypt(ti->ops, rk, dst, src, len, ctr);
	}
	sm4_gcm_tag(ti->ops, g, rk, &gh, iv0, sizeof(gcm_aad), len, tag);
}
#endif

/*
 * One ccm(sm4) request as crypto/sm4_mac_glue.c runs it: B0 and the
 * associated data, then encryption (MAC and CTR, fused or one after the
 * other) and the tag after the ciphertext; or decryption's MAC pass, the
 * tag, and the CTR pass (timed as if the tag matched).
 */
#ifdef SM4_CCM_SHORT_MAX
static void ccm_request(const struct sm4_test_impl *ti, const struct keys *k,
			bool enc, u8 *dst, const u8 *src, unsigned int len)
{
	const struct sm4_mac_ops *m = ti->mac_ops;
	const u32 *rk = k->data.rkey_enc;
	struct sm4_ccm_state st;
	u8 tag[SM4_BLOCK_SIZE];

	sm4_ccm_start(ti->ops, m, rk, &st, ccm_iv, sizeof(gcm_aad), len,
		      SM4_BLOCK_SIZE);
	sm4_mac_update(m, rk, &st.mac, gcm_aad, sizeof(gcm_aad));
	sm4_mac_flush(m, rk, &st.mac);
	if (enc) {
		sm4_ccm_encrypt(ti->ops, m, rk, &st, dst, src, len);
		sm4_ccm_tag(&st, dst + len);
		return;
	}
	sm4_ccm_decrypt_mac(ti->ops, m, rk, &st, src, len);
	sm4_ccm_decrypt_mac_end(m, rk, &st);
	sm4_ccm_tag(&st, tag);
	sm4_ccm_decrypt_rewind(&st);
	sm4_ccm_decrypt_piece(ti->ops, rk, &st, dst, src, len);
}
#else
/*
 * A tree from before the ccm keystream was made up front (as for
 * gcm_request above): B0 pending, E(A0) and the text's CTR after it.
 */
static void ccm_request(const struct sm4_test_impl *ti, const struct keys *k,
			bool enc, u8 *dst, const u8 *src, unsigned int len)
{
	const struct sm4_mac_ops *m = ti->mac_ops;
	const u32 *rk = k->data.rkey_enc;
	struct sm4_ccm_state st;
	u8 tag[SM4_BLOCK_SIZE], ctr[SM4_BLOCK_SIZE];

	sm4_ccm_start(m, rk, &st, ccm_iv, sizeof(gcm_aad), len,
		      SM4_BLOCK_SIZE);
	sm4_mac_update(m, rk, &st.mac, gcm_aad, sizeof(gcm_aad));
	sm4_mac_flush(m, rk, &st.mac);
	if (enc) {
		sm4_ccm_encrypt(ti->ops, m, rk, &st, dst, src, len);
		sm4_ccm_tag(ti->ops, rk, &st, dst + len);
		return;
	}
	sm4_ccm_decrypt_mac(ti->ops, m, rk, &st, src, len);
	sm4_ccm_decrypt_mac_end(ti->ops, m, rk, &st);
	sm4_ccm_tag(ti->ops, rk, &st, tag);
	sm4_ccm_text_ctr(&st, ctr);
	sm4_mode_ctr_crypt(ti->ops, rk, dst, src, len, ctr);
}
#endif

/* One cmac(sm4) digest of @len bytes (subkeys made at setkey time). */
static void cmac_request(const struct sm4_test_impl *ti, const struct keys *k,
			 u8 *dst, const u8 *src, unsigned int len)
{
	struct sm4_mac_state st;

	memset(&st, 0, sizeof(st));
	sm4_mac_update(ti->mac_ops, k->data.rkey_enc, &st, src, len);
	sm4_mac_final_keyed(ti->mac_ops, k->data.rkey_enc, &st, k->k1, k->k2);
	memcpy(dst, st.dg, SM4_BLOCK_SIZE);
}

static void request(int i, int r, u8 *dst, const u8 *src, unsigned int len)
{
	const struct sm4_test_impl *ti = bimpls[i].ti;
	const struct row *row = &rows[r];
	struct keys *k = &keys[i];
	u8 st[SM4_BLOCK_SIZE];

	if (ti) {
		const struct sm4_mode_ops *ops = ti->ops;
		const u32 *rk = row->enc ? k->data.rkey_enc : k->data.rkey_dec;

		switch (row->kind) {
		case K_ECB:
			ops->ecb(rk, dst, src, len / SM4_BLOCK_SIZE);
			break;
		case K_CBC:
			memcpy(st, iv0, sizeof(st));
			(row->enc ? ops->cbc_enc : ops->cbc_dec)
				(rk, dst, src, len / SM4_BLOCK_SIZE, st);
			break;
		case K_CFB:
			memcpy(st, iv0, sizeof(st));
			(row->enc ? sm4_mode_cfb_encrypt : sm4_mode_cfb_decrypt)
				(ops, k->data.rkey_enc, dst, src, len, st);
			break;
		case K_CTR:
			memcpy(st, iv0, sizeof(st));
			sm4_mode_ctr_crypt(ops, k->data.rkey_enc, dst, src, len,
					   st);
			break;
		case K_XTS:
			ops->ecb(k->tweak.rkey_enc, st, iv0, 1);
			(row->enc ? sm4_mode_xts_encrypt : sm4_mode_xts_decrypt)
				(ops, rk, dst, src, len, st);
			break;
		case K_GCM:
			gcm_request(ti, k, row->enc, dst, src, len);
			break;
		case K_CCM:
			ccm_request(ti, k, row->enc, dst, src, len);
			break;
		case K_CMAC:
			cmac_request(ti, k, dst, src, len);
			break;
		default:
			break;
		}
		return;
	}
#ifdef HAVE_GCRYPT
	if (row->kind == K_CMAC) {
		size_t n = SM4_BLOCK_SIZE;

		gcry_mac_reset(k->mh);
		gcry_mac_write(k->mh, src, len);
		gcry_mac_read(k->mh, dst, &n);
		return;
	}
	if (row->kind == K_CCM) {
		gcry_cipher_hd_t h = k->h[K_CCM];
		u64 lens[3] = { len, sizeof(gcm_aad), SM4_BLOCK_SIZE };

		gcry_cipher_setiv(h, ccm_iv + 1, 15 - (ccm_iv[0] + 1));
		gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, lens, sizeof(lens));
		gcry_cipher_authenticate(h, gcm_aad, sizeof(gcm_aad));
		if (row->enc) {
			gcry_cipher_encrypt(h, dst, len, src, len);
			gcry_cipher_gettag(h, dst + len, SM4_BLOCK_SIZE);
		} else {
			gcry_cipher_decrypt(h, dst, len, src, len);
			gcry_cipher_checktag(h, st, sizeof(st));
		}
		return;
	}
	{
		gcry_cipher_hd_t h = k->h[row->kind];

		if (row->kind == K_CTR)
			gcry_cipher_setctr(h, iv0, 16);
		else if (row->kind == K_GCM)
			gcry_cipher_setiv(h, iv0, SM4_GCM_IV_SIZE);
		else if (row->kind != K_ECB)
			gcry_cipher_setiv(h, iv0, 16);
		if (row->kind == K_GCM)
			gcry_cipher_authenticate(h, gcm_aad, sizeof(gcm_aad));
		if (row->enc)
			gcry_cipher_encrypt(h, dst, len, src, len);
		else
			gcry_cipher_decrypt(h, dst, len, src, len);
		/* The tag (decryption: checked, failing on random data). */
		if (row->kind == K_GCM && row->enc)
			gcry_cipher_gettag(h, st, sizeof(st));
		else if (row->kind == K_GCM)
			gcry_cipher_checktag(h, st, sizeof(st));
	}
#endif
}

/* ---- Measuring ------------------------------------------------------ */

static unsigned int opt_runs = 7;
static double opt_run_ms = 2.0;
static const char *opt_only;
static bool opt_best;			/* -b: fastest run, not the median */
static const char *opt_sizes;		/* -s: comma list of size columns */
static const char *opt_modes;		/* -m: comma list of CSV mode names */

/* Whether @name is one of the comma-separated @list (NULL: all). */
static bool in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	if (!list)
		return true;
	for (p = list; *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : p + strlen(p))
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return true;
	return false;
}

/* Whether cell (row @r, column @s) is measured in this run (-m, -s). */
static bool cell_wanted(int r, int s)
{
	return in_list(opt_modes, rows[r].mode) &&
	       in_list(opt_sizes, size_names[s]);
}

static u8 *src_buf, *dst_buf, *ref_buf;

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void measure(int i, int r, int s)
{
	unsigned int len = req_len(r, s);
	struct cell *c = &cells[i][r][s];
	double per[64], cyc[64], target, best_tsc = 0, cal_prev = 0;
	double best_cal = 0;
	unsigned long n, j;
	unsigned int run, tsc_runs = 0;
	u64 t0, t1;

	if (!cell_wanted(r, s))
		return;
	if (rows[r].kind == K_GCM && bimpls[i].ti && !bimpls[i].ti->gcm)
		return;		/* no GHASH functions: no gcm cell */
	if (mac_row(r) && bimpls[i].ti && !bimpls[i].ti->mac_ops)
		return;		/* no MAC functions: no ccm/cmac cell */
	if (!mac_row(r) && bimpls[i].template_of >= 0)
		return;		/* template/X: only the MAC family's rows */

	/* Correctness of this very request first. */
	memset(dst_buf, 0, out_len(r, s));
	request(i, r, dst_buf, src_buf, len);
	if (memcmp(dst_buf, ref_buf, out_len(r, s))) {
		fprintf(stderr, "MISMATCH: %s %s %u bytes differs from the reference\n",
			bimpls[i].name, rows[r].label, len);
		c->bad = true;
	}

	/* Requests per run so that one run lasts about opt_run_ms. */
	target = opt_run_ms * 1e-3 * tick_hz;
	n = 1;
	for (;;) {
		t0 = ticks();
		for (j = 0; j < n; j++)
			request(i, r, dst_buf, src_buf, len);
		t1 = ticks();
		if ((double)(t1 - t0) >= target / 4 || n >= (1ul << 30))
			break;
		n *= 2;
	}
	if (t1 > t0)
		n = (unsigned long)((double)n * target / (double)(t1 - t0));
	if (n < 1)
		n = 1;

	/*
	 * A run during which the thread lost the CPU (its CPU time falls
	 * short of the elapsed time: other load on the machine, or time
	 * stolen by the hypervisor) would measure the machine's load, not
	 * the code.  Such a run is timed by the thread's CPU time instead,
	 * converted to ticks, and counted.
	 */
	if (core_by_imul)
		cal_prev = imul_beside_run();
	for (run = 0; run < opt_runs; run++) {
		u64 w0 = now_ns(), c0 = thread_ns(), w1, c1;
		double cal = 0, cal_next = 0;

		t0 = ticks();
		for (j = 0; j < n; j++)
			request(i, r, dst_buf, src_buf, len);
		t1 = ticks();
		c1 = thread_ns();
		w1 = now_ns();
		if (core_by_imul) {
			cal_next = imul_beside_run();
			cal = cal_next > cal_prev ? cal_next : cal_prev;
			cal_prev = cal_next;
		}
		if ((double)(c1 - c0) < 0.97 * (double)(w1 - w0)) {
			c->preempted++;
			per[run] = (double)(c1 - c0) * tick_hz / 1e9 /
				   (double)n;
		} else {
			per[run] = (double)(t1 - t0) / (double)n;
			cyc[tsc_runs] = per[run] * cal;
			if (!tsc_runs || per[run] < best_tsc) {
				best_tsc = per[run];
				best_cal = cal;
			}
			tsc_runs++;
		}
	}
	qsort(per, opt_runs, sizeof(per[0]), cmp_double);
	/*
	 * -b: the fastest run timed by the TSC; a run timed by CPU time is
	 * another clock (coarser, and blind to what the hypervisor took),
	 * used only if no run kept the CPU throughout.
	 */
	c->ticks_per_req = !opt_best ? per[opt_runs / 2] :
			   tsc_runs ? best_tsc : per[0];
	c->spread = (per[opt_runs - 1] - per[0]) / c->ticks_per_req;
	/*
	 * The core clock beside the runs: with -b the one beside the run
	 * taken; else the median core cycles of the TSC-timed runs over the
	 * median ticks.  Kept only if plausible.
	 */
	if (opt_best) {
		c->core_per_tick = tsc_runs ? best_cal : 0;
	} else if (tsc_runs) {
		qsort(cyc, tsc_runs, sizeof(cyc[0]), cmp_double);
		c->core_per_tick = cyc[tsc_runs / 2] / c->ticks_per_req;
	} else {
		c->core_per_tick = 0;
	}
	if (!core_by_imul || !core_clock_plausible(c->core_per_tick))
		c->core_per_tick = 0;
	c->reqs = n;
	c->done = true;
}

/* Reference output of row @r, column @s: libgcrypt, else generic C. */
static void make_reference(int ref, int r, int s)
{
	if (cell_wanted(r, s))
		request(ref, r, ref_buf, src_buf, req_len(r, s));
}

static double mbps(int i, int r, int s)
{
	const struct cell *c = &cells[i][r][s];

	if (!c->done)
		return 0;
	return req_len(r, s) / (c->ticks_per_req / tick_hz) / 1e6;
}

static double cpb(int i, int r, int s)
{
	const struct cell *c = &cells[i][r][s];

	return c->done ? c->ticks_per_req / req_len(r, s) : 0;
}

/* ---- libgcrypt backend probe ---------------------------------------- */

#ifdef HAVE_GCRYPT
/*
 * libgcrypt does not say which SM4 code it runs.  Find out: in child
 * processes with hardware features switched off one after another, time
 * CTR over 64 KiB; the feature whose removal slows SM4 down is the one
 * its fastest path needs.
 */
static double gcry_ctr_mbps(const char *disable)
{
	static u8 buf[65536];
	gcry_cipher_hd_t h;
	u64 t0, t1, best = ~0ull;
	int k, j;

	if (disable && *disable)
		gcry_control(GCRYCTL_DISABLE_HWF, disable, NULL);
	if (!gcry_check_version(NULL))
		return 0;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	if (gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CTR, 0) ||
	    gcry_cipher_setkey(h, key, 16))
		return 0;
	for (k = 0; k < 5; k++) {
		t0 = ticks();
		for (j = 0; j < 8; j++) {
			gcry_cipher_setctr(h, iv0, 16);
			gcry_cipher_encrypt(h, buf, sizeof(buf), NULL, 0);
		}
		t1 = ticks();
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	gcry_cipher_close(h);
	return 8.0 * sizeof(buf) / (best / tick_hz) / 1e6;
}

static double probe_child(const char *disable)
{
	int fd[2];
	double v = 0;
	pid_t pid;

	if (pipe(fd))
		return 0;
	pid = fork();
	if (pid < 0)
		return 0;
	if (pid == 0) {
		v = gcry_ctr_mbps(disable);
		if (write(fd[1], &v, sizeof(v)) != sizeof(v))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], &v, sizeof(v)) != sizeof(v))
		v = 0;
	close(fd[0]);
	waitpid(pid, NULL, 0);
	return v;
}

static void probe_gcry_backend(char *out, size_t outlen)
{
	/*
	 * Step i switches off one more feature; the first step that slows
	 * SM4 down names the path that was running.  Names libgcrypt does
	 * not know stop the parsing of the list, so they come last.
	 */
	static const struct {
		const char *disable, *lost;
	} steps[] = {
		{ "intel-gfni", "GFNI" },
		{ "intel-avx2,intel-gfni", "AES-NI/AVX2" },
		{ "intel-avx2,intel-avx,intel-gfni", "AES-NI/AVX" },
		{ "intel-avx2,intel-avx,intel-aesni,intel-gfni", "AES-NI" },
	};
	double prev = probe_child(NULL), v;
	const char *path = NULL;
	size_t i, n;

	n = snprintf(out, outlen, "CTR 64KiB %.0f MB/s", prev);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		v = probe_child(steps[i].disable);
		if (n < outlen)
			n += snprintf(out + n, outlen - n, ", -%s %.0f",
				      steps[i].disable, v);
		if (!path && v > 0 && v < prev * 0.8)
			path = steps[i].lost;
		prev = v;
	}
	if (n < outlen)
		snprintf(out + n, outlen - n, " => %s", path ? path :
			 "generic C (no feature made a difference)");
}
#endif

/* ---- Output ----------------------------------------------------------- */

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];

	snprintf(buf, len, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (p && (!strncmp(line, "model name", 10) ||
			  !strncmp(line, "CPU part", 8))) {
			p += 2;
			p[strcspn(p, "\n")] = 0;
			snprintf(buf, len, "%s", p);
			break;
		}
	}
	fclose(f);
}

/* Whether -i names implementation @n ("sm4-x" or "x"). */
static bool names_impl(const char *n)
{
	return !strcmp(n, opt_only) ||
	       (!strncmp(n, "sm4-", 4) && !strcmp(n + 4, opt_only));
}

/* -i: the named implementation plus the two baselines. */
static bool selected(int i, int generic, int gcry)
{
	const char *n = bimpls[i].name;

	if (!opt_only || i == generic || i == gcry)
		return true;
	if (bimpls[i].path) {
		n = bimpls[i].path->driver;
		if (bimpls[i].path->driver2 &&
		    names_impl(bimpls[i].path->driver2))
			return true;
	}
	if (bimpls[i].template_of >= 0)
		n = bimpls[bimpls[i].template_of].name;
	return names_impl(n);
}

typedef double (*value_fn)(int i, int r, int s);

/* print_table() prints only the rows this accepts, if set. */
static bool (*row_filter)(int r);

/* Core cycles per tick of a cell: measured beside it, else at start. */
static double cell_core_per_tick(int i, int r, int s)
{
	return cells[i][r][s].core_per_tick > 0 ?
	       cells[i][r][s].core_per_tick : core_per_tick;
}

static double core_cpb(int i, int r, int s)
{
	return cpb(i, r, s) * cell_core_per_tick(i, r, s);
}

static void print_table(const char *title, value_fn val, int i, int base,
			const char *fmt)
{
	int r, s;

	int w = 12;

	for (r = 0; r < n_bimpls; r++)
		if ((int)strlen(bimpls[r].name) > w)
			w = strlen(bimpls[r].name);
	if ((int)strlen(title) > w)
		w = strlen(title);
	printf("\n%-*s |", w, title);
	for (s = 0; s < N_SIZES; s++)
		printf(" %7s", size_names[s]);
	printf("\n");
	for (r = 0; r < N_ROWS; r++) {
		if ((row_filter && !row_filter(r)) ||
		    !in_list(opt_modes, rows[r].mode))
			continue;
		printf("%-*s |", w, rows[r].label);
		for (s = 0; s < N_SIZES; s++) {
			double v = val(i, r, s);

			if (base >= 0) {
				double b = val(base, r, s);

				v = b > 0 ? v / b : 0;
			}
			if (cells[i][r][s].bad)
				printf(" %7s", "BAD");
			else if (v <= 0)
				printf(" %7s", "-");
			else
				printf(fmt, v);
		}
		printf("\n");
	}
}

static int matching_path(int i);

static void write_csv(const char *path, int generic, int gcry)
{
	FILE *f = fopen(path, "w");
	int i, r, s;

	if (!f) {
		perror(path);
		exit(1);
	}
	fputs("# SPDX-License-Identifier: GPL-2.0\n", f);
	fputs("implementation,mode,direction,size,bytes,mb_per_s,ticks_per_byte,core_cycles_per_byte,ns_per_request,requests_per_run,runs,cputime_runs,spread,vs_generic,vs_libgcrypt,vs_libgcrypt_same_path\n",
	      f);
	for (i = 0; i < n_bimpls; i++)
		for (r = 0; r < N_ROWS; r++)
			for (s = 0; s < N_SIZES; s++) {
				const struct cell *c = &cells[i][r][s];
				double m = mbps(i, r, s);

				if (!c->done)
					continue;
				fprintf(f, "%s,%s,%s,%s,%u,%.3f,%.4f,", bimpls[i].name,
					rows[r].mode, rows[r].dir,
					size_names[s], req_len(r, s), m,
					cpb(i, r, s));
				if (core_per_tick > 0)
					fprintf(f, "%.4f", core_cpb(i, r, s));
				fprintf(f, ",%.1f,%lu,%u,%u,%.3f,",
					c->ticks_per_req / tick_hz * 1e9,
					c->reqs, opt_runs, c->preempted,
					c->spread);
				if (generic >= 0 && mbps(generic, r, s) > 0)
					fprintf(f, "%.3f", m / mbps(generic, r, s));
				fprintf(f, ",");
				if (gcry >= 0 && mbps(gcry, r, s) > 0)
					fprintf(f, "%.3f", m / mbps(gcry, r, s));
				fprintf(f, ",");
				if (matching_path(i) >= 0 &&
				    mbps(matching_path(i), r, s) > 0)
					fprintf(f, "%.3f", m /
						mbps(matching_path(i), r, s));
				fprintf(f, "\n");
			}
	fclose(f);
}

static void help(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-c CPU] [-r RUNS] [-b] [-t MS] [-s SIZES] [-m MODES] [-o CSV] [-i IMPL] [-l]\n"
		"  -c CPU   pin to this CPU\n"
		"  -r RUNS  timed runs per cell, median reported (default 7)\n"
		"  -b       report the fastest run of a cell, not the median\n"
		"  -s SIZES only these size columns (e.g. 4096,1M)\n"
		"  -m MODES only these modes (e.g. ecb,ctr,xts,cbc,gcm)\n"
		"  -t MS    length of one run in milliseconds (default 2)\n"
		"  -o CSV   write every cell as CSV\n"
		"  -i IMPL  only this implementation (e.g. aesni-avx) besides\n"
		"           the baselines sm4-generic and libgcrypt\n"
		"  -l       list the implementations and exit\n", prog);
	exit(2);
}

#ifdef HAVE_GCRYPT
static bool path_runs_here(const struct gcry_path *p)
{
	int k;

	__builtin_cpu_init();
	for (k = 0; k < 3 && p->cpu[k]; k++) {
		/* __builtin_cpu_supports() needs a literal: compare names. */
		bool has = !strcmp(p->cpu[k], "gfni") ?
			   __builtin_cpu_supports("gfni") :
			   !strcmp(p->cpu[k], "avx512f") ?
			   __builtin_cpu_supports("avx512f") :
			   !strcmp(p->cpu[k], "avx512vl") ?
			   __builtin_cpu_supports("avx512vl") :
			   !strcmp(p->cpu[k], "avx2") ?
			   __builtin_cpu_supports("avx2") :
			   !strcmp(p->cpu[k], "avx") ?
			   __builtin_cpu_supports("avx") :
			   !strcmp(p->cpu[k], "aes") ?
			   __builtin_cpu_supports("aes") : false;

		if (!has)
			return false;
	}
	return true;
}

/*
 * Measure every cell of libgcrypt path implementation @i in a child
 * process (libgcrypt not yet initialised in the parent), reference
 * outputs from sm4-generic @generic; the cells come back through a pipe.
 */
static int measure_gcry_path(int i, int generic)
{
	const struct gcry_path *p = bimpls[i].path;
	int fd[2], r, s, ok = 0;
	pid_t pid;

	if (pipe(fd))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		char names[128], *name, *save = NULL;

		snprintf(names, sizeof(names), "%s", p->disable ? p->disable : "");
		for (name = strtok_r(names, ",", &save); name;
		     name = strtok_r(NULL, ",", &save))
			gcry_control(GCRYCTL_DISABLE_HWF, name, NULL);
		if (!gcry_check_version(NULL) || setup_keys(i))
			_exit(1);
		gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
		for (r = 0; r < N_ROWS; r++) {
			for (s = 0; s < N_SIZES; s++) {
				make_reference(generic, r, s);
				measure(i, r, s);
			}
		}
		if (write(fd[1], cells[i], sizeof(cells[i])) !=
		    sizeof(cells[i]))
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (read(fd[0], cells[i], sizeof(cells[i])) == sizeof(cells[i]))
		ok = 1;
	close(fd[0]);
	waitpid(pid, NULL, 0);
	return ok ? 0 : -1;
}
#endif

/* The libgcrypt path matching implementation @i, or -1. */
static int matching_path(int i)
{
	int j;

	for (j = 0; j < n_bimpls; j++)
		if (bimpls[j].path &&
		    (!strcmp(bimpls[j].path->driver, bimpls[i].name) ||
		     (bimpls[j].path->driver2 &&
		      !strcmp(bimpls[j].path->driver2, bimpls[i].name))))
			return j;
	return -1;
}

int main(int argc, char **argv)
{
	const char *csv = NULL;
	char why[256] = "", model[256];
#ifdef HAVE_GCRYPT
	char probe[512] = "";
#endif
	struct sm4_test_impl *ti;
	int generic = -1, gcry = -1, ref;
	int opt, cpu = -1, i, n, r, s, nbad = 0, ndisc = 0;
	bool list = false;
	u64 t_start;

	while ((opt = getopt(argc, argv, "c:r:bt:s:m:o:i:lh")) != -1) {
		switch (opt) {
		case 'c':
			cpu = atoi(optarg);
			break;
		case 'r':
			opt_runs = atoi(optarg);
			if (opt_runs < 1 || opt_runs > 64)
				help(argv[0]);
			break;
		case 'b':
			opt_best = true;
			break;
		case 's':
			opt_sizes = optarg;
			break;
		case 'm':
			opt_modes = optarg;
			break;
		case 't':
			opt_run_ms = atof(optarg);
			if (opt_run_ms <= 0)
				help(argv[0]);
			break;
		case 'o':
			csv = optarg;
			break;
		case 'i':
			opt_only = optarg;
			break;
		case 'l':
			list = true;
			break;
		default:
			help(argv[0]);
		}
	}

	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) {
			perror("sched_setaffinity");
			return 1;
		}
	}

	calibrate_ticks();
	for (i = 0; i < MAX_IMPLS; i++)
		bimpls[i].template_of = -1;

	/* The portable code first, then the backends, then libgcrypt. */
	snprintf(bimpls[n_bimpls].name, sizeof(bimpls[0].name), "sm4-generic");
	bimpls[n_bimpls].ti = &generic_impl;
	generic = n_bimpls++;
	for (ti = sm4_test_impl_list(); ti && n_bimpls < MAX_IMPLS - 1; ti = ti->next) {
		if (!strcmp(ti->name, "generic"))
			continue;
		if (ti->available && !ti->available()) {
			printf("# %s: not available on this CPU, skipped\n",
			       ti->name);
			continue;
		}
		snprintf(bimpls[n_bimpls].name, sizeof(bimpls[0].name),
			 "sm4-%s", ti->name);
		bimpls[n_bimpls++].ti = ti;
	}
	/* What the kernel's ccm/cmac templates do over each of them. */
	for (i = 0, n = n_bimpls; i < n && n_bimpls < MAX_IMPLS - 1; i++) {
		struct sm4_test_impl *t = &template_impls[n_bimpls];

		if (i == generic || !bimpls[i].ti->mac_ops)
			continue;
		*t = *bimpls[i].ti;
		t->mac_ops = &template_mac_ops;
		t->gcm = NULL;
		snprintf(bimpls[n_bimpls].name, sizeof(bimpls[0].name),
			 "template/%s", t->name);
		bimpls[n_bimpls].ti = t;
		bimpls[n_bimpls++].template_of = i;
	}
#ifdef HAVE_GCRYPT
	for (i = 0; i < (int)ARRAY_SIZE(gcry_paths) && n_bimpls < MAX_IMPLS - 1;
	     i++) {
		if (!path_runs_here(&gcry_paths[i])) {
			printf("# %s: this CPU lacks its instructions, not measured\n",
			       gcry_paths[i].name);
			continue;
		}
		snprintf(bimpls[n_bimpls].name, sizeof(bimpls[0].name), "%s",
			 gcry_paths[i].name);
		bimpls[n_bimpls].ti = NULL;
		bimpls[n_bimpls++].path = &gcry_paths[i];
	}
	probe_gcry_backend(probe, sizeof(probe));
	/* Initialised only after the forced paths ran in their children. */
	snprintf(bimpls[n_bimpls].name, sizeof(bimpls[0].name), "libgcrypt");
	bimpls[n_bimpls].ti = NULL;
	gcry = n_bimpls++;
#endif
	if (list) {
		for (i = 0; i < n_bimpls; i++)
			printf("%s\n", bimpls[i].name);
		return 0;
	}
	for (i = 0; i < n_bimpls; i++) {
		if (bimpls[i].path || i == gcry)
			continue;
		if (setup_keys(i)) {
			fprintf(stderr, "%s: key setup failed\n",
				bimpls[i].name);
			return 1;
		}
	}

	src_buf = aligned_alloc(64, MAX_LEN);
	dst_buf = aligned_alloc(64, MAX_LEN);
	ref_buf = aligned_alloc(64, MAX_LEN);
	if (!src_buf || !dst_buf || !ref_buf)
		return 1;
	srand(1);
	for (i = 0; i < MAX_LEN; i++)
		src_buf[i] = rand();

	calibrate_core_cycles(why, sizeof(why));
	cpu_model(model, sizeof(model));
	if (cpu >= 0)
		printf("# sm4-bench: %s, pinned to CPU %d\n", model, cpu);
	else
		printf("# sm4-bench: %s, not pinned\n", model);
	printf("# %s: %.1f MHz (measured against CLOCK_MONOTONIC_RAW); "
	       "cycles/B below are %s ticks per byte\n",
	       tick_name, tick_hz / 1e6, tick_name);
	printf("#   (= core cycles only at a core clock equal to the %s rate; turbo makes real cycles higher)\n",
	       tick_name);
	printf("# core cycle counter: %s\n", why);
	if (fpu_save_restore_ticks() > 0)
		printf("# kernel_fpu_begin/end estimate: one XSAVE + XRSTOR of all XCR0 state = %.0f TSC ticks per request (not in the figures below)\n",
		       fpu_save_restore_ticks());
	printf("# %s of %u runs of ~%.1f ms per cell; ECB/CBC/XTS run 1424 bytes in the 1420 column (as tcrypt)\n",
	       opt_best ? "fastest" : "median", opt_runs, opt_run_ms);

	t_start = now_ns();
#ifdef HAVE_GCRYPT
	for (i = 0; i < n_bimpls; i++) {
		if (!bimpls[i].path || !selected(i, generic, gcry))
			continue;
		if (measure_gcry_path(i, generic)) {
			fprintf(stderr, "%s: measuring failed\n", bimpls[i].name);
			return 1;
		}
		for (r = 0; r < N_ROWS; r++)
			for (s = 0; s < N_SIZES; s++) {
				nbad += cells[i][r][s].bad;
				ndisc += cells[i][r][s].preempted;
			}
	}
	if (!gcry_check_version(NULL) || setup_keys(gcry)) {
		fprintf(stderr, "libgcrypt initialisation failed\n");
		return 1;
	}
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	printf("# libgcrypt %s; SM4 path probe: %s\n",
	       gcry_check_version(NULL), probe);
#else
	printf("# libgcrypt: not built in (reference: sm4-generic)\n");
#endif
	ref = gcry >= 0 ? gcry : generic;
	for (r = 0; r < N_ROWS; r++) {
		for (s = 0; s < N_SIZES; s++) {
			make_reference(ref, r, s);
			for (i = 0; i < n_bimpls; i++) {
				if (!selected(i, generic, gcry) ||
				    bimpls[i].path)
					continue;
				measure(i, r, s);
				nbad += cells[i][r][s].bad;
				ndisc += cells[i][r][s].preempted;
			}
		}
	}

	printf("\n## Throughput, MB/s (10^6 bytes/s)\n");
	for (i = 0; i < n_bimpls; i++)
		print_table(bimpls[i].name, mbps, i, -1, " %7.2f");
	printf("\n## %s ticks per byte\n", tick_name);
	for (i = 0; i < n_bimpls; i++)
		print_table(bimpls[i].name, cpb, i, -1, " %7.2f");
	if (core_per_tick > 0) {
		if (core_by_imul)
			printf("\n## Core cycles per byte (%s ticks x the IMUL chains' cycles per tick beside the cell's %s)\n",
			       tick_name, opt_best ? "fastest run" : "runs");
		else
			printf("\n## Core cycles per byte (%s ticks x %.3f)\n",
			       tick_name, core_per_tick);
		for (i = 0; i < n_bimpls; i++)
			print_table(bimpls[i].name, core_cpb, i, -1, " %7.2f");
	}
	if (n_bimpls > 1) {
		printf("\n## Speed-up over sm4-generic (same run)\n");
		for (i = 0; i < n_bimpls; i++)
			if (i != generic)
				print_table(bimpls[i].name, mbps, i, generic,
					    " %6.2fx");
	}
	if (gcry >= 0) {
		printf("\n## Speed relative to libgcrypt's path for the same instructions (same run; >1: faster)\n");
		for (i = 0; i < n_bimpls; i++) {
			char title[2 * 64 + 8];
			int m = matching_path(i);

			if (m < 0 || !cells[m][0][0].done)
				continue;
			snprintf(title, sizeof(title), "%.60s / %.60s",
				 bimpls[i].name, bimpls[m].name);
			print_table(title, mbps, i, m, " %6.2fx");
		}
		printf("\n## Speed relative to libgcrypt as it runs by default (its best path here; same run)\n");
		for (i = 0; i < n_bimpls; i++)
			if (i != gcry && !bimpls[i].path)
				print_table(bimpls[i].name, mbps, i, gcry,
					    " %6.2fx");
	}
	printf("\n## CCM and CMAC: this project's MAC functions relative to the kernel's templates over the same driver (same run; >1: faster)\n");
	for (i = 0; i < n_bimpls; i++) {
		char title[2 * 64 + 8];
		int d = bimpls[i].template_of;

		if (d < 0 || !selected(i, generic, gcry))
			continue;
		snprintf(title, sizeof(title), "%.60s / %.60s",
			 bimpls[d].name, bimpls[i].name);
		row_filter = mac_row;
		print_table(title, mbps, d, i, " %6.2fx");
		row_filter = NULL;
	}
	printf("\n## GCM relative to CTR on the same implementation (same run; 1: GCM costs nothing over CTR)\n");
	for (i = 0; i < n_bimpls; i++) {
		int gr = -1, cr = -1;

		for (r = 0; r < N_ROWS; r++) {
			if (rows[r].kind == K_GCM && rows[r].enc)
				gr = r;
			if (rows[r].kind == K_CTR)
				cr = r;
		}
		printf("%-28s |", bimpls[i].name);
		for (s = 0; s < N_SIZES; s++) {
			double c = mbps(i, cr, s), g = mbps(i, gr, s);

			if (c > 0 && g > 0)
				printf(" %6.2fx", g / c);
			else
				printf(" %7s", "-");
		}
		printf("\n");
	}
	printf("\n# measured in %.1f s; %d runs lost the CPU and were timed by thread CPU time; %d mismatching cells\n",
	       (now_ns() - t_start) / 1e9, ndisc, nbad);
	if (csv)
		write_csv(csv, generic, gcry);
	return nbad ? 1 : 0;
}
