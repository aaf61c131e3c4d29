// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-afalg aead VECTORS / sm4-afalg hash VECTORS: the AEADs (gcm(sm4),
 * ccm(sm4), rfc4106(gcm(sm4))) and MACs (cmac(sm4), xcbc(sm4),
 * cbcmac(sm4)) through AF_ALG "aead" and "hash" sockets, against the
 * vectors libgcrypt computed on the host (gen-vectors --aead,
 * tests/common/sm4-aead-vectors.h).
 *
 * Each algorithm is bound by its generic name and then by every driver
 * /proc/crypto lists under that name.  AEAD cases run in both directions
 * (the data sent in one piece or split at random points with MSG_MORE,
 * received into one buffer or two iovecs), then decryption with a bit
 * flipped in the tag (and, when there is AAD, in the AAD) must fail with
 * EBADMSG.  Output buffers sit between guard bytes that must not change.
 * A name the kernel cannot instantiate is a SKIP, as is "no driver of
 * this project" (only the kernel's template serves the name): only what
 * ran counts as a PASS.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/if_alg.h>

#include "sm4-vectors.h"
#include "sm4-aead-vectors.h"

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif

#define GUARD		64
#define MAX_DRIVERS	16
#define NAME_MAX_LEN	128

int sm4_afalg_aead(int argc, char **argv, bool mac);

static unsigned long n_pass, n_fail, n_skip;

static void say(const char *tag, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void say(const char *tag, const char *fmt, ...)
{
	va_list ap;

	if (!strcmp(tag, "PASS"))
		n_pass++;
	else if (!strcmp(tag, "FAIL"))
		n_fail++;
	else
		n_skip++;
	printf("%s: ", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

struct vecs {
	struct sm4_aeh *v;
	unsigned long n;
};

static int load(struct vecs *vs, const char *path)
{
	char magic[8];
	uint32_t count;
	FILE *f = fopen(path, "rb");
	int r;

	if (!f || fread(magic, 1, 8, f) != 8 ||
	    memcmp(magic, SM4_AEH_MAGIC, 8) || sm4_aeh_get32(f, &count))
		goto bad;
	vs->v = calloc(count + 1, sizeof(*vs->v));
	vs->n = 0;
	while (vs->v && vs->n < count && (r = sm4_aeh_read(f, &vs->v[vs->n])) == 1)
		vs->n++;
	if (!vs->v || vs->n != count)
		goto bad;
	fclose(f);
	return 0;
bad:
	fprintf(stderr, "%s: missing or corrupt vector file\n", path);
	if (f)
		fclose(f);
	return -1;
}

/*
 * The drivers /proc/crypto lists under @name (not internal), highest
 * priority first (the first is what the generic name gets); *@ours: how
 * many of them come from this project's modules (sm4*).
 */
static int drivers_of(const char *name, char drv[][NAME_MAX_LEN], int *ours)
{
	char line[512], n[NAME_MAX_LEN] = "", d[NAME_MAX_LEN] = "",
	     m[NAME_MAX_LEN] = "";
	int prio[MAX_DRIVERS], p = 0, count = 0, i, j;
	bool internal = false;
	FILE *f = fopen("/proc/crypto", "r");

	*ours = 0;
	if (!f)
		return 0;
	for (;;) {
		char *got = fgets(line, sizeof(line), f);

		if (!got || line[0] == '\n') {
			bool dup = false;

			for (i = 0; i < count; i++)
				dup |= !strcmp(drv[i], d);
			if (!strcmp(n, name) && !internal && !dup &&
			    count < MAX_DRIVERS) {
				for (i = count; i > 0 && prio[i - 1] < p; i--)
					;
				for (j = count++; j > i; j--) {
					prio[j] = prio[j - 1];
					strcpy(drv[j], drv[j - 1]);
				}
				prio[i] = p;
				strcpy(drv[i], d);
				*ours += !strncmp(m, "sm4", 3);
			}
			n[0] = d[0] = m[0] = 0;
			internal = false;
			p = 0;
			if (!got)
				break;
			continue;
		}
		sscanf(line, "name : %127s", n);
		sscanf(line, "driver : %127s", d);
		sscanf(line, "module : %127s", m);
		sscanf(line, "priority : %d", &p);
		if (!strncmp(line, "internal", 8) && strstr(line, "yes"))
			internal = true;
	}
	fclose(f);
	return count;
}

static int tfm_bind(const char *type, const char *name)
{
	struct sockaddr_alg sa = { .salg_family = AF_ALG };
	int fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);

	strncpy((char *)sa.salg_type, type, sizeof(sa.salg_type) - 1);
	strncpy((char *)sa.salg_name, name, sizeof(sa.salg_name) - 1);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static uint64_t rng_state = 0x5eed;

static uint64_t rnd(void)
{
	return sm4_vec_rand(&rng_state);
}

static void guard_fill(uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < GUARD; i++)
		b[i] = b[GUARD + n + i] = (uint8_t)(0xa5 ^ i);
}

static bool guard_ok(const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < GUARD; i++)
		if (b[i] != (uint8_t)(0xa5 ^ i) ||
		    b[GUARD + n + i] != (uint8_t)(0xa5 ^ i))
			return false;
	return true;
}

/*
 * One AEAD request on a fresh op socket of @tfm: send @in (@inlen
 * bytes, split at random points when @split), receive @outlen bytes
 * into @out (two iovecs when @split).  Returns the received count or
 * -errno.
 */
static long aead_op(int tfm, const struct sm4_aeh *v, bool enc,
		    const uint8_t *in, size_t inlen, uint8_t *out,
		    size_t outlen, bool split)
{
	char cbuf[CMSG_SPACE(4) + CMSG_SPACE(sizeof(struct af_alg_iv) + 16) +
		  CMSG_SPACE(4)] = { 0 };
	struct msghdr msg = { .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	struct iovec iov[2];
	size_t sent = 0, cut;
	long ret;
	int op = accept4(tfm, NULL, NULL, SOCK_CLOEXEC);

	if (op < 0)
		return -errno;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(4);
	*(uint32_t *)CMSG_DATA(c) = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_IV;
	c->cmsg_len = CMSG_LEN(sizeof(*aiv) + v->ivlen);
	aiv = (struct af_alg_iv *)CMSG_DATA(c);
	aiv->ivlen = v->ivlen;
	memcpy(aiv->iv, v->iv, v->ivlen);
	c = CMSG_NXTHDR(&msg, c);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_AEAD_ASSOCLEN;
	c->cmsg_len = CMSG_LEN(4);
	*(uint32_t *)CMSG_DATA(c) = v->aadlen;
	msg.msg_iov = iov;
	msg.msg_iovlen = 1;
	do {
		cut = inlen - sent;
		if (split && cut > 1)
			cut = 1 + rnd() % (cut - 1);
		iov[0].iov_base = (void *)(in + sent);
		iov[0].iov_len = cut;
		ret = sendmsg(op, &msg, sent + cut < inlen ? MSG_MORE : 0);
		if (ret < 0) {
			ret = -errno;
			goto out;
		}
		sent += ret;
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
	} while (sent < inlen);
	cut = split && outlen > 1 ? 1 + rnd() % (outlen - 1) : outlen;
	iov[0].iov_base = out;
	iov[0].iov_len = cut;
	iov[1].iov_base = out + cut;
	iov[1].iov_len = outlen - cut;
	ret = readv(op, iov, 2);
	if (ret < 0)
		ret = -errno;
out:
	close(op);
	return ret;
}

/* Returns true if the case passed; *@why says what failed. */
static bool aead_case(int tfm, const struct sm4_aeh *v, uint8_t *buf,
		      uint8_t *in, const char **why)
{
	size_t ct = v->len + v->taglen, enc_out = v->aadlen + ct;
	uint8_t *out = buf + GUARD;
	bool split = rnd() & 1;
	long r;

	if (setsockopt(tfm, SOL_ALG, ALG_SET_KEY, v->key, v->keylen) ||
	    setsockopt(tfm, SOL_ALG, ALG_SET_AEAD_AUTHSIZE, NULL, v->taglen)) {
		*why = "setkey/setauthsize refused";
		return false;
	}
	/* Encrypt: AAD || text -> AAD || ciphertext || tag. */
	memcpy(in, v->aad, v->aadlen);
	memcpy(in + v->aadlen, v->text, v->len);
	guard_fill(buf, enc_out);
	r = aead_op(tfm, v, true, in, v->aadlen + v->len, out, enc_out, split);
	if (r != (long)enc_out || memcmp(out + v->aadlen, v->out, ct)) {
		*why = r < 0 ? "encryption failed" : "encryption mismatch";
		return false;
	}
	if (!guard_ok(buf, enc_out)) {
		*why = "encryption wrote outside its buffer";
		return false;
	}
	/* Decrypt: AAD || ciphertext || tag -> AAD || text. */
	memcpy(in + v->aadlen, v->out, ct);
	guard_fill(buf, v->aadlen + v->len);
	r = aead_op(tfm, v, false, in, enc_out, out, v->aadlen + v->len, split);
	if (r != (long)(v->aadlen + v->len) ||
	    memcmp(out + v->aadlen, v->text, v->len)) {
		*why = r < 0 ? "decryption failed" : "decryption mismatch";
		return false;
	}
	if (!guard_ok(buf, v->aadlen + v->len)) {
		*why = "decryption wrote outside its buffer";
		return false;
	}
	/* A flipped tag bit, then (with AAD) a flipped AAD bit: EBADMSG. */
	in[enc_out - 1 - rnd() % v->taglen] ^= 1 << (rnd() % 8);
	r = aead_op(tfm, v, false, in, enc_out, out, v->aadlen + v->len, split);
	if (r != -EBADMSG) {
		*why = "a flipped tag bit did not give EBADMSG";
		return false;
	}
	memcpy(in + v->aadlen, v->out, ct);
	if (v->aadlen > (v->kind == SM4_AEH_RFC4106 ? 8u : 0u)) {
		in[rnd() % (v->aadlen - (v->kind == SM4_AEH_RFC4106 ? 8 : 0))] ^= 0x80;
		r = aead_op(tfm, v, false, in, enc_out, out,
			    v->aadlen + v->len, split);
		if (r != -EBADMSG) {
			*why = "a flipped AAD bit did not give EBADMSG";
			return false;
		}
	}
	return true;
}

static bool mac_case(int tfm, const struct sm4_aeh *v, uint8_t *buf,
		     const char **why)
{
	size_t sent = 0, cut;
	uint8_t *out = buf + GUARD;
	long r;
	int op;

	if (setsockopt(tfm, SOL_ALG, ALG_SET_KEY, v->key, v->keylen)) {
		*why = "setkey refused";
		return false;
	}
	op = accept4(tfm, NULL, NULL, SOCK_CLOEXEC);
	if (op < 0) {
		*why = "accept failed";
		return false;
	}
	while (sent < v->len) {
		cut = v->len - sent;
		if (cut > 1 && rnd() % 2)
			cut = 1 + rnd() % (cut - 1);
		r = send(op, v->text + sent, cut,
			 sent + cut < v->len ? MSG_MORE : 0);
		if (r <= 0) {
			close(op);
			*why = "send failed";
			return false;
		}
		sent += r;
	}
	guard_fill(buf, v->taglen);
	r = read(op, out, v->taglen);
	close(op);
	if (r != v->taglen || memcmp(out, v->out, v->taglen)) {
		*why = r < 0 ? "digest failed" : "digest mismatch";
		return false;
	}
	if (!guard_ok(buf, v->taglen)) {
		*why = "the digest was written outside its buffer";
		return false;
	}
	return true;
}

/* All vectors of @kind through @name (generic or driver name). */
static void run_name(const struct vecs *vs, int kind, const char *name,
		     const char *served)
{
	const char *type = sm4_aeh_is_mac(kind) ? "hash" : "aead";
	unsigned long i, cases = 0, bad = 0, first = 0;
	const char *why = NULL, *first_why = NULL;
	uint8_t *buf = malloc(2 * GUARD + 3 * 4096 + 64);
	uint8_t *in = malloc(3 * 4096 + 64);
	int tfm = tfm_bind(type, name);

	if (tfm < 0 || !buf || !in) {
		say("FAIL", "%s %s: bind: %s", type, name, strerror(-tfm));
		goto out;
	}
	for (i = 0; i < vs->n; i++) {
		const struct sm4_aeh *v = &vs->v[i];
		bool ok;

		if (v->kind != kind)
			continue;
		cases++;
		ok = sm4_aeh_is_mac(kind) ? mac_case(tfm, v, buf, &why) :
					    aead_case(tfm, v, buf, in, &why);
		if (!ok && !bad++) {
			first = i;
			first_why = why;
		}
	}
	if (bad)
		say("FAIL", "%s %s [%s]: %lu of %lu cases failed; first: case %lu (AAD %u, text %u, tag %u): %s",
		    type, name, served, bad, cases, first, vs->v[first].aadlen,
		    vs->v[first].len, vs->v[first].taglen, first_why);
	else
		say("PASS", "%s %s [%s]: %lu cases (AAD and text 0..4 KiB, tags %s; libgcrypt)%s",
		    type, name, served, cases,
		    sm4_aeh_is_mac(kind) ? "16 bytes" : "of every length",
		    sm4_aeh_is_mac(kind) ? "" :
		    ", both directions, flipped tag/AAD bits -> EBADMSG");
out:
	if (tfm >= 0)
		close(tfm);
	free(buf);
	free(in);
}

int sm4_afalg_aead(int argc, char **argv, bool mac)
{
	char drv[MAX_DRIVERS][NAME_MAX_LEN];
	const char *type = mac ? "hash" : "aead";
	struct vecs vs;
	int kind, tfm, n, ours, i;

	if (argc != 1) {
		fprintf(stderr, "usage: sm4-afalg %s VECTORS\n", type);
		return 2;
	}
	if (load(&vs, argv[0]))
		return 1;
	for (kind = 0; kind < SM4_AEH_NUM_KINDS; kind++) {
		const char *name = sm4_aeh_names[kind];

		if (sm4_aeh_is_mac(kind) != mac)
			continue;
		/* The generic name first: it instantiates the template. */
		tfm = tfm_bind(type, name);
		if (tfm < 0) {
			say("SKIP", "%s %s: this kernel cannot instantiate it (%s)",
			    type, name, strerror(-tfm));
			continue;
		}
		close(tfm);
		n = drivers_of(name, drv, &ours);
		run_name(&vs, kind, name, n ? drv[0] : "?");
		for (i = 0; i < n; i++)
			run_name(&vs, kind, drv[i], drv[i]);
		if (!ours)
			say("SKIP", "%s %s by a driver of this project: none registered (served by %s)",
			    type, name, n ? drv[0] : "?");
	}
	printf("%lu passed, %lu failed, %lu skipped\n", n_pass, n_fail, n_skip);
	return n_fail ? 1 : 0;
}
