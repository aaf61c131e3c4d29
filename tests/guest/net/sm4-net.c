// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-net: the network users of SM4 in a test guest.
 *
 *   sm4-net tls gcm|ccm KEY IV SALT SEQ SIZES PLAIN TXREC RXREC
 *   sm4-net capture IFACE COUNT SECONDS
 *
 * "tls" runs kernel TLS 1.3 with TLS_CIPHER_SM4_GCM or _CCM over loopback
 * TCP with the key material given in hex (IV 8 bytes, salt 4, SEQ the
 * first record sequence number, 8).  SIZES is a comma-separated list of
 * record sizes, PLAIN their concatenated plaintext; TXREC holds the TLS
 * records libgcrypt computed on the host for the non-empty sizes (what
 * the kernel's TX must put on the wire: it sends no record for a send of
 * zero bytes), RXREC the records for every size, the empty one included.
 * Checks:
 *   wire     kTLS TX -> plain socket: the bytes equal TXREC
 *   loop     kTLS TX -> kTLS RX: the plaintext comes back
 *   rx       plain socket sends RXREC -> kTLS RX: the plaintext
 *   badmac   RXREC with a bit flipped in one record's ciphertext (and,
 *            in a second run, its tag): the receiver gets every byte
 *            before that record, then EBADMSG
 * SM4_NET_TLS in the environment says what the guest found out about its
 * kernel's TLS (see tls_refused()): only a kernel without TLS, or whose
 * TLS has no SM4 cipher, turns the matching refusal into a SKIP line;
 * any other error of TCP_ULP or of SOL_TLS TLS_TX/TLS_RX is a FAIL.
 *
 * "capture" prints the first COUNT IPv4 ESP packets seen on IFACE (both
 * directions) within SECONDS as "ESP-PACKET: <hex of the IP packet>"
 * lines, for the host to decrypt.
 *
 *   sm4-net udp-send ADDR PORT COUNT MESSAGE
 *   sm4-net udp-recv PORT COUNT SECONDS MESSAGE
 *   sm4-net tcp-send ADDR PORT BYTES
 *   sm4-net tcp-recv PORT BYTES SECONDS
 *
 * Bounded traffic for IPsec: COUNT datagrams carrying MESSAGE, or a TCP
 * stream of BYTES bytes of a fixed pattern; the receivers print "READY"
 * once bound, then one PASS or FAIL line (every datagram, every byte).
 *
 * Every check prints "PASS: ", "FAIL: " or "SKIP: "; exit status 1 if
 * anything failed.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/tls.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#ifndef SOL_TLS
#define SOL_TLS 282
#endif
#ifndef TCP_ULP
#define TCP_ULP 31
#endif

#define MAX_SIZES	32

static unsigned int n_failed;

static void result(const char *tag, const char *fmt, ...)
{
	va_list ap;

	if (!strcmp(tag, "FAIL"))
		n_failed++;
	printf("%s: ", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static int unhex(const char *s, uint8_t *out, size_t n)
{
	size_t i;

	if (strlen(s) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return 0;
}

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	long n;

	if (!f)
		return NULL;
	n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
	if (n >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		p = malloc(n ? n : 1);
		if (p && fread(p, 1, n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		*len = n;
	}
	fclose(f);
	return p;
}

/* ---- Kernel TLS ------------------------------------------------------ */

/* Both SM4 TLS 1.3 suites have the same crypto_info layout. */
struct sm4_crypto_info {
	struct tls_crypto_info info;
	uint8_t iv[8];
	uint8_t key[16];
	uint8_t salt[4];
	uint8_t rec_seq[8];
};

struct tls_case {
	const char *cipher;
	struct sm4_crypto_info ci;
	size_t sizes[MAX_SIZES];
	int nsizes;
	uint8_t *plain;
	size_t plain_len;
	uint8_t *txrec, *rxrec;
	size_t txrec_len, rxrec_len;
};

/* A connected pair of loopback TCP sockets. */
static int tcp_pair(int fd[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tmo = { .tv_sec = 20 };
	socklen_t alen = sizeof(a);
	int l, one = 1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(l, 1) || getsockname(l, (struct sockaddr *)&a, &alen))
		goto err;
	fd[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (fd[0] < 0 || connect(fd[0], (struct sockaddr *)&a, sizeof(a)))
		goto err;
	fd[1] = accept(l, NULL, NULL);
	if (fd[1] < 0)
		goto err;
	setsockopt(fd[0], IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	/* Bounded: a stuck stream fails (EAGAIN) instead of hanging. */
	setsockopt(fd[0], SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo));
	setsockopt(fd[1], SOL_SOCKET, SO_RCVTIMEO, &tmo, sizeof(tmo));
	close(l);
	return 0;
err:
	perror("loopback TCP pair");
	if (l >= 0)
		close(l);
	return -1;
}

/*
 * Turn @fd into a kTLS socket for direction @dir (TLS_TX or TLS_RX).
 * Returns 0, or the negative errno with *@step naming the call that
 * failed: attaching the "tls" ULP, or handing it the cipher and keys
 * (where the kernel allocates and keys the AEAD).
 */
static int tls_enable(int fd, int dir, const struct sm4_crypto_info *ci,
		      const char **step)
{
	*step = "TCP_ULP \"tls\"";
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, "tls", sizeof("tls")) &&
	    errno != EEXIST)
		return -errno;
	*step = dir == TLS_TX ? "SOL_TLS TLS_TX" : "SOL_TLS TLS_RX";
	if (setsockopt(fd, SOL_TLS, dir, ci, sizeof(*ci)))
		return -errno;
	return 0;
}

/*
 * What the guest found out about its kernel's TLS before running us
 * (SM4_NET_TLS): "absent" (no tls module at all), "no-sm4" (a tls
 * module whose cipher table has no SM4: older than 5.16), "sm4" (its
 * table names gcm(sm4) and ccm(sm4)).  Only the first two excuse a
 * refusal, and only the refusal they explain; with "sm4" (or when the
 * guest could not tell) every error is a FAIL: the AEAD could not be
 * allocated (ENOENT) or keyed (EINVAL).
 */
static void tls_refused(const struct tls_case *tc, const char *what,
			const char *step, int rc)
{
	const char *known = getenv("SM4_NET_TLS");
	bool ulp = !strncmp(step, "TCP_ULP", 7);

	if (!known)
		known = "unknown";
	if (ulp && rc == -ENOENT && !strcmp(known, "absent"))
		result("SKIP", "tls %s %s: no \"tls\" TCP ULP in this kernel (no tls module)",
		       tc->cipher, what);
	else if (!ulp && rc == -EINVAL && !strcmp(known, "no-sm4"))
		result("SKIP", "tls %s %s: this kernel's TLS has no SM4 in its cipher table (%s: EINVAL)",
		       tc->cipher, what, step);
	else
		result("FAIL", "tls %s %s: %s: %s (the kernel's TLS: %s)",
		       tc->cipher, what, step, strerror(-rc), known);
}

/* Child: write @len bytes of @p to @fd in one piece. */
static void send_all_exit(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, 0);

		if (n <= 0)
			_exit(1);
		p += n;
		len -= n;
	}
	_exit(0);
}

/* Child: one send() per record size (a send of 0 bytes included). */
static void send_records_exit(int fd, const struct tls_case *tc)
{
	const uint8_t *p = tc->plain;
	int i;

	for (i = 0; i < tc->nsizes; i++) {
		ssize_t n = send(fd, p, tc->sizes[i], 0);

		if (n != (ssize_t)tc->sizes[i]) {
			fprintf(stderr, "send of %zu bytes: %zd (%s)\n",
				tc->sizes[i], n, strerror(errno));
			_exit(1);
		}
		p += n;
	}
	_exit(0);
}

/*
 * Read from @fd until EOF, an error or @max bytes; returns the count,
 * the errno of a failed recv in *@err (0 at EOF).
 */
static size_t recv_all(int fd, uint8_t *buf, size_t max, int *err)
{
	size_t got = 0;

	*err = 0;
	while (got < max) {
		ssize_t n = recv(fd, buf + got, max - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*err = errno;
			break;
		}
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

/* Wait for the sending child; true if it succeeded. */
static bool child_ok(pid_t pid)
{
	int st;

	return waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       !WEXITSTATUS(st);
}

/* The record of the wire stream @rec that holds byte @off. */
static int record_at(const uint8_t *rec, size_t len, size_t off)
{
	size_t pos = 0;
	int i = 0;

	while (pos + 5 <= len) {
		size_t rl = 5 + ((size_t)rec[pos + 3] << 8 | rec[pos + 4]);

		if (off < pos + rl)
			return i;
		pos += rl;
		i++;
	}
	return -1;
}

static size_t first_diff(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n && a[i] == b[i]; i++)
		;
	return i;
}

enum tls_run { RUN_WIRE, RUN_LOOP, RUN_RX };

/*
 * One connection: the child sends (kTLS TX for WIRE/LOOP, the raw @in
 * stream for RX), the parent receives (plain for WIRE, kTLS RX
 * otherwise) into @buf.  Returns the byte count, or -1 after printing
 * a SKIP or FAIL for a setup error; *@err is the receiver's errno.
 */
static long tls_run(const struct tls_case *tc, enum tls_run run,
		    const uint8_t *in, size_t in_len, uint8_t *buf,
		    size_t max, int *err, const char *what)
{
	const char *step;
	int fd[2], rc;
	pid_t pid;
	size_t got;
	bool ok;

	if (tcp_pair(fd)) {
		result("FAIL", "tls %s %s: no loopback TCP connection",
		       tc->cipher, what);
		return -1;
	}
	if (run != RUN_RX) {
		rc = tls_enable(fd[0], TLS_TX, &tc->ci, &step);
		if (rc) {
			tls_refused(tc, what, step, rc);
			close(fd[0]);
			close(fd[1]);
			return -1;
		}
	}
	if (run != RUN_WIRE) {
		rc = tls_enable(fd[1], TLS_RX, &tc->ci, &step);
		if (rc) {
			tls_refused(tc, what, step, rc);
			close(fd[0]);
			close(fd[1]);
			return -1;
		}
	}
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		close(fd[1]);
		if (run == RUN_RX)
			send_all_exit(fd[0], in, in_len);
		send_records_exit(fd[0], tc);
	}
	close(fd[0]);
	got = recv_all(fd[1], buf, max, err);
	close(fd[1]);
	ok = child_ok(pid);
	if (!ok && !*err) {
		result("FAIL", "tls %s %s: the sender failed", tc->cipher, what);
		return -1;
	}
	return got;
}

static void tls_check_wire(const struct tls_case *tc, uint8_t *buf, size_t max)
{
	long got;
	size_t d;
	int err;

	got = tls_run(tc, RUN_WIRE, NULL, 0, buf, max, &err, "wire");
	if (got < 0)
		return;
	d = first_diff(buf, tc->txrec, (size_t)got < tc->txrec_len ?
		       (size_t)got : tc->txrec_len);
	if ((size_t)got == tc->txrec_len && d == (size_t)got)
		result("PASS", "tls %s wire: kTLS TX put %ld bytes on the wire, equal to the %d TLS 1.3 records libgcrypt computed",
		       tc->cipher, got, record_at(tc->txrec, tc->txrec_len,
						  tc->txrec_len - 1) + 1);
	else
		result("FAIL", "tls %s wire: kTLS TX wrote %ld bytes, expected %zu; first difference at byte %zu (record %d of the expected stream)%s%s",
		       tc->cipher, got, tc->txrec_len, d,
		       record_at(tc->txrec, tc->txrec_len, d),
		       err ? ", receive error " : "", err ? strerror(err) : "");
}

static void tls_check_plain(const struct tls_case *tc, enum tls_run run,
			    uint8_t *buf, size_t max)
{
	const char *what = run == RUN_LOOP ? "loop" : "rx";
	long got;
	int err;

	got = tls_run(tc, run, tc->rxrec, tc->rxrec_len, buf, max, &err, what);
	if (got < 0)
		return;
	if (!err && (size_t)got == tc->plain_len &&
	    !memcmp(buf, tc->plain, got))
		result("PASS", run == RUN_LOOP ?
		       "tls %s loop: kTLS TX -> kTLS RX, %ld bytes in %d sends came back" :
		       "tls %s rx: kTLS RX decrypted libgcrypt's records to the %ld bytes of %d records",
		       tc->cipher, got, tc->nsizes);
	else
		result("FAIL", "tls %s %s: received %ld of %zu bytes, first difference at %zu%s%s",
		       tc->cipher, what, got, tc->plain_len,
		       first_diff(buf, tc->plain, got), err ? ", error " : "",
		       err ? strerror(err) : "");
}

/*
 * Flip a bit in record @rec of RXREC (@from_end: counted from the end
 * of the record, i.e. in the tag; else just after the header, in the
 * ciphertext): every byte of the records before comes through, then the
 * receive fails with EBADMSG.
 */
static void tls_check_badmac(const struct tls_case *tc, int rec, bool in_tag,
			     uint8_t *buf, size_t max)
{
	size_t pos = 0, before = 0, rl;
	uint8_t *bad;
	long got;
	int i, err;

	for (i = 0; i < rec; i++) {
		pos += 5 + ((size_t)tc->rxrec[pos + 3] << 8 | tc->rxrec[pos + 4]);
		before += tc->sizes[i];
	}
	rl = (size_t)tc->rxrec[pos + 3] << 8 | tc->rxrec[pos + 4];
	bad = malloc(tc->rxrec_len);
	if (!bad)
		return;
	memcpy(bad, tc->rxrec, tc->rxrec_len);
	bad[in_tag ? pos + 5 + rl - 3 : pos + 5] ^= 0x10;
	got = tls_run(tc, RUN_RX, bad, tc->rxrec_len, buf, max, &err, "badmac");
	free(bad);
	if (got < 0)
		return;
	if (err == EBADMSG && (size_t)got == before &&
	    !memcmp(buf, tc->plain, got))
		result("PASS", "tls %s badmac: a bit flipped in the %s of record %d (%zu bytes): EBADMSG after the %ld bytes before it",
		       tc->cipher, in_tag ? "tag" : "ciphertext", rec,
		       tc->sizes[rec], got);
	else
		result("FAIL", "tls %s badmac: a bit flipped in the %s of record %d: received %ld bytes (expected %zu), then %s (expected EBADMSG)",
		       tc->cipher, in_tag ? "tag" : "ciphertext", rec, got,
		       before, err ? strerror(err) : "end of stream");
}

static int cmd_tls(int argc, char **argv)
{
	struct tls_case tc = { .cipher = argv[0] };
	size_t max, sum = 0;
	char *s, *tok;
	uint8_t *buf;
	int i, bad = -1;

	if (argc != 9)
		return 2;
	if (!strcmp(tc.cipher, "gcm"))
		tc.ci.info.cipher_type = TLS_CIPHER_SM4_GCM;
	else if (!strcmp(tc.cipher, "ccm"))
		tc.ci.info.cipher_type = TLS_CIPHER_SM4_CCM;
	else
		return 2;
	tc.ci.info.version = TLS_1_3_VERSION;
	if (unhex(argv[1], tc.ci.key, 16) || unhex(argv[2], tc.ci.iv, 8) ||
	    unhex(argv[3], tc.ci.salt, 4) || unhex(argv[4], tc.ci.rec_seq, 8)) {
		fprintf(stderr, "tls: bad key/iv/salt/seq hex\n");
		return 2;
	}
	s = strdup(argv[5]);
	for (tok = strtok(s, ","); tok && tc.nsizes < MAX_SIZES;
	     tok = strtok(NULL, ",")) {
		tc.sizes[tc.nsizes] = strtoul(tok, NULL, 0);
		sum += tc.sizes[tc.nsizes++];
	}
	free(s);
	tc.plain = read_file(argv[6], &tc.plain_len);
	tc.txrec = read_file(argv[7], &tc.txrec_len);
	tc.rxrec = read_file(argv[8], &tc.rxrec_len);
	if (!tc.plain || !tc.txrec || !tc.rxrec || sum != tc.plain_len) {
		result("FAIL", "tls %s: test data %s/%s/%s unreadable or not %zu bytes",
		       tc.cipher, argv[6], argv[7], argv[8], sum);
		return 1;
	}
	/* The bad-MAC record: the first one of at least two blocks. */
	for (i = 0; i < tc.nsizes && bad < 0; i++)
		if (tc.sizes[i] >= 32 && i > 0)
			bad = i;
	max = tc.txrec_len + tc.rxrec_len + 64;
	buf = malloc(max);
	if (!buf)
		return 1;
	tls_check_wire(&tc, buf, max);
	tls_check_plain(&tc, RUN_LOOP, buf, max);
	tls_check_plain(&tc, RUN_RX, buf, max);
	if (bad >= 0) {
		tls_check_badmac(&tc, bad, false, buf, max);
		tls_check_badmac(&tc, bad, true, buf, max);
	}
	free(buf);
	return n_failed ? 1 : 0;
}

/* ---- ESP capture ----------------------------------------------------- */

static int cmd_capture(int argc, char **argv)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	uint8_t pkt[65536];
	int fd, count, seen = 0;
	time_t end;

	if (argc != 3)
		return 2;
	count = atoi(argv[1]);
	end = time(NULL) + atoi(argv[2]);
	/* ETH_P_ALL: only the taps of every protocol see outgoing packets. */
	fd = socket(AF_PACKET, SOCK_DGRAM, htons(ETH_P_ALL));
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = if_nametoindex(argv[0]);
	if (fd < 0 || !sll.sll_ifindex ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		perror("capture: AF_PACKET socket");
		return 1;
	}
	printf("CAPTURE-READY\n");
	fflush(stdout);
	while (seen < count && time(NULL) < end) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t flen = sizeof(from);
		ssize_t n, i;

		if (poll(&p, 1, 200) <= 0)
			continue;
		n = recvfrom(fd, pkt, sizeof(pkt), 0, (struct sockaddr *)&from,
			     &flen);
		/* IPv4, protocol 50 (ESP). */
		if (n < 20 || from.sll_protocol != htons(ETH_P_IP) ||
		    (pkt[0] >> 4) != 4 || pkt[9] != 50)
			continue;
		printf("ESP-PACKET: ");
		for (i = 0; i < n; i++)
			printf("%02x", pkt[i]);
		putchar('\n');
		fflush(stdout);
		seen++;
	}
	close(fd);
	return 0;
}

/* ---- Bounded UDP and TCP traffic ------------------------------------ */

static int inet_socket(int type, const char *addr, const char *port,
		       bool listen_side)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, type, 0), one = 1;

	a.sin_port = htons(atoi(port));
	if (addr && inet_pton(AF_INET, addr, &a.sin_addr) != 1)
		return -1;
	if (fd < 0)
		return -1;
	if (listen_side) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, (struct sockaddr *)&a, sizeof(a)) ||
		    (type == SOCK_STREAM && listen(fd, 1)))
			goto err;
		printf("READY\n");
		fflush(stdout);
	} else {
		/* Bounded: a sender whose packets are lost must not hang. */
		struct timeval tmo = { .tv_sec = 20 };

		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo));
		if (connect(fd, (struct sockaddr *)&a, sizeof(a)))
			goto err;
	}
	return fd;
err:
	perror(port);
	close(fd);
	return -1;
}

static uint8_t pattern(size_t i)
{
	return (uint8_t)(i * 131 + (i >> 9));
}

static bool wait_readable(int fd, time_t end)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	while (time(NULL) < end)
		if (poll(&p, 1, 200) > 0)
			return true;
	return false;
}

static int cmd_udp(bool send_side, int argc, char **argv)
{
	const char *msg = argv[argc - 1];
	int fd, count, got = 0, wrong = 0, i;
	char buf[2048];
	time_t end;

	if (argc != 4)
		return 2;
	fd = inet_socket(SOCK_DGRAM, send_side ? argv[0] : NULL,
			 argv[send_side], !send_side);
	if (fd < 0)
		return 1;
	count = atoi(argv[send_side + 1]);
	if (send_side) {
		for (i = 0; i < count; i++) {
			if (send(fd, msg, strlen(msg), 0) != (ssize_t)strlen(msg)) {
				perror("udp send");
				return 1;
			}
			usleep(20000);
		}
		return 0;
	}
	end = time(NULL) + atoi(argv[2]);
	while (got + wrong < count && wait_readable(fd, end)) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n == (ssize_t)strlen(msg) && !memcmp(buf, msg, n))
			got++;
		else
			wrong++;
	}
	result(got == count && !wrong ? "PASS" : "FAIL",
	       "udp: %d of %d datagrams arrived carrying the message, %d wrong",
	       got, count, wrong);
	return n_failed ? 1 : 0;
}

static int cmd_tcp(bool send_side, int argc, char **argv)
{
	size_t bytes, done = 0, bad = 0, i;
	uint8_t buf[8192];
	int fd, c;
	time_t end;

	if (argc != 3)
		return 2;
	fd = inet_socket(SOCK_STREAM, send_side ? argv[0] : NULL,
			 argv[send_side], !send_side);
	if (fd < 0)
		return 1;
	bytes = strtoul(argv[send_side + 1], NULL, 0);
	if (send_side) {
		while (done < bytes) {
			size_t n = bytes - done < sizeof(buf) ? bytes - done : sizeof(buf);
			ssize_t w;

			for (i = 0; i < n; i++)
				buf[i] = pattern(done + i);
			w = send(fd, buf, n, 0);
			if (w <= 0) {
				perror("tcp send");
				return 1;
			}
			done += w;
		}
		close(fd);
		return 0;
	}
	end = time(NULL) + atoi(argv[2]);
	c = wait_readable(fd, end) ? accept(fd, NULL, NULL) : -1;
	if (c < 0) {
		result("FAIL", "tcp: no connection within %s s", argv[2]);
		return 1;
	}
	while (wait_readable(c, end)) {
		ssize_t n = recv(c, buf, sizeof(buf), 0);

		if (n <= 0)
			break;
		for (i = 0; i < (size_t)n; i++)
			bad += buf[i] != pattern(done + i);
		done += n;
	}
	result(done == bytes && !bad ? "PASS" : "FAIL",
	       "tcp: %zu of %zu bytes arrived, %zu wrong", done, bytes, bad);
	return n_failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	signal(SIGPIPE, SIG_IGN);
	if (argc >= 2 && !strcmp(argv[1], "tls"))
		rc = cmd_tls(argc - 2, argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "capture"))
		rc = cmd_capture(argc - 2, argv + 2);
	else if (argc >= 2 && !strncmp(argv[1], "udp-", 4))
		rc = cmd_udp(!strcmp(argv[1], "udp-send"), argc - 2, argv + 2);
	else if (argc >= 2 && !strncmp(argv[1], "tcp-", 4))
		rc = cmd_tcp(!strcmp(argv[1], "tcp-send"), argc - 2, argv + 2);
	if (rc == 2)
		fprintf(stderr,
			"usage: %s tls gcm|ccm KEY IV SALT SEQ SIZES PLAIN TXREC RXREC\n"
			"       %s capture IFACE COUNT SECONDS\n"
			"       %s udp-send ADDR PORT COUNT MESSAGE | udp-recv PORT COUNT SECONDS MESSAGE\n"
			"       %s tcp-send ADDR PORT BYTES | tcp-recv PORT BYTES SECONDS\n",
			argv[0], argv[0], argv[0], argv[0]);
	return rc;
}
