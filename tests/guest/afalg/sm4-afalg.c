// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-afalg: test SM4 skcipher drivers of the running kernel through
 * AF_ALG, from userspace inside a test guest.
 *
 *   sm4-afalg check VECTORS [--max N] [--seed S] [DRIVER...]
 *   sm4-afalg cross [--cases N] [--seed S] [DRIVER...]
 *   sm4-afalg badinput [DRIVER...]
 *   sm4-afalg stress --workers N --seconds S [--vectors FILE] [DRIVER...]
 *   sm4-afalg resolve [-q] [--proc] [--aead|--hash] NAME...
 *   sm4-afalg once DRIVER LEN [--op enc|dec] [--ref REF]
 *   sm4-afalg setkey skcipher|aead DRIVER
 *   sm4-afalg list
 *   sm4-afalg aead|hash VECTORS       (sm4-afalg-aead.c)
 *
 * "check" compares every driver with expected results computed on the
 * host by libgcrypt (tests/common/sm4-vectors.h).  Requests reach the
 * kernel in several shapes: one sendmsg, several sendmsg pieces split at
 * random points, in place in the user buffer, spliced pages (the kernel
 * then works in place on the very pages it writes), scattered iovecs
 * and several receives that continue one chained stream.  Buffers are
 * placed at unaligned offsets and across page boundaries, between guard
 * bytes that must stay unchanged, and an out-of-place request must leave
 * its source as it was.
 *
 * "cross" runs random cases through every driver of a mode, the generic
 * names and the kernel's templates over sm4-generic: the same output, and
 * the same IV left behind (the block a second request on the socket,
 * sent without an IV, produces), as crypto/cts.c leaves it for cts.
 *
 * Every check prints a "PASS: " or "FAIL: " line; the last line of
 * every invocation is "N passed, N failed", and the exit status is
 * non-zero if anything failed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <linux/if_alg.h>
#include <linux/netlink.h>
#include <linux/cryptouser.h>

#include "sm4-vectors.h"

int sm4_afalg_aead(int argc, char **argv, bool mac);

#ifndef AF_ALG
#define AF_ALG 38
#endif
#ifndef SOL_ALG
#define SOL_ALG 279
#endif
#ifndef NETLINK_CRYPTO
#define NETLINK_CRYPTO 21
#endif

/* Flag values of struct crypto_user_alg.cru_flags (include/linux/crypto.h). */
#define ALG_TYPE_MASK		0x0000000f
#define ALG_TYPE_AEAD		0x00000003
#define ALG_TYPE_SKCIPHER	0x00000005
#define ALG_TYPE_SHASH		0x0000000e
#define ALG_TYPE_AHASH		0x0000000f
#define ALG_FLAG_LARVAL		0x00000010
#define ALG_FLAG_TESTED		0x00000400
#define ALG_FLAG_INTERNAL	0x00002000

#define SM4_BLOCK_SIZE	16
#define NAME_LEN	64
#define MAX_TARGETS	64
#define MAX_PIECES	8
#define DETAIL_LIMIT	3	/* mismatches printed in full per check */

static const char * const mode_names[SM4_VEC_NUM_MODES] = {
	"ecb", "cbc", "cfb", "ctr", "xts", "cts",
};

/* The generic names, and how each mode's drivers are named. */
static const char * const alg_names[SM4_VEC_NUM_MODES] = {
	"ecb(sm4)", "cbc(sm4)", "cfb(sm4)", "ctr(sm4)", "xts(sm4)",
	"cts(cbc(sm4))",
};
static const char * const driver_prefixes[SM4_VEC_NUM_MODES] = {
	"ecb-sm4-", "cbc-sm4-", "cfb-sm4-", "ctr-sm4-", "xts-sm4-",
	"cts-cbc-sm4-",
};

/* ---- Results -------------------------------------------------------- */

static unsigned long n_passed, n_failed;

static void vresult(bool ok, const char *fmt, va_list ap)
{
	char line[1024];
	int n;

	n = snprintf(line, sizeof(line), "%s: ", ok ? "PASS" : "FAIL");
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	/* One write per line: workers of "stress" share stdout. */
	printf("%s\n", line);
	fflush(stdout);
	if (ok)
		n_passed++;
	else
		n_failed++;
}

static void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vresult(ok, fmt, ap);
	va_end(ap);
}

static void info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void hex(char *out, size_t outlen, const uint8_t *p, size_t n)
{
	size_t i;

	out[0] = 0;
	for (i = 0; i < n && 2 * i + 3 <= outlen; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static uint64_t rnd(uint64_t *s)
{
	return sm4_vec_rand(s);
}

/* Uniform-enough integer in [lo, hi]. */
static size_t rnd_range(uint64_t *s, size_t lo, size_t hi)
{
	return lo + (size_t)(rnd(s) % (hi - lo + 1));
}

/* ---- The kernel's algorithm table ----------------------------------- */

struct alg_entry {
	char name[NAME_LEN];
	char driver[NAME_LEN];
	char module[NAME_LEN];
	int priority;
	unsigned int refcnt;
	bool skcipher;
	bool aead;
	bool hash;
	bool internal;
	bool tested;
};

struct alg_table {
	struct alg_entry *e;
	int n;
	const char *source;
};

static void table_free(struct alg_table *t)
{
	free(t->e);
	t->e = NULL;
	t->n = 0;
}

static struct alg_entry *table_add(struct alg_table *t)
{
	struct alg_entry *e;

	e = realloc(t->e, (t->n + 1) * sizeof(*e));
	if (!e) {
		perror("realloc");
		exit(2);
	}
	t->e = e;
	memset(&e[t->n], 0, sizeof(*e));
	return &e[t->n++];
}

static void copy_name(char *dst, const char *src)
{
	snprintf(dst, NAME_LEN, "%.*s", NAME_LEN - 1, src);
}

/* Parse /proc/crypto; 0 or -errno. */
static int table_read_proc(struct alg_table *t)
{
	char line[256], key[64], val[192];
	struct alg_entry *cur = NULL;
	FILE *f = fopen("/proc/crypto", "r");

	t->e = NULL;
	t->n = 0;
	t->source = "/proc/crypto";
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		char *k, *v, *end;

		if (!colon) {
			cur = NULL;
			continue;
		}
		*colon = 0;
		k = line;
		v = colon + 1;
		while (*v == ' ' || *v == '\t')
			v++;
		end = v + strlen(v);
		while (end > v && (end[-1] == '\n' || end[-1] == ' '))
			*--end = 0;
		end = k + strlen(k);
		while (end > k && (end[-1] == ' ' || end[-1] == '\t'))
			*--end = 0;
		snprintf(key, sizeof(key), "%s", k);
		snprintf(val, sizeof(val), "%s", v);

		if (!strcmp(key, "name")) {
			cur = table_add(t);
			copy_name(cur->name, val);
			continue;
		}
		if (!cur)
			continue;
		if (!strcmp(key, "driver"))
			copy_name(cur->driver, val);
		else if (!strcmp(key, "module"))
			copy_name(cur->module, val);
		else if (!strcmp(key, "priority"))
			cur->priority = atoi(val);
		else if (!strcmp(key, "refcnt"))
			cur->refcnt = strtoul(val, NULL, 10);
		else if (!strcmp(key, "selftest"))
			cur->tested = !strcmp(val, "passed");
		else if (!strcmp(key, "internal"))
			cur->internal = !strcmp(val, "yes");
		else if (!strcmp(key, "type")) {
			cur->skcipher = !strcmp(val, "skcipher");
			cur->aead = !strcmp(val, "aead");
			cur->hash = !strcmp(val, "shash") ||
				    !strcmp(val, "ahash");
		}
	}
	fclose(f);
	return 0;
}

/* Dump the table over NETLINK_CRYPTO (crypto_user); 0 or -errno. */
static int table_read_netlink(struct alg_table *t)
{
	struct {
		struct nlmsghdr h;
		struct crypto_user_alg a;
	} req;
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	size_t bufsize = 0;
	char *buf = NULL;
	int fd, err = 0;
	bool done = false;

	t->e = NULL;
	t->n = 0;
	t->source = "netlink";
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_CRYPTO);
	if (fd < 0)
		return -errno;

	memset(&req, 0, sizeof(req));
	req.h.nlmsg_len = sizeof(req);
	req.h.nlmsg_type = CRYPTO_MSG_GETALG;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.h.nlmsg_seq = 1;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0) {
		err = -errno;
		goto out;
	}

	while (!done) {
		struct nlmsghdr *h;
		ssize_t n;

		/* A dump may come in one large message: size it first. */
		n = recv(fd, NULL, 0, MSG_PEEK | MSG_TRUNC);
		if (n < 0) {
			err = -errno;
			goto out;
		}
		if ((size_t)n > bufsize) {
			free(buf);
			bufsize = n;
			buf = malloc(bufsize);
			if (!buf) {
				err = -ENOMEM;
				goto out;
			}
		}
		n = recv(fd, buf, bufsize, 0);
		if (n < 0) {
			err = -errno;
			goto out;
		}
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			struct crypto_user_alg *a;
			struct alg_entry *e;
			struct nlattr *na;
			int alen;

			if (h->nlmsg_type == NLMSG_DONE) {
				done = true;
				break;
			}
			if (h->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(h))->error;
				if (!err)
					err = -EPROTO;
				goto out;
			}
			if (h->nlmsg_type != CRYPTO_MSG_GETALG)
				continue;
			a = NLMSG_DATA(h);
			e = table_add(t);
			snprintf(e->name, NAME_LEN, "%.*s", NAME_LEN - 1,
				 a->cru_name);
			snprintf(e->driver, NAME_LEN, "%.*s", NAME_LEN - 1,
				 a->cru_driver_name);
			snprintf(e->module, NAME_LEN, "%.*s", NAME_LEN - 1,
				 a->cru_module_name);
			e->refcnt = a->cru_refcnt;
			e->skcipher = (a->cru_flags & ALG_TYPE_MASK) ==
				      ALG_TYPE_SKCIPHER &&
				      !(a->cru_flags & ALG_FLAG_LARVAL);
			e->aead = (a->cru_flags & ALG_TYPE_MASK) ==
				  ALG_TYPE_AEAD &&
				  !(a->cru_flags & ALG_FLAG_LARVAL);
			e->hash = ((a->cru_flags & ALG_TYPE_MASK) ==
				   ALG_TYPE_SHASH ||
				   (a->cru_flags & ALG_TYPE_MASK) ==
				   ALG_TYPE_AHASH) &&
				  !(a->cru_flags & ALG_FLAG_LARVAL);
			e->internal = a->cru_flags & ALG_FLAG_INTERNAL;
			e->tested = a->cru_flags & ALG_FLAG_TESTED;
			na = (struct nlattr *)((char *)a + NLMSG_ALIGN(sizeof(*a)));
			alen = (int)h->nlmsg_len - NLMSG_LENGTH(sizeof(*a));
			while (alen >= (int)sizeof(*na) &&
			       na->nla_len >= sizeof(*na) &&
			       na->nla_len <= alen) {
				if ((na->nla_type & NLA_TYPE_MASK) ==
				    CRYPTOCFGA_PRIORITY_VAL &&
				    na->nla_len >= NLA_HDRLEN + 4)
					memcpy(&e->priority,
					       (char *)na + NLA_HDRLEN, 4);
				alen -= NLA_ALIGN(na->nla_len);
				na = (struct nlattr *)((char *)na +
						       NLA_ALIGN(na->nla_len));
			}
		}
	}
out:
	free(buf);
	close(fd);
	if (err)
		table_free(t);
	return err;
}

static int name_mode(const char *name)
{
	int m;

	for (m = 0; m < SM4_VEC_NUM_MODES; m++)
		if (!strncmp(name, mode_names[m], 3) &&
		    (name[3] == '(' || name[3] == '-'))
			return m;
	return -1;
}

/* Is @e one of the "<mode>-sm4-<impl>" (or "cts-cbc-sm4-<impl>") skciphers? */
static bool is_sm4_driver(const struct alg_entry *e)
{
	int m = name_mode(e->driver);

	return e->skcipher && !e->internal && m >= 0 &&
	       !strncmp(e->driver, driver_prefixes[m],
			strlen(driver_prefixes[m]));
}

/* ---- AF_ALG --------------------------------------------------------- */

/* Bind an AF_ALG socket of @type ("skcipher", "aead") to @name. */
static int tfm_open_type(const char *name, const char *type)
{
	struct sockaddr_alg sa = {
		.salg_family = AF_ALG,
	};
	int fd;

	strcpy((char *)sa.salg_type, type);

	if (strlen(name) >= sizeof(sa.salg_name))
		return -ENAMETOOLONG;
	strcpy((char *)sa.salg_name, name);
	fd = socket(AF_ALG, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static int tfm_open(const char *name)
{
	return tfm_open_type(name, "skcipher");
}

static int tfm_setkey(int tfm, const uint8_t *key, unsigned int len)
{
	static const uint8_t dummy[1];

	/* A NULL pointer with length 0 is refused by some kernels. */
	if (setsockopt(tfm, SOL_ALG, ALG_SET_KEY, len ? key : dummy, len))
		return -errno;
	return 0;
}

static int op_open(int tfm)
{
	int fd = accept4(tfm, NULL, NULL, SOCK_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* The ways a request is handed to the kernel. */
enum variant {
	V_ONESHOT,	/* one sendmsg, one recv, aligned, out of place */
	V_PIECES,	/* sendmsg pieces (MSG_MORE), unaligned, out of place */
	V_INPLACE,	/* sendmsg pieces and recv on the same user buffer */
	V_SPLICE,	/* vmsplice + splice: kernel in place on user pages */
	V_IOV,		/* scattered iovecs on both sides */
	V_STREAM,	/* interleaved sends and recvs, chained IV */
	V_NUM
};

static const char * const variant_names[V_NUM] = {
	"oneshot", "pieces", "inplace", "splice", "iov", "stream",
};

struct request {
	int mode;
	bool enc;
	const uint8_t *iv;	/* NULL: send no IV (ECB) */
	unsigned int ivlen;
	enum variant variant;
	/* Filled in by run_request() for failure reports. */
	char shape[160];
};

/* Control message with ALG_SET_OP and, when @iv, ALG_SET_IV. */
static size_t build_cmsg(char *cbuf, size_t cbuflen, bool enc,
			 const uint8_t *iv, unsigned int ivlen)
{
	struct msghdr msg = {
		.msg_control = cbuf,
		.msg_controllen = cbuflen,
	};
	struct cmsghdr *c;
	struct af_alg_iv *aiv;
	size_t len = CMSG_SPACE(sizeof(uint32_t));

	memset(cbuf, 0, cbuflen);
	if (iv)
		len += CMSG_SPACE(sizeof(*aiv) + ivlen);
	if (len > cbuflen)
		return 0;
	msg.msg_controllen = len;
	c = CMSG_FIRSTHDR(&msg);
	c->cmsg_level = SOL_ALG;
	c->cmsg_type = ALG_SET_OP;
	c->cmsg_len = CMSG_LEN(sizeof(uint32_t));
	*(uint32_t *)CMSG_DATA(c) = enc ? ALG_OP_ENCRYPT : ALG_OP_DECRYPT;
	if (iv) {
		c = CMSG_NXTHDR(&msg, c);
		c->cmsg_level = SOL_ALG;
		c->cmsg_type = ALG_SET_IV;
		c->cmsg_len = CMSG_LEN(sizeof(*aiv) + ivlen);
		aiv = (struct af_alg_iv *)CMSG_DATA(c);
		aiv->ivlen = ivlen;
		memcpy(aiv->iv, iv, ivlen);
	}
	return len;
}

/*
 * sendmsg() @len bytes from @iov (already describing them), with the
 * control message when @cbuf, MSG_MORE when @more.  Retries short
 * writes.  0 or -errno.
 */
static int send_iov(int op, struct iovec *iov, int niov, char *cbuf,
		    size_t clen, bool more)
{
	struct msghdr msg = {
		.msg_iov = iov,
		.msg_iovlen = niov,
		.msg_control = cbuf,
		.msg_controllen = clen,
	};
	size_t left = 0;
	int i;

	for (i = 0; i < niov; i++)
		left += iov[i].iov_len;
	do {
		ssize_t n = sendmsg(op, &msg, more ? MSG_MORE : 0);

		if (n < 0)
			return -errno;
		if ((size_t)n > left)
			return -EOVERFLOW;
		left -= n;
		msg.msg_control = NULL;
		msg.msg_controllen = 0;
		/* Skip what was taken. */
		while (n > 0 && msg.msg_iovlen) {
			if ((size_t)n >= msg.msg_iov->iov_len) {
				n -= msg.msg_iov->iov_len;
				msg.msg_iov++;
				msg.msg_iovlen--;
			} else {
				msg.msg_iov->iov_base =
					(char *)msg.msg_iov->iov_base + n;
				msg.msg_iov->iov_len -= n;
				n = 0;
			}
		}
	} while (left);
	return 0;
}

static int send_buf(int op, const uint8_t *p, size_t len, char *cbuf,
		    size_t clen, bool more)
{
	struct iovec iov = { .iov_base = (void *)p, .iov_len = len };

	return send_iov(op, &iov, 1, cbuf, clen, more);
}

/* Receive exactly @len bytes into @iov; 0, -errno, or -EIO if short. */
static int recv_iov(int op, struct iovec *iov, int niov)
{
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = niov };
	size_t want = 0;
	ssize_t n;
	int i;

	for (i = 0; i < niov; i++)
		want += iov[i].iov_len;
	n = recvmsg(op, &msg, 0);
	if (n < 0)
		return -errno;
	return (size_t)n == want ? 0 : -EIO;
}

static int recv_buf(int op, uint8_t *p, size_t len)
{
	struct iovec iov = { .iov_base = p, .iov_len = len };

	return recv_iov(op, &iov, 1);
}

/* Split @len into @n > 0 pieces at random points; returns the count. */
static int split(uint64_t *rng, size_t len, int n, size_t *piece)
{
	size_t cut[MAX_PIECES];
	int i, j, count = 0;
	size_t prev = 0;

	if (n > MAX_PIECES)
		n = MAX_PIECES;
	for (i = 0; i < n - 1; i++)
		cut[i] = len ? rnd(rng) % (len + 1) : 0;
	/* Sort the cut points. */
	for (i = 1; i < n - 1; i++)
		for (j = i; j > 0 && cut[j - 1] > cut[j]; j--) {
			size_t tmp = cut[j];

			cut[j] = cut[j - 1];
			cut[j - 1] = tmp;
		}
	for (i = 0; i < n - 1; i++) {
		if (cut[i] == prev)
			continue;	/* no empty pieces */
		piece[count++] = cut[i] - prev;
		prev = cut[i];
	}
	if (len > prev || !count)
		piece[count++] = len - prev;
	return count;
}

/* The pipe for vmsplice(), one per process (stress workers fork). */
static int pipe_fds[2] = { -1, -1 };
static pid_t pipe_pid;

static int pipe_open(void)
{
	if (pipe_pid == getpid())
		return 0;
	if (pipe_fds[0] >= 0) {
		close(pipe_fds[0]);
		close(pipe_fds[1]);
	}
	if (pipe2(pipe_fds, O_CLOEXEC)) {
		pipe_fds[0] = -1;
		pipe_fds[1] = -1;
		return -errno;
	}
	pipe_pid = getpid();
	return 0;
}

/* Append " a+b+c" describing @pieces to @s. */
static void describe_pieces(char *s, size_t slen, const size_t *piece, int n)
{
	size_t used = strlen(s);
	int i;

	for (i = 0; i < n && used + 12 < slen; i++)
		used += snprintf(s + used, slen - used, "%s%zu",
				 i ? "+" : " ", piece[i]);
}

/* Send @len bytes at @p through a pipe with vmsplice() and splice(). */
static int splice_in(int op, const uint8_t *p, size_t len)
{
	int err = pipe_open();

	if (err)
		return err;
	while (len) {
		struct iovec iov = { .iov_base = (void *)p, .iov_len = len };
		ssize_t n = vmsplice(pipe_fds[1], &iov, 1, 0);

		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= n;
		while (n) {
			ssize_t m = splice(pipe_fds[0], NULL, op, NULL, n,
					   SPLICE_F_MORE);

			if (m <= 0)
				return m < 0 ? -errno : -EIO;
			n -= m;
		}
	}
	return 0;
}

/*
 * Run one request on the op socket @op: @len bytes at @in to @out.
 * In-place variants require @in == @out.  0 or -errno (with the failing
 * step in r->shape).
 */
static int run_request(int op, struct request *r, const uint8_t *in,
		       uint8_t *out, size_t len, uint64_t *rng)
{
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 32)];
	size_t clen = build_cmsg(cbuf, sizeof(cbuf), r->enc, r->iv, r->ivlen);
	size_t piece[MAX_PIECES];
	struct iovec iov[MAX_PIECES];
	size_t pos = 0;
	int i, n, err = 0;
	const char *step = "sendmsg";

	snprintf(r->shape, sizeof(r->shape), "%s", variant_names[r->variant]);
	switch (r->variant) {
	case V_ONESHOT:
		err = send_buf(op, in, len, cbuf, clen, false);
		if (!err) {
			step = "recv";
			err = recv_buf(op, out, len);
		}
		break;

	case V_PIECES:
	case V_INPLACE:
		n = split(rng, len, (int)rnd_range(rng, 2, 6), piece);
		describe_pieces(r->shape, sizeof(r->shape), piece, n);
		for (i = 0; i < n && !err; i++) {
			err = send_buf(op, in + pos, piece[i],
				       i ? NULL : cbuf, i ? 0 : clen,
				       i < n - 1);
			pos += piece[i];
		}
		if (!err) {
			step = "recv";
			err = recv_buf(op, out, len);
		}
		break;

	case V_SPLICE:
		/* Open the request with the control message alone. */
		err = send_buf(op, in, 0, cbuf, clen, true);
		n = split(rng, len, (int)rnd_range(rng, 1, 4), piece);
		describe_pieces(r->shape, sizeof(r->shape), piece, n);
		step = "splice";
		for (i = 0; i < n && !err; i++) {
			err = splice_in(op, in + pos, piece[i]);
			pos += piece[i];
		}
		/* A final empty sendmsg without MSG_MORE ends the request. */
		if (!err) {
			step = "sendmsg (end)";
			err = send_buf(op, in, 0, NULL, 0, false);
		}
		if (!err) {
			step = "recv";
			err = recv_buf(op, out, len);
		}
		break;

	case V_IOV:
		n = split(rng, len, (int)rnd_range(rng, 2, MAX_PIECES), piece);
		describe_pieces(r->shape, sizeof(r->shape), piece, n);
		for (i = 0; i < n; i++) {
			iov[i].iov_base = (void *)(in + pos);
			iov[i].iov_len = piece[i];
			pos += piece[i];
		}
		err = send_iov(op, iov, n, cbuf, clen, false);
		if (err)
			break;
		n = split(rng, len, (int)rnd_range(rng, 2, MAX_PIECES), piece);
		strncat(r->shape, " ->", sizeof(r->shape) - strlen(r->shape) - 1);
		describe_pieces(r->shape, sizeof(r->shape), piece, n);
		for (i = 0, pos = 0; i < n; i++) {
			iov[i].iov_base = out + pos;
			iov[i].iov_len = piece[i];
			pos += piece[i];
		}
		step = "recvmsg";
		err = recv_iov(op, iov, n);
		break;

	case V_STREAM:
		/*
		 * Whole blocks at a time, each received before the next is
		 * sent; only the last piece may end in a partial block.
		 */
		n = split(rng, len / SM4_BLOCK_SIZE, (int)rnd_range(rng, 2, 5),
			  piece);
		for (i = 0; i < n; i++)
			piece[i] *= SM4_BLOCK_SIZE;
		if (!piece[0])
			n = 0;
		if (len % SM4_BLOCK_SIZE) {
			if (n)
				piece[n - 1] += len % SM4_BLOCK_SIZE;
			else
				piece[n++] = len;
		}
		describe_pieces(r->shape, sizeof(r->shape), piece, n);
		for (i = 0; i < n && !err; i++) {
			step = "sendmsg";
			err = send_buf(op, in + pos, piece[i],
				       i ? NULL : cbuf, i ? 0 : clen,
				       i < n - 1);
			if (!err) {
				step = "recv";
				err = recv_buf(op, out + pos, piece[i]);
			}
			pos += piece[i];
		}
		break;

	default:
		err = -EINVAL;
		break;
	}
	if (err) {
		size_t used = strlen(r->shape);

		snprintf(r->shape + used, sizeof(r->shape) - used,
			 " [%s: %s]", step, strerror(-err));
	}
	return err;
}

/* ---- Buffers -------------------------------------------------------- */

/*
 * Guard bytes: GUARD bytes of a pattern before (as far as the buffer
 * allows) and after every buffer a request reads or writes, checked
 * after it; an out-of-place request must
 * also leave its source unchanged.  The kernel writes the output straight
 * into the pages of the receive buffer, so a driver that writes past its
 * output shows up here.
 */
#define GUARD		64
#define GUARD_FAILED	(-EFAULT)

static unsigned long n_guarded, n_overruns, n_out_of_place, n_src_changed;

static uint8_t guard_byte(size_t i)
{
	return (uint8_t)(0x5a ^ (i * 29));
}

/* Fill the guards around [@off, @off + @len) of @buf. */
static void guard_fill(uint8_t *buf, size_t off, size_t len)
{
	size_t i;

	for (i = off > GUARD ? off - GUARD : 0; i < off; i++)
		buf[i] = guard_byte(i);
	for (i = off + len; i < off + len + GUARD; i++)
		buf[i] = guard_byte(i);
}

/*
 * The first changed guard byte around [@off, @off + @len) of @buf, as an
 * offset from the start (negative) or from the end (>= 0) of the data;
 * false if none changed.
 */
static bool guard_changed(const uint8_t *buf, size_t off, size_t len,
			  long *where)
{
	size_t i;

	for (i = off > GUARD ? off - GUARD : 0; i < off; i++)
		if (buf[i] != guard_byte(i)) {
			*where = (long)i - (long)off;
			return true;
		}
	for (i = off + len; i < off + len + GUARD; i++)
		if (buf[i] != guard_byte(i)) {
			*where = (long)(i - off - len);
			return true;
		}
	return false;
}

/*
 * Check the guards of a finished request; on a violation, say so in
 * r->shape and return GUARD_FAILED.
 */
static int guard_check(struct request *r, const uint8_t *in, size_t len,
		       const uint8_t *a, size_t off_in, const uint8_t *b,
		       size_t off_out, bool in_place)
{
	size_t used = strlen(r->shape), i;
	long where;

	n_guarded++;
	if (guard_changed(in_place ? a : b, off_out, len, &where)) {
		n_overruns++;
		snprintf(r->shape + used, sizeof(r->shape) - used,
			 " [guard: wrote outside the output, byte %+ld from its %s]",
			 where, where < 0 ? "start" : "end");
		return GUARD_FAILED;
	}
	if (in_place)
		return 0;
	n_out_of_place++;
	for (i = 0; i < len && a[off_in + i] == in[i]; i++)
		;
	if (i < len || guard_changed(a, off_in, len, &where)) {
		n_src_changed++;
		snprintf(r->shape + used, sizeof(r->shape) - used,
			 " [guard: the source changed, byte %+ld]",
			 i < len ? (long)i : where < 0 ? where : (long)len + where);
		return GUARD_FAILED;
	}
	return 0;
}

/* The PASS/FAIL lines of the guard checks of command @cmd. */
static void guard_report(const char *cmd)
{
	result(!n_overruns, "%s: guard bytes: %lu of %lu requests wrote outside their output buffer",
	       cmd, n_overruns, n_guarded);
	result(!n_src_changed, "%s: guard bytes: %lu of %lu out-of-place requests changed their source",
	       cmd, n_src_changed, n_out_of_place);
}

struct bufs {
	uint8_t *a, *b;
	size_t size;
};

static long page_size;

static void bufs_init(struct bufs *bf, size_t maxlen)
{
	size_t size = ((maxlen + 2 * page_size + 2 * GUARD) / page_size + 1) *
		      page_size;

	bf->a = mmap(NULL, size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	bf->b = mmap(NULL, size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (bf->a == MAP_FAILED || bf->b == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	bf->size = size;
}

static void bufs_free(struct bufs *bf)
{
	munmap(bf->a, bf->size);
	munmap(bf->b, bf->size);
}

/* An offset: half of the time 1..15, otherwise anywhere in a page. */
static size_t rnd_offset(uint64_t *rng)
{
	if (rnd(rng) & 1)
		return rnd_range(rng, 1, 15);
	return rnd_range(rng, 0, page_size - 1);
}

static enum variant pick_variant(int mode, uint64_t *rng)
{
	enum variant v = (enum variant)(rnd(rng) % V_NUM);

	/*
	 * XTS has no chaining value to continue a stream with; CTS's end
	 * is the request's.
	 */
	if (v == V_STREAM && (mode == SM4_VEC_XTS || mode == SM4_VEC_CTS))
		v = V_PIECES;
	return v;
}

/*
 * Process @len bytes of @in with request @r, in whichever buffer layout
 * its variant needs, and leave the output in *@outp.  0 or -errno.
 */
static int process(int op, struct request *r, struct bufs *bf,
		   const uint8_t *in, size_t len, uint8_t **outp,
		   uint64_t *rng)
{
	size_t off_in = 0, off_out = 0;
	uint8_t *src, *dst;
	bool in_place;
	size_t used;
	int err;

	switch (r->variant) {
	case V_ONESHOT:
		break;
	case V_INPLACE:
	case V_SPLICE:
		off_in = rnd_offset(rng);
		off_out = off_in;
		break;
	default:
		off_in = rnd_offset(rng);
		off_out = rnd_offset(rng);
		break;
	}
	in_place = r->variant == V_INPLACE || r->variant == V_SPLICE;
	src = bf->a + off_in;
	dst = in_place ? src : bf->b + off_out;
	memcpy(src, in, len);
	guard_fill(bf->a, off_in, len);
	if (!in_place) {
		memset(dst, 0xa5, len);
		guard_fill(bf->b, off_out, len);
	}
	err = run_request(op, r, src, dst, len, rng);
	used = strlen(r->shape);
	snprintf(r->shape + used, sizeof(r->shape) - used,
		 " off %zu/%zu", off_in, off_out);
	if (!err)
		err = guard_check(r, in, len, bf->a, off_in, bf->b, off_out,
				  in_place);
	*outp = dst;
	return err;
}

/* ---- Options ------------------------------------------------------- */

/*
 * Take the options "--NAME VALUE" or "--NAME=VALUE" of @names (NULL
 * terminated) out of @argv, anywhere among the positional arguments,
 * which are moved to the front.  @vals[i] receives the value of
 * @names[i] (left alone if absent).  Returns the number of positional
 * arguments, or -1 after printing an error.
 */
static int take_opts(const char *cmd, int argc, char **argv,
		     const char * const *names, const char **vals)
{
	int i, j, npos = 0;

	for (i = 0; i < argc; i++) {
		const char *arg = argv[i], *eq;
		size_t len;

		if (arg[0] != '-') {
			argv[npos++] = argv[i];
			continue;
		}
		eq = strchr(arg, '=');
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		for (j = 0; names[j]; j++)
			if (len == strlen(names[j]) &&
			    !strncmp(arg, names[j], len))
				break;
		if (!names[j]) {
			fprintf(stderr, "%s: unknown option %s\n", cmd, arg);
			return -1;
		}
		if (eq) {
			vals[j] = eq + 1;
		} else if (i + 1 < argc) {
			vals[j] = argv[++i];
		} else {
			fprintf(stderr, "%s: %s needs a value\n", cmd, arg);
			return -1;
		}
	}
	return npos;
}

/* ---- Targets (drivers under test) ----------------------------------- */

struct target {
	char name[NAME_LEN];
	int mode;
	int tfm;		/* bound socket, or -1 */
};

struct targets {
	struct target t[MAX_TARGETS];
	int n;
};

static void targets_add(struct targets *ts, const char *name)
{
	int i;

	for (i = 0; i < ts->n; i++)
		if (!strcmp(ts->t[i].name, name))
			return;
	if (ts->n == MAX_TARGETS) {
		fprintf(stderr, "too many drivers, ignoring %s\n", name);
		return;
	}
	copy_name(ts->t[ts->n].name, name);
	ts->t[ts->n].mode = name_mode(name);
	ts->t[ts->n].tfm = -1;
	ts->n++;
}

/* The reference chains of the kernel's own templates over sm4-generic. */
static const char * const template_names[SM4_VEC_NUM_MODES] = {
	"ecb(sm4-generic)", "cbc(sm4-generic)", "cfb(sm4-generic)",
	"ctr(sm4-generic)", "xts(ecb(sm4-generic))",
	"cts(cbc(sm4-generic))",
};

/*
 * Every "<mode>-sm4-*" skcipher of /proc/crypto, the generic names
 * "<mode>(sm4)", and with @templates the template chains over
 * sm4-generic that can be instantiated.
 */
static void targets_default(struct targets *ts, bool templates)
{
	struct alg_table t;
	int i, m;

	ts->n = 0;
	if (table_read_proc(&t))
		fprintf(stderr, "warning: cannot read /proc/crypto\n");
	for (m = 0; m < SM4_VEC_NUM_MODES; m++)
		for (i = 0; i < t.n; i++)
			if (is_sm4_driver(&t.e[i]) &&
			    name_mode(t.e[i].driver) == m)
				targets_add(ts, t.e[i].driver);
	table_free(&t);
	for (m = 0; m < SM4_VEC_NUM_MODES; m++)
		targets_add(ts, alg_names[m]);
	if (!templates)
		return;
	for (m = 0; m < SM4_VEC_NUM_MODES; m++) {
		int fd = tfm_open(template_names[m]);

		if (fd >= 0) {
			close(fd);
			targets_add(ts, template_names[m]);
		}
	}
}

/* Fill @ts from argv, or with the defaults.  -1 on a bad name. */
static int targets_from_args(struct targets *ts, int argc, char **argv,
			     bool templates)
{
	int i;

	if (!argc) {
		targets_default(ts, templates);
		return 0;
	}
	ts->n = 0;
	for (i = 0; i < argc; i++) {
		if (name_mode(argv[i]) < 0) {
			fprintf(stderr, "%s: cannot tell the mode of this name\n",
				argv[i]);
			return -1;
		}
		targets_add(ts, argv[i]);
	}
	return 0;
}

/* ---- resolve -------------------------------------------------------- */

static int table_read(struct alg_table *t, bool netlink)
{
	if (netlink && !table_read_netlink(t))
		return 0;
	return table_read_proc(t);
}

static bool same_entry(const struct alg_entry *a, const struct alg_entry *b)
{
	return !strcmp(a->driver, b->driver) && !strcmp(a->name, b->name) &&
	       !strcmp(a->module, b->module) && a->priority == b->priority;
}

/* resolve --aead, --hash: the candidates are AEADs or hashes. */
static bool resolve_aead, resolve_hash;

static bool entry_matches(const struct alg_entry *e, const char *name)
{
	return (resolve_hash ? e->hash : resolve_aead ? e->aead :
		e->skcipher) && !e->internal &&
	       (!strcmp(e->name, name) || !strcmp(e->driver, name));
}

/*
 * Which algorithm serves @name, bound on @tfm?  Candidates are the
 * skciphers (AEADs, hashes with resolve --aead, --hash) called @name (by name or driver
 * name); the one whose
 * reference count drops when @tfm is closed is the one the bind took.
 * When that is ambiguous, the tested candidate of highest priority.
 * Closes @tfm.  Fills @out and returns 0, or -ENOENT.
 */
static int resolve_bound(int tfm, const char *name, bool netlink,
			 struct alg_entry *out, const char **how)
{
	struct alg_table before, after;
	const struct alg_entry *best = NULL, *dropped = NULL;
	int i, j, ndropped = 0;

	table_read(&before, netlink);
	close(tfm);
	table_read(&after, netlink);
	for (i = 0; i < before.n; i++) {
		const struct alg_entry *e = &before.e[i];

		if (!entry_matches(e, name))
			continue;
		if (e->tested && (!best || e->priority > best->priority))
			best = e;
		for (j = 0; j < after.n; j++)
			if (same_entry(e, &after.e[j]) &&
			    after.e[j].refcnt < e->refcnt)
				break;
		if (j < after.n) {
			dropped = e;
			ndropped++;
		}
	}
	*how = before.source;
	if (ndropped == 1)
		*out = *dropped;
	else if (best)
		*out = *best;
	if (ndropped != 1)
		*how = "highest priority";
	table_free(&before);
	table_free(&after);
	return (ndropped == 1 || best) ? 0 : -ENOENT;
}

/* The driver serving @name, or "?" (into @drv). */
static void served_by(const char *name, char *drv)
{
	struct alg_entry e;
	const char *how;
	int fd = tfm_open(name);

	strcpy(drv, "?");
	if (fd >= 0 && !resolve_bound(fd, name, false, &e, &how))
		copy_name(drv, e.driver);
}

static int cmd_resolve(int argc, char **argv)
{
	bool quiet = false, netlink = true;
	const char *type = "skcipher";
	int i;

	for (i = 0; i < argc; i++) {
		struct alg_entry e;
		const char *how;
		int fd, err;

		if (!strcmp(argv[i], "-q")) {
			quiet = true;
			continue;
		}
		if (!strcmp(argv[i], "--proc")) {
			netlink = false;
			continue;
		}
		if (!strcmp(argv[i], "--aead")) {
			type = "aead";
			resolve_aead = true;
			continue;
		}
		if (!strcmp(argv[i], "--hash")) {
			type = "hash";
			resolve_hash = true;
			continue;
		}
		fd = tfm_open_type(argv[i], type);
		if (fd < 0 && quiet) {
			fprintf(stderr, "%s: bind: %s\n", argv[i],
				strerror(-fd));
			n_failed++;
			continue;
		}
		if (fd < 0) {
			result(false, "resolve %s: bind: %s", argv[i],
			       strerror(-fd));
			continue;
		}
		err = resolve_bound(fd, argv[i], netlink, &e, &how);
		if (quiet) {
			if (err)
				n_failed++;
			else
				printf("%s\n", e.driver);
			continue;
		}
		if (err)
			result(false, "resolve %s: bound, but no such entry in the algorithm table",
			       argv[i]);
		else
			result(true, "resolve %s -> %s (priority %d, module %s, by %s)",
			       argv[i], e.driver, e.priority, e.module, how);
	}
	return quiet ? -1 : 0;
}

/* ---- list ----------------------------------------------------------- */

static int cmd_list(void)
{
	struct alg_table t;
	int i, m, count = 0;

	if (table_read_proc(&t)) {
		result(false, "list: cannot read /proc/crypto: %s",
		       strerror(errno));
		return 0;
	}
	for (m = 0; m < SM4_VEC_NUM_MODES; m++)
		for (i = 0; i < t.n; i++) {
			const struct alg_entry *e = &t.e[i];

			if (!is_sm4_driver(e) || name_mode(e->driver) != m)
				continue;
			printf("%-24s %-10s priority %-5d module %-24s selftest %s\n",
			       e->driver, e->name, e->priority, e->module,
			       e->tested ? "passed" : "unknown");
			count++;
		}
	printf("list: %d SM4 skcipher drivers\n", count);
	table_free(&t);
	return 0;
}

/* ---- check ---------------------------------------------------------- */

struct vec_set {
	struct sm4_vec *v;
	long n;
	size_t maxlen;
	/* Indices of the records of each mode. */
	long *by_mode[SM4_VEC_NUM_MODES];
	long n_mode[SM4_VEC_NUM_MODES];
};

static int vec_load(struct vec_set *vs, const char *path)
{
	FILE *f = fopen(path, "rb");
	long count, i;
	int m, r;

	memset(vs, 0, sizeof(*vs));
	if (!f) {
		perror(path);
		return -1;
	}
	count = sm4_vec_read_header(f);
	if (count < 0) {
		fprintf(stderr, "%s: not a vector file\n", path);
		fclose(f);
		return -1;
	}
	vs->v = calloc(count ? count : 1, sizeof(*vs->v));
	for (m = 0; m < SM4_VEC_NUM_MODES; m++)
		vs->by_mode[m] = calloc(count ? count : 1, sizeof(long));
	for (i = 0; i < count; i++) {
		r = sm4_vec_read(f, &vs->v[i]);
		if (r != 1) {
			fprintf(stderr, "%s: record %ld: %s\n", path, i,
				r ? "corrupt" : "missing");
			fclose(f);
			return -1;
		}
		m = vs->v[i].mode;
		vs->by_mode[m][vs->n_mode[m]++] = i;
		if (vs->v[i].len > vs->maxlen)
			vs->maxlen = vs->v[i].len;
	}
	vs->n = count;
	fclose(f);
	return 0;
}

struct check_stats {
	unsigned long cases, ops, failures;
	/* Failed directions: wrong output, or a step that returned an error. */
	unsigned long mismatches, errors;
	unsigned long per_variant[V_NUM];
};

/* " = N oneshot + N pieces + ..." for a PASS line (static buffer). */
static const char *variant_counts(const struct check_stats *st)
{
	static char buf[160];
	size_t used = 0;
	int v;

	buf[0] = 0;
	for (v = 0; v < V_NUM; v++)
		used += snprintf(buf + used, sizeof(buf) - used, "%s%lu %s",
				 v ? " + " : " = ", st->per_variant[v],
				 variant_names[v]);
	return buf;
}

/* Print a mismatch: where it starts, and the block around it. */
static void report_mismatch(const char *what, const struct sm4_vec *v,
			    const struct request *r, const uint8_t *exp,
			    const uint8_t *got)
{
	char key[80], iv[40], e[40], g[40];
	size_t i, blk;

	for (i = 0; i < v->len && exp[i] == got[i]; i++)
		;
	blk = i / SM4_BLOCK_SIZE * SM4_BLOCK_SIZE;
	hex(key, sizeof(key), v->key, v->keylen);
	hex(iv, sizeof(iv), v->iv, 16);
	hex(e, sizeof(e), exp + blk, v->len - blk < 16 ? v->len - blk : 16);
	hex(g, sizeof(g), got + blk, v->len - blk < 16 ? v->len - blk : 16);
	info("  %s %s len %u: first difference at byte %zu (block %zu); %s\n",
	     what, r->enc ? "encrypt" : "decrypt", v->len, i,
	     i / SM4_BLOCK_SIZE, r->shape);
	info("    key %s iv %s\n    expected %s\n    got      %s\n",
	     key, iv, e, g);
}

/*
 * Run one vector through driver @tfm in both directions; returns the
 * number of failed directions (0..2).  @what names the case.
 */
static int check_vector(int tfm, const struct sm4_vec *v, struct bufs *bf,
			uint64_t *rng, struct check_stats *st, const char *what,
			bool verbose)
{
	int dir, op, err, bad = 0;

	err = tfm_setkey(tfm, v->key, v->keylen);
	if (err) {
		if (verbose)
			info("  %s: setkey (%u bytes): %s\n", what, v->keylen,
			     strerror(-err));
		st->errors += 2;
		return 2;
	}
	op = op_open(tfm);
	if (op < 0) {
		if (verbose)
			info("  %s: accept: %s\n", what, strerror(-op));
		st->errors += 2;
		return 2;
	}
	for (dir = 0; dir < 2; dir++) {
		struct request r = {
			.mode = v->mode,
			.enc = dir == 0,
			.iv = v->mode == SM4_VEC_ECB ? NULL : v->iv,
			.ivlen = v->mode == SM4_VEC_ECB ? 0 : 16,
			.variant = pick_variant(v->mode, rng),
		};
		const uint8_t *in = r.enc ? v->pt : v->ct;
		const uint8_t *exp = r.enc ? v->ct : v->pt;
		uint8_t *out;

		st->ops++;
		st->per_variant[r.variant]++;
		err = process(op, &r, bf, in, v->len, &out, rng);
		if (err) {
			/* The socket may be in any state now: start over. */
			if (verbose)
				info("  %s %s len %u: %s\n", what,
				     r.enc ? "encrypt" : "decrypt", v->len,
				     r.shape);
			bad++;
			st->errors++;
			close(op);
			op = op_open(tfm);
			if (op < 0) {
				st->errors += 1 - dir;
				return 2;
			}
			continue;
		}
		if (memcmp(out, exp, v->len)) {
			if (verbose)
				report_mismatch(what, v, &r, exp, out);
			bad++;
			st->mismatches++;
		}
	}
	close(op);
	return bad;
}

static int cmd_check(int argc, char **argv)
{
	static const char * const names[] = { "--max", "--seed", NULL };
	const char *vals[2] = { NULL, NULL };
	struct targets ts;
	struct vec_set vs;
	unsigned long max = ~0UL;
	uint64_t seed = 0x5eed;
	const char *path;
	struct bufs bf;
	int i;

	argc = take_opts("check", argc, argv, names, vals);
	if (argc < 0)
		return 2;
	if (argc < 1) {
		fprintf(stderr, "check: missing VECTORS\n");
		return 2;
	}
	if (vals[0])
		max = strtoul(vals[0], NULL, 0);
	if (vals[1])
		seed = strtoull(vals[1], NULL, 0);
	path = argv[0];
	argc--;
	argv++;
	if (targets_from_args(&ts, argc, argv, false))
		return 2;
	if (vec_load(&vs, path)) {
		result(false, "check: cannot load %s", path);
		return 0;
	}
	bufs_init(&bf, vs.maxlen);
	info("check: %ld vectors from %s (longest %zu bytes), seed %#" PRIx64 "\n",
	     vs.n, path, vs.maxlen, seed);

	for (i = 0; i < ts.n; i++) {
		struct target *t = &ts.t[i];
		struct check_stats st = { 0 };
		uint64_t rng = seed ^ (uint64_t)i << 32;
		char drv[NAME_LEN], what[96];
		unsigned long overruns0 = n_overruns;
		unsigned long src_changed0 = n_src_changed;
		double t0 = now();
		long k, count;
		int tfm;

		served_by(t->name, drv);
		tfm = tfm_open(t->name);
		if (tfm < 0) {
			result(false, "check %s: bind: %s", t->name,
			       strerror(-tfm));
			continue;
		}
		count = vs.n_mode[t->mode];
		if ((unsigned long)count > max)
			count = (long)max;
		for (k = 0; k < count; k++) {
			const struct sm4_vec *v = &vs.v[vs.by_mode[t->mode][k]];
			int bad;

			snprintf(what, sizeof(what), "%s case %ld",
				 t->name, k);
			bad = check_vector(tfm, v, &bf, &rng, &st, what,
					   st.failures < DETAIL_LIMIT);
			st.cases++;
			st.failures += bad != 0;
		}
		close(tfm);
		if (!count)
			result(false, "check %s: no %s vectors in %s", t->name,
			       mode_names[t->mode], path);
		else if (st.failures)
			result(false, "check %s [%s]: %lu of %lu cases failed: %lu mismatches, %lu request errors (%lu wrote outside the output, %lu changed the source)",
			       t->name, drv, st.failures, st.cases,
			       st.mismatches, st.errors,
			       n_overruns - overruns0,
			       n_src_changed - src_changed0);
		else
			result(true, "check %s %lu cases [%s] (%lu requests%s, %.1f s)",
			       t->name, st.cases, drv, st.ops,
			       variant_counts(&st), now() - t0);
	}
	guard_report("check");
	bufs_free(&bf);
	return 0;
}

/* ---- cross ---------------------------------------------------------- */

/* A random case of @mode: key, IV, length, plaintext. */
static void random_case(struct sm4_vec *v, int mode, unsigned long i,
			uint64_t *rng, uint32_t maxlen)
{
	v->mode = mode;
	v->keylen = mode == SM4_VEC_XTS ? 32 : 16;
	v->len = sm4_vec_length(mode, i, rnd(rng), maxlen);
	sm4_vec_fill(rng, v->key, v->keylen);
	/* Equal XTS halves would be refused as weak in FIPS mode. */
	if (mode == SM4_VEC_XTS && !memcmp(v->key, v->key + 16, 16))
		v->key[0] ^= 1;
	sm4_vec_fill(rng, v->iv, 16);
	sm4_vec_fill(rng, v->pt, v->len);
}

/*
 * The IV a request left: AF_ALG keeps one IV per socket, hands it to each
 * request as req->iv and keeps what the driver leaves there for the next
 * request that sets none.  So a second request on the socket, one fixed
 * block without a control message, gives output that depends on it (for
 * every mode with an IV: CBC, CFB, CTR, CTS as CBC of one block; XTS
 * through the tweak).  0/-errno.
 */
static int iv_probe(int op, uint8_t *out)
{
	static const uint8_t block[SM4_BLOCK_SIZE] = {
		0x49, 0x56, 0x20, 0x70, 0x72, 0x6f, 0x62, 0x65,
		0x0f, 0x1e, 0x2d, 0x3c, 0x4b, 0x5a, 0x69, 0x78,
	};
	int err = send_buf(op, block, sizeof(block), NULL, 0, false);

	return err ? err : recv_buf(op, out, sizeof(block));
}

/*
 * Encrypt or decrypt @v with one driver; output into @res and, if @probe
 * is not NULL, the output of iv_probe() after it into @probe.  0/-errno.
 */
static int one_shot(int tfm, const struct sm4_vec *v, bool enc,
		    const uint8_t *in, uint8_t *res, uint8_t *probe,
		    struct bufs *bf, uint64_t *rng, char *shape,
		    size_t shapelen)
{
	struct request r = {
		.mode = v->mode,
		.enc = enc,
		.iv = v->mode == SM4_VEC_ECB ? NULL : v->iv,
		.ivlen = v->mode == SM4_VEC_ECB ? 0 : 16,
		.variant = pick_variant(v->mode, rng),
	};
	uint8_t *out;
	int op, err;

	err = tfm_setkey(tfm, v->key, v->keylen);
	if (err) {
		snprintf(shape, shapelen, "setkey: %s", strerror(-err));
		return err;
	}
	op = op_open(tfm);
	if (op < 0) {
		snprintf(shape, shapelen, "accept: %s", strerror(-op));
		return op;
	}
	err = process(op, &r, bf, in, v->len, &out, rng);
	snprintf(shape, shapelen, "%s", r.shape);
	if (!err)
		memcpy(res, out, v->len);
	if (!err && probe) {
		err = iv_probe(op, probe);
		if (err)
			snprintf(shape, shapelen, "%s [IV probe: %s]", r.shape,
				 strerror(-err));
	}
	close(op);
	return err;
}

#define CROSS_MAXLEN	4200

/*
 * Cross-check drivers @idx[0..n) of one mode on case @v: all encryptions
 * equal, every driver decrypts the common ciphertext, and (modes with an
 * IV) every request leaves the IV that the first driver's request of the
 * same direction leaves (iv_probe()).  Returns 0 or 1, printing details
 * when @verbose.
 */
static int cross_case(struct targets *ts, const int *idx, int n,
		      struct sm4_vec *v, uint8_t *ref, uint8_t *res,
		      struct bufs *bf, uint64_t *rng, bool verbose)
{
	uint8_t probe_ref[2][SM4_BLOCK_SIZE], probe[SM4_BLOCK_SIZE];
	bool has_iv = v->mode != SM4_VEC_ECB;
	char shape[200];
	int j, err;

	err = one_shot(ts->t[idx[0]].tfm, v, true, v->pt, ref,
		       has_iv ? probe_ref[0] : NULL, bf, rng, shape,
		       sizeof(shape));
	if (err) {
		if (verbose)
			info("  %s encrypt len %u: %s\n", ts->t[idx[0]].name,
			     v->len, shape);
		return 1;
	}
	for (j = 0; j < n; j++) {
		struct target *t = &ts->t[idx[j]];
		int dir;

		for (dir = j ? 0 : 1; dir < 2; dir++) {
			bool enc = dir == 0;
			const uint8_t *exp = enc ? ref : v->pt;
			/* idx[0]'s decryption is the reference of its own. */
			uint8_t *pr = !has_iv ? NULL :
				      j ? probe : probe_ref[1];

			err = one_shot(t->tfm, v, enc, enc ? v->pt : ref, res,
				       pr, bf, rng, shape, sizeof(shape));
			if (!err && !memcmp(res, exp, v->len) &&
			    (!pr || pr == probe_ref[1] ||
			     !memcmp(pr, probe_ref[dir], SM4_BLOCK_SIZE)))
				continue;
			if (verbose && !err && !memcmp(res, exp, v->len)) {
				char key[80];

				hex(key, sizeof(key), v->key, v->keylen);
				info("  %s %s len %u leaves another IV than %s (the next block differs); %s; key %s\n",
				     t->name, enc ? "encrypt" : "decrypt",
				     v->len, ts->t[idx[0]].name, shape, key);
			} else if (verbose) {
				char key[80];
				size_t i;

				for (i = 0; !err && res[i] == exp[i]; i++)
					;
				hex(key, sizeof(key), v->key, v->keylen);
				info("  %s %s len %u disagrees with %s%s: %s%s%zu; key %s\n",
				     t->name, enc ? "encrypt" : "decrypt",
				     v->len, ts->t[idx[0]].name,
				     enc ? "" : "'s ciphertext", shape,
				     err ? "" : ", first difference at byte ",
				     err ? (size_t)0 : i, key);
			}
			return 1;
		}
	}
	return 0;
}

static int cmd_cross(int argc, char **argv)
{
	static const char * const names[] = { "--cases", "--seed", NULL };
	const char *vals[2] = { NULL, NULL };
	unsigned long cases = 2000;
	uint64_t seed = 0xc055;
	struct targets ts;
	struct sm4_vec v;
	uint8_t *ref, *res;
	struct bufs bf;
	int m, i, compared = 0;

	argc = take_opts("cross", argc, argv, names, vals);
	if (argc < 0)
		return 2;
	if (vals[0])
		cases = strtoul(vals[0], NULL, 0);
	if (vals[1])
		seed = strtoull(vals[1], NULL, 0);
	if (targets_from_args(&ts, argc, argv, true))
		return 2;
	bufs_init(&bf, CROSS_MAXLEN);
	memset(&v, 0, sizeof(v));
	v.pt = malloc(CROSS_MAXLEN);
	ref = malloc(CROSS_MAXLEN);
	res = malloc(CROSS_MAXLEN);

	for (m = 0; m < SM4_VEC_NUM_MODES; m++) {
		int idx[MAX_TARGETS], n = 0, fails = 0;
		const char *verdict;
		uint64_t rng = seed ^ (uint64_t)m << 40;
		char names[512] = "";
		unsigned long k;
		double t0 = now();

		for (i = 0; i < ts.n; i++) {
			struct target *t = &ts.t[i];

			if (t->mode != m)
				continue;
			t->tfm = tfm_open(t->name);
			if (t->tfm < 0) {
				result(false, "cross %s: bind: %s", t->name,
				       strerror(-t->tfm));
				continue;
			}
			idx[n++] = i;
			snprintf(names + strlen(names),
				 sizeof(names) - strlen(names), "%s%s",
				 n > 1 ? " " : "", t->name);
		}
		if (n < 2) {
			info("cross %s: fewer than 2 drivers, nothing to compare\n",
			     mode_names[m]);
		} else {
			for (k = 0; k < cases; k++) {
				random_case(&v, m, k, &rng, CROSS_MAXLEN);
				fails += cross_case(&ts, idx, n, &v, ref, res,
						    &bf, &rng,
						    fails < DETAIL_LIMIT);
			}
			compared++;
			verdict = fails ? "DISAGREE" : "agree";
			result(!fails, "cross %s %lu cases, %d drivers %s (%s) (%.1f s)",
			       mode_names[m], cases, n, verdict, names,
			       now() - t0);
			if (fails)
				info("  %d of %lu cases disagree\n", fails,
				     cases);
		}
		for (i = 0; i < n; i++) {
			close(ts.t[idx[i]].tfm);
			ts.t[idx[i]].tfm = -1;
		}
	}
	if (!compared)
		result(false, "cross: no mode had two drivers to compare");
	guard_report("cross");
	free(v.pt);
	free(ref);
	free(res);
	bufs_free(&bf);
	return 0;
}

/* ---- badinput ------------------------------------------------------- */

/*
 * One request with a valid key; returns the error of the step that
 * failed (0 if none).  @ivlen of the IV sent (0: none).
 */
static int try_request(int tfm, int mode, bool enc, unsigned int ivlen,
		       size_t len, uint8_t *io, const char **step)
{
	static const uint8_t key[32] = {
		0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
		0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10,
		0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
		0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
	};
	uint8_t iv[32] = { 0 };
	char cbuf[CMSG_SPACE(sizeof(uint32_t)) +
		  CMSG_SPACE(sizeof(struct af_alg_iv) + 32)];
	size_t clen;
	int op, err;

	*step = "setkey";
	err = tfm_setkey(tfm, key, mode == SM4_VEC_XTS ? 32 : 16);
	if (err)
		return err;
	*step = "accept";
	op = op_open(tfm);
	if (op < 0)
		return op;
	clen = build_cmsg(cbuf, sizeof(cbuf), enc, ivlen ? iv : NULL, ivlen);
	*step = "sendmsg";
	err = send_buf(op, io, len, cbuf, clen, false);
	if (!err) {
		*step = "recv";
		err = recv_buf(op, io, len);
	}
	close(op);
	return err;
}

static void bad_keys(int tfm, const struct target *t)
{
	static const unsigned int bad_std[] = { 0, 15, 17, 32 };
	static const unsigned int bad_xts[] = { 0, 16, 31, 48 };
	const unsigned int *bad = t->mode == SM4_VEC_XTS ? bad_xts : bad_std;
	unsigned int good = t->mode == SM4_VEC_XTS ? 32 : 16;
	uint8_t key[64];
	char got[256] = "";
	bool ok = true;
	int i, err;

	for (i = 0; i < 64; i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < 4; i++) {
		err = tfm_setkey(tfm, key, bad[i]);
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 "%s%u:%s", i ? " " : "", bad[i],
			 err ? strerrorname_np(-err) : "accepted");
		ok &= err == -EINVAL;
	}
	result(ok, "badinput %s key lengths rejected with EINVAL (%s)",
	       t->name, got);
	err = tfm_setkey(tfm, key, good);
	result(!err, "badinput %s key length %u accepted%s%s", t->name, good,
	       err ? ": " : "", err ? strerror(-err) : "");
}

static void bad_lengths(int tfm, const struct target *t, uint8_t *io)
{
	static const size_t whole[] = { 1, 15, 17, 31, 4095 };
	static const size_t xts_short[] = { 1, 8, 15 };
	static const size_t partial[] = { 1, 15, 17, 31 };
	static const size_t xts_ok[] = { 16, 17, 31, 4095 };
	static const size_t whole_ok[] = { 16, 32, 4096 };
	const size_t *bad = NULL, *good;
	int nbad = 0, ngood, i, dir, err;
	unsigned int ivlen;
	char got[512] = "";
	const char *step;
	bool ok = true;

	switch (t->mode) {
	case SM4_VEC_ECB:
	case SM4_VEC_CBC:
		bad = whole;
		nbad = 5;
		good = whole_ok;
		ngood = 3;
		break;
	case SM4_VEC_XTS:
	case SM4_VEC_CTS:
		bad = xts_short;
		nbad = 3;
		good = xts_ok;
		ngood = 4;
		break;
	default:
		good = partial;
		ngood = 4;
		break;
	}
	for (i = 0; i < nbad; i++)
		for (dir = 0; dir < 2; dir++) {
			err = try_request(tfm, t->mode, !dir,
					  t->mode == SM4_VEC_ECB ? 0 : 16,
					  bad[i], io, &step);
			snprintf(got + strlen(got), sizeof(got) - strlen(got),
				 "%s%s%zu:%s%s%s", (i || dir) ? " " : "",
				 dir ? "dec" : "enc", bad[i],
				 err ? step : "",
				 err ? "=" : "", err ? strerrorname_np(-err) :
				 "accepted");
			ok &= err == -EINVAL && !strcmp(step, "recv");
		}
	if (nbad)
		result(ok, "badinput %s %s lengths fail with EINVAL (%s)",
		       t->name, bad == xts_short ? "short" : "partial",
		       got);

	/* The lengths this mode must accept: a round trip each. */
	ivlen = t->mode == SM4_VEC_ECB ? 0 : 16;
	for (i = 0, ok = true, got[0] = 0; i < ngood; i++) {
		uint8_t ref[4096];

		sm4_vec_fill(&(uint64_t){ good[i] }, ref, good[i]);
		memcpy(io, ref, good[i]);
		err = try_request(tfm, t->mode, true, ivlen, good[i], io,
				  &step);
		if (!err && !memcmp(io, ref, good[i]))
			err = -EBADMSG;	/* nothing was encrypted */
		if (!err)
			err = try_request(tfm, t->mode, false, ivlen, good[i],
					  io, &step);
		if (!err && memcmp(io, ref, good[i]))
			err = -EBADMSG, step = "round trip";
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 "%s%zu:%s%s%s", i ? " " : "", good[i],
			 err ? step : "ok", err ? "=" : "",
			 err ? strerrorname_np(-err) : "");
		ok &= !err;
	}
	if (ngood)
		result(ok, "badinput %s lengths accepted and round-trip (%s)",
		       t->name, got);
}

static void bad_ivs(int tfm, const struct target *t, uint8_t *io)
{
	static const unsigned int bad_std[] = { 8, 32 };
	static const unsigned int bad_ecb[] = { 8, 16, 32 };
	const unsigned int *bad = t->mode == SM4_VEC_ECB ? bad_ecb : bad_std;
	int nbad = t->mode == SM4_VEC_ECB ? 3 : 2;
	char got[256] = "";
	const char *step;
	bool ok = true;
	int i, err;

	for (i = 0; i < nbad; i++) {
		err = try_request(tfm, t->mode, true, bad[i], 32, io, &step);
		snprintf(got + strlen(got), sizeof(got) - strlen(got),
			 "%s%u:%s%s%s", i ? " " : "", bad[i], err ? step : "",
			 err ? "=" : "",
			 err ? strerrorname_np(-err) : "accepted");
		ok &= err == -EINVAL && !strcmp(step, "sendmsg");
	}
	result(ok, "badinput %s IV lengths rejected with EINVAL (%s)",
	       t->name, got);
	if (t->mode == SM4_VEC_ECB)
		return;
	err = try_request(tfm, t->mode, true, 16, 32, io, &step);
	result(!err, "badinput %s IV length 16 accepted%s%s%s", t->name,
	       err ? ": " : "", err ? step : "", err ? " failed" : "");
}

static int cmd_badinput(int argc, char **argv)
{
	struct targets ts;
	uint8_t *io;
	int i;

	if (targets_from_args(&ts, argc, argv, false))
		return 2;
	io = malloc(8192);
	for (i = 0; i < ts.n; i++) {
		const struct target *t = &ts.t[i];
		int tfm = tfm_open(t->name);

		if (tfm < 0) {
			result(false, "badinput %s: bind: %s", t->name,
			       strerror(-tfm));
			continue;
		}
		bad_keys(tfm, t);
		bad_lengths(tfm, t, io);
		bad_ivs(tfm, t, io);
		close(tfm);
	}
	free(io);
	return 0;
}

/* ---- once ----------------------------------------------------------- */

#define ONCE_MAXLEN	65536

/* once_request: one request of LEN bytes in place on BUF through NAME. */
static int once_request(const char *name, int mode, bool enc,
			unsigned long len, uint8_t *buf, const char **step)
{
	int tfm = tfm_open(name), err;

	if (tfm < 0) {
		*step = "bind";
		return tfm;
	}
	err = try_request(tfm, mode, enc, mode == SM4_VEC_ECB ? 0 : 16, len,
			  buf, step);
	close(tfm);
	return err;
}

/*
 * One request of exactly LEN bytes (one sendmsg, one recv, in place) on
 * DRIVER with badinput's fixed key and a zero IV (as fscrypt encrypts
 * filenames), input bytes 0, 1, 2, ...; with --ref, the same request on
 * REF (of the same mode) must give the same output.  The guest suite
 * counts the entries into DRIVER's assembly around it (suite.sh,
 * short_requests).
 */
static int cmd_once(int argc, char **argv)
{
	static const char * const names[] = { "--op", "--ref", NULL };
	const char *vals[2] = { NULL, NULL };
	const char *drv, *ref, *step;
	uint8_t *io, *want;
	unsigned long len;
	char *end;
	bool enc;
	int mode, err;
	size_t i;

	argc = take_opts("once", argc, argv, names, vals);
	if (argc < 0)
		return 2;
	if (argc != 2) {
		fprintf(stderr, "once: need DRIVER and LEN\n");
		return 2;
	}
	drv = argv[0];
	ref = vals[1];
	len = strtoul(argv[1], &end, 0);
	if (*end || !len || len > ONCE_MAXLEN) {
		fprintf(stderr, "once: LEN must be 1..%d\n", ONCE_MAXLEN);
		return 2;
	}
	if (vals[0] && strcmp(vals[0], "enc") && strcmp(vals[0], "dec")) {
		fprintf(stderr, "once: --op is enc or dec\n");
		return 2;
	}
	enc = !vals[0] || !strcmp(vals[0], "enc");
	mode = name_mode(drv);
	if (mode < 0 || (ref && name_mode(ref) != mode)) {
		fprintf(stderr, "once: %s%s%s: not one SM4 skcipher mode\n",
			drv, ref ? " and " : "", ref ? ref : "");
		return 2;
	}
	io = malloc(len);
	want = malloc(len);
	if (!io || !want) {
		free(io);
		free(want);
		result(false, "once %s: out of memory", drv);
		return 0;
	}
	for (i = 0; i < len; i++)
		want[i] = (uint8_t)i;
	if (ref) {
		err = once_request(ref, mode, enc, len, want, &step);
		if (err) {
			result(false, "once %s %s %lu bytes: the reference %s failed: %s: %s",
			       drv, enc ? "enc" : "dec", len, ref, step,
			       strerror(-err));
			goto out;
		}
	}
	for (i = 0; i < len; i++)
		io[i] = (uint8_t)i;
	err = once_request(drv, mode, enc, len, io, &step);
	if (err)
		result(false, "once %s %s %lu bytes: %s: %s", drv,
		       enc ? "enc" : "dec", len, step, strerror(-err));
	else if (ref && memcmp(io, want, len))
		result(false, "once %s %s %lu bytes: output differs from %s's",
		       drv, enc ? "enc" : "dec", len, ref);
	else
		result(true, "once %s %s %lu bytes%s%s", drv,
		       enc ? "enc" : "dec", len,
		       ref ? ": output equals " : "", ref ? ref : "");
out:
	free(io);
	free(want);
	return 0;
}

/* ---- stress --------------------------------------------------------- */

struct stress_stats {
	unsigned long requests, failures;
};

static void stress_worker(int id, struct targets *ts, struct vec_set *vs,
			  double deadline, uint64_t seed, int outfd)
{
	struct stress_stats st = { 0 };
	uint64_t mix = seed ^ ((uint64_t)(id + 1) << 56);
	uint64_t rng = rnd(&mix);	/* unrelated streams per worker */
	struct check_stats cs = { 0 };
	uint8_t *pt, *ref, *res;
	struct sm4_vec v;
	struct bufs bf;
	char what[96];
	int i;

	bufs_init(&bf, vs ? vs->maxlen : CROSS_MAXLEN);
	memset(&v, 0, sizeof(v));
	pt = malloc(CROSS_MAXLEN);
	ref = malloc(CROSS_MAXLEN);
	res = malloc(CROSS_MAXLEN);
	for (i = 0; i < ts->n; i++)
		ts->t[i].tfm = tfm_open(ts->t[i].name);

	while (now() < deadline) {
		struct target *t = &ts->t[rnd(&rng) % ts->n];
		int bad;

		if (t->tfm < 0)
			continue;
		if (vs) {
			const struct sm4_vec *vv;

			if (!vs->n_mode[t->mode])
				continue;
			vv = &vs->v[vs->by_mode[t->mode]
				    [rnd(&rng) % vs->n_mode[t->mode]]];
			snprintf(what, sizeof(what), "worker %d: %s", id,
				 t->name);
			bad = check_vector(t->tfm, vv, &bf, &rng, &cs, what,
					   st.failures < DETAIL_LIMIT);
			st.requests += 2;
		} else {
			/* Round trip with @t, decrypted and re-encrypted by another. */
			int idx[2] = { (int)(t - ts->t), -1 };
			int tries;

			for (tries = 0; tries < 8 * ts->n; tries++) {
				int j = (int)(rnd(&rng) % ts->n);

				if (ts->t[j].mode == t->mode &&
				    ts->t[j].tfm >= 0) {
					idx[1] = j;
					if (j != idx[0])
						break;
				}
			}
			v.pt = pt;
			random_case(&v, t->mode, 1000 + rnd(&rng) % 100000,
				    &rng, CROSS_MAXLEN);
			bad = cross_case(ts, idx, 2, &v, ref, res, &bf, &rng,
					 st.failures < DETAIL_LIMIT);
			st.requests += 3;
		}
		if (bad) {
			st.failures++;
			if (st.failures <= DETAIL_LIMIT)
				info("  worker %d: mismatch on %s\n", id,
				     t->name);
		}
	}
	if (write(outfd, &st, sizeof(st)) != sizeof(st))
		_exit(3);
	_exit(0);
}

static int cmd_stress(int argc, char **argv)
{
	static const char * const names[] = {
		"--workers", "--seconds", "--vectors", "--seed", NULL
	};
	const char *vals[4] = { NULL, NULL, NULL, NULL };
	int workers = 2, seconds = 10, i, pfd[2], crashed = 0;
	struct stress_stats total = { 0 };
	struct vec_set vs, *vsp = NULL;
	const char *vectors = NULL;
	uint64_t seed = (uint64_t)time(NULL);
	struct targets ts;
	double deadline, t0 = now();

	argc = take_opts("stress", argc, argv, names, vals);
	if (argc < 0)
		return 2;
	if (vals[0])
		workers = atoi(vals[0]);
	if (vals[1])
		seconds = atoi(vals[1]);
	vectors = vals[2];
	if (vals[3])
		seed = strtoull(vals[3], NULL, 0);
	if (workers < 1 || workers > 256 || seconds < 1) {
		fprintf(stderr, "stress: bad --workers or --seconds\n");
		return 2;
	}
	if (targets_from_args(&ts, argc, argv, !vectors))
		return 2;
	for (i = 0; i < ts.n; i++) {
		int fd = tfm_open(ts.t[i].name);

		if (fd < 0)
			result(false, "stress %s: bind: %s", ts.t[i].name,
			       strerror(-fd));
		else
			close(fd);
	}
	if (vectors) {
		if (vec_load(&vs, vectors)) {
			result(false, "stress: cannot load %s", vectors);
			return 0;
		}
		vsp = &vs;
	}
	info("stress: %d workers, %d s, %d drivers, %s, seed %#" PRIx64 "\n",
	     workers, seconds, ts.n,
	     vectors ? "vectors" : "round trips across drivers", seed);
	if (pipe(pfd)) {
		perror("pipe");
		return 2;
	}
	deadline = now() + seconds;
	fflush(stdout);
	for (i = 0; i < workers; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			crashed++;
			break;
		}
		if (!pid) {
			close(pfd[0]);
			stress_worker(i, &ts, vsp, deadline, seed, pfd[1]);
		}
	}
	close(pfd[1]);
	for (;;) {
		struct stress_stats st;
		ssize_t n = read(pfd[0], &st, sizeof(st));

		if (n != sizeof(st))
			break;
		total.requests += st.requests;
		total.failures += st.failures;
	}
	close(pfd[0]);
	for (;;) {
		int status;
		pid_t pid = wait(&status);

		if (pid < 0)
			break;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			info("  stress: worker %d ended abnormally (status %#x)\n",
			     (int)pid, status);
			crashed++;
		}
	}
	result(!total.failures && !crashed && total.requests,
	       "stress %d workers %d s: %lu requests, %lu mismatches%s (%.1f s)",
	       workers, seconds, total.requests, total.failures,
	       crashed ? ", workers crashed" : "", now() - t0);
	return 0;
}

/* ---- main ----------------------------------------------------------- */

static void usage(void)
{
	fprintf(stderr,
		"usage: sm4-afalg check VECTORS [--max N] [--seed S] [DRIVER...]\n"
		"       sm4-afalg cross [--cases N] [--seed S] [DRIVER...]\n"
		"       sm4-afalg badinput [DRIVER...]\n"
		"       sm4-afalg stress --workers N --seconds S [--vectors FILE] [--seed S] [DRIVER...]\n"
		"       sm4-afalg resolve [-q] [--proc] [--aead|--hash] NAME...\n"
		"       sm4-afalg once DRIVER LEN [--op enc|dec] [--ref REF]\n"
		"       sm4-afalg setkey skcipher|aead DRIVER\n"
		"       sm4-afalg list\n"
		"       sm4-afalg aead|hash AEAD-VECTORS (gen-vectors --aead)\n"
		"DRIVER: a driver name (ecb-sm4-generic) or algorithm name (ecb(sm4));\n"
		"default: every <mode>-sm4-* skcipher in /proc/crypto and <mode>(sm4)\n"
		"(cross and stress also use the kernel templates over sm4-generic).\n");
}

/* ---- setkey --------------------------------------------------------- */

/*
 * setkey skcipher|aead DRIVER: bind DRIVER and set one random 16-byte
 * key (ALG_SET_KEY), with no request: for the guest's entry counts of
 * what a setkey alone runs (a driver's key expansion, gcm's H).
 */
static int cmd_setkey(int argc, char **argv)
{
	uint8_t key[16];
	int tfm, err;
	size_t i;

	if (argc != 2 || (strcmp(argv[0], "skcipher") &&
			  strcmp(argv[0], "aead"))) {
		fprintf(stderr, "setkey: need skcipher|aead and DRIVER\n");
		return 2;
	}
	for (i = 0; i < sizeof(key); i++)
		key[i] = rand();
	tfm = tfm_open_type(argv[1], argv[0]);
	if (tfm < 0) {
		result(false, "setkey %s %s: bind: %s", argv[0], argv[1],
		       strerror(-tfm));
		return 0;
	}
	err = tfm_setkey(tfm, key, sizeof(key));
	close(tfm);
	result(!err, "setkey %s %s%s%s", argv[0], argv[1],
	       err ? ": " : "", err ? strerror(-err) : "");
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd;
	int ret;

	page_size = sysconf(_SC_PAGESIZE);
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage();
		return 2;
	}
	cmd = argv[1];
	argc -= 2;
	argv += 2;
	if (!strcmp(cmd, "check")) {
		ret = cmd_check(argc, argv);
	} else if (!strcmp(cmd, "cross")) {
		ret = cmd_cross(argc, argv);
	} else if (!strcmp(cmd, "badinput")) {
		ret = cmd_badinput(argc, argv);
	} else if (!strcmp(cmd, "stress")) {
		ret = cmd_stress(argc, argv);
	} else if (!strcmp(cmd, "resolve")) {
		if (!argc) {
			usage();
			return 2;
		}
		ret = cmd_resolve(argc, argv);
		if (ret < 0)	/* -q: only the driver names */
			return n_failed ? 1 : 0;
	} else if (!strcmp(cmd, "once")) {
		ret = cmd_once(argc, argv);
	} else if (!strcmp(cmd, "setkey")) {
		ret = cmd_setkey(argc, argv);
	} else if (!strcmp(cmd, "list")) {
		ret = cmd_list();
	} else if (!strcmp(cmd, "aead") || !strcmp(cmd, "hash")) {
		/* Prints its own summary line. */
		return sm4_afalg_aead(argc, argv, cmd[0] == 'h');
	} else {
		usage();
		return strcmp(cmd, "-h") && strcmp(cmd, "--help") ? 2 : 0;
	}
	if (ret)
		return ret;
	printf("%lu passed, %lu failed\n", n_passed, n_failed);
	return n_failed ? 1 : 0;
}
