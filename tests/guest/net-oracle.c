// SPDX-License-Identifier: GPL-2.0
/*
 * net-oracle: the host's side of the guest's network checks (part 11),
 * computed with libgcrypt, which shares no code with the kernel.
 *
 *   net-oracle tls gcm|ccm SEED SIZES OUTDIR
 *	Key, IV, salt and first sequence number from SEED (printed as
 *	"KEY IV SALT SEQ" in hex); OUTDIR/tls-C.plain (the data of every
 *	record of SIZES, comma-separated), tls-C.tx (the TLS 1.3 records of
 *	the non-empty sizes: what kernel TLS must send) and tls-C.rx (the
 *	records of every size, an empty one included).
 *   net-oracle esp MARKER SPI:ENCKEY:AUTHKEY... <capture
 *	Every "ESP-PACKET: <hex>" line of the input (an IPv4 packet with an
 *	ESP transport-mode payload, cbc(sm4) with hmac(sha256) truncated to
 *	128 bits): the ICV must verify, the payload decrypt with SM4-CBC to
 *	a valid trailer; the UDP datagrams among them must carry MARKER.
 *	Prints PASS:/FAIL: lines; exit status 1 if something failed.
 */

#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>
#include "sm4-vectors.h"

#define TAG_LEN		16
#define MAX_SIZES	32

static void put_hex(const uint8_t *p, size_t n)
{
	while (n--)
		printf("%02x", *p++);
}

static int hex_in(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	unsigned int b;

	while (s[0] && s[1] && n < max && sscanf(s, "%2x", &b) == 1) {
		out[n++] = b;
		s += 2;
	}
	return n;
}

static int write_file(const char *dir, const char *cipher, const char *ext,
		      const uint8_t *p, size_t n)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/tls-%s.%s", dir, cipher, ext);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
		perror(path);
		return -1;
	}
	return 0;
}

/*
 * Append the TLS 1.3 record of @len bytes of @pt with sequence number
 * @seq to @out; returns its length or 0 on a libgcrypt error.
 */
static size_t tls_record(int mode, const uint8_t *key, const uint8_t *salt_iv,
			 uint64_t seq, const uint8_t *pt, size_t len,
			 uint8_t *out)
{
	size_t inner = len + 1, i;
	uint8_t nonce[12];
	gcry_cipher_hd_t h;
	int err;

	memcpy(nonce, salt_iv, 12);
	for (i = 0; i < 8; i++)
		nonce[4 + i] ^= (uint8_t)(seq >> (56 - 8 * i));
	/* Header: application_data, legacy version 1.2, length. */
	out[0] = 23;
	out[1] = 3;
	out[2] = 3;
	out[3] = (uint8_t)((inner + TAG_LEN) >> 8);
	out[4] = (uint8_t)(inner + TAG_LEN);
	memcpy(out + 5, pt, len);
	out[5 + len] = 23;	/* the inner content type */
	err = gcry_cipher_open(&h, GCRY_CIPHER_SM4, mode, 0);
	if (!err)
		err = gcry_cipher_setkey(h, key, 16);
	if (!err)
		err = gcry_cipher_setiv(h, nonce, 12);
	if (!err && mode == GCRY_CIPHER_MODE_CCM) {
		uint64_t l[3] = { inner, 5, TAG_LEN };

		err = gcry_cipher_ctl(h, GCRYCTL_SET_CCM_LENGTHS, l, sizeof(l));
	}
	if (!err)
		err = gcry_cipher_authenticate(h, out, 5);
	if (!err)
		err = gcry_cipher_encrypt(h, out + 5, inner, NULL, 0);
	if (!err)
		err = gcry_cipher_gettag(h, out + 5 + inner, TAG_LEN);
	gcry_cipher_close(h);
	if (err) {
		fprintf(stderr, "libgcrypt: %s\n", gcry_strerror(err));
		return 0;
	}
	return 5 + inner + TAG_LEN;
}

static int cmd_tls(char **argv)
{
	int mode = !strcmp(argv[0], "ccm") ? GCRY_CIPHER_MODE_CCM :
					     GCRY_CIPHER_MODE_GCM;
	uint64_t rng = strtoull(argv[1], NULL, 0) ^ (mode << 8), seq, s;
	size_t sizes[MAX_SIZES], total = 0, txl = 0, rxl = 0, off = 0, r;
	uint8_t key[16], salt_iv[12], seqb[8], *pt, *tx, *rx;
	char *list = strdup(argv[2]), *tok;
	int n = 0, i;

	for (tok = strtok(list, ","); tok && n < MAX_SIZES; tok = strtok(NULL, ","))
		total += sizes[n++] = strtoul(tok, NULL, 0);
	free(list);
	sm4_vec_fill(&rng, key, 16);
	sm4_vec_fill(&rng, salt_iv, 12);
	/* The low 32 bits of the sequence number carry within the run. */
	seq = (sm4_vec_rand(&rng) << 32) | (0xffffffffu - (unsigned int)n / 2);
	for (i = 0; i < 8; i++)
		seqb[i] = (uint8_t)(seq >> (56 - 8 * i));
	pt = malloc(total + 1);
	tx = malloc(total + n * 22 + 1);
	rx = malloc(total + n * 22 + 1);
	if (!pt || !tx || !rx)
		return 1;
	sm4_vec_fill(&rng, pt, total);
	for (i = 0, s = seq; i < n; off += sizes[i++]) {
		r = tls_record(mode, key, salt_iv, seq + i, pt + off, sizes[i],
			       rx + rxl);
		if (!r)
			return 1;
		rxl += r;
		if (!sizes[i])
			continue;
		r = tls_record(mode, key, salt_iv, s++, pt + off, sizes[i],
			       tx + txl);
		if (!r)
			return 1;
		txl += r;
	}
	if (write_file(argv[3], argv[0], "plain", pt, total) ||
	    write_file(argv[3], argv[0], "tx", tx, txl) ||
	    write_file(argv[3], argv[0], "rx", rx, rxl))
		return 1;
	put_hex(key, 16);
	putchar(' ');
	put_hex(salt_iv + 4, 8);
	putchar(' ');
	put_hex(salt_iv, 4);
	putchar(' ');
	put_hex(seqb, 8);
	putchar('\n');
	return 0;
}

struct esp_sa {
	uint32_t spi;
	uint8_t enc[16];
	uint8_t auth[32];
	unsigned long packets;
};

/* Check one captured packet; returns 0 if it is sound. */
static int esp_packet(const uint8_t *p, size_t n, struct esp_sa *sa, int nsa,
		      const char *marker, int *markers)
{
	uint8_t mac[32], plain[65536];
	size_t ihl = (p[0] & 15) * 4, clen, i;
	gcry_cipher_hd_t c;
	gcry_md_hd_t h;
	unsigned int pad, next;
	uint32_t spi;
	int k, err;

	if (n < ihl + 8 + 16 + 16 + TAG_LEN) {
		printf("FAIL: esp: a %zu-byte packet is too short for ESP with SM4-CBC\n", n);
		return 1;
	}
	spi = (uint32_t)p[ihl] << 24 | p[ihl + 1] << 16 | p[ihl + 2] << 8 |
	      p[ihl + 3];
	for (k = 0; k < nsa && sa[k].spi != spi; k++)
		;
	if (k == nsa) {
		printf("FAIL: esp: packet with unknown SPI 0x%x\n", spi);
		return 1;
	}
	/* ICV: HMAC-SHA256 over SPI, sequence number, IV and ciphertext. */
	err = gcry_md_open(&h, GCRY_MD_SHA256, GCRY_MD_FLAG_HMAC);
	if (!err)
		err = gcry_md_setkey(h, sa[k].auth, 32);
	if (err)
		return 1;
	gcry_md_write(h, p + ihl, n - ihl - TAG_LEN);
	memcpy(mac, gcry_md_read(h, GCRY_MD_SHA256), 32);
	gcry_md_close(h);
	if (memcmp(mac, p + n - TAG_LEN, TAG_LEN)) {
		printf("FAIL: esp: SPI 0x%x: the ICV is not HMAC-SHA256-128 of the packet\n", spi);
		return 1;
	}
	clen = n - ihl - 8 - 16 - TAG_LEN;
	if (clen % 16 || clen > sizeof(plain)) {
		printf("FAIL: esp: SPI 0x%x: ciphertext of %zu bytes is not whole SM4 blocks\n", spi, clen);
		return 1;
	}
	err = gcry_cipher_open(&c, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC, 0);
	if (!err)
		err = gcry_cipher_setkey(c, sa[k].enc, 16);
	if (!err)
		err = gcry_cipher_setiv(c, p + ihl + 8, 16);
	if (!err)
		err = gcry_cipher_decrypt(c, plain, clen, p + ihl + 24, clen);
	gcry_cipher_close(c);
	if (err)
		return 1;
	pad = plain[clen - 2];
	next = plain[clen - 1];
	for (i = 0; i < pad && pad + 2 <= clen; i++)
		if (plain[clen - 2 - pad + i] != i + 1)
			break;
	if (pad + 2 > clen || i != pad || (next != 1 && next != 6 && next != 17)) {
		printf("FAIL: esp: SPI 0x%x: SM4-CBC decryption gives no valid ESP trailer (pad length %u, next header %u)\n",
		       spi, pad, next);
		return 1;
	}
	sa[k].packets++;
	if (next == 17) {
		size_t dl = clen - 2 - pad;

		if (dl >= 8 && dl - 8 == strlen(marker) &&
		    !memcmp(plain + 8, marker, dl - 8)) {
			(*markers)++;
		} else {
			printf("FAIL: esp: SPI 0x%x: a UDP datagram decrypts to %zu bytes that are not \"%s\"\n",
			       spi, dl >= 8 ? dl - 8 : 0, marker);
			return 1;
		}
	}
	return 0;
}

static int cmd_esp(int argc, char **argv)
{
	static uint8_t pkt[65536];
	struct esp_sa sa[8];
	int nsa = 0, bad = 0, total = 0, markers = 0, i;
	char *line = NULL, *h;
	size_t cap = 0;

	for (i = 1; i < argc && nsa < 8; i++, nsa++) {
		char *c1 = strchr(argv[i], ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;

		if (!c2)
			return 2;
		memset(&sa[nsa], 0, sizeof(sa[nsa]));
		sa[nsa].spi = strtoul(argv[i], NULL, 16);
		if (hex_in(c1 + 1, sa[nsa].enc, 16) != 16 ||
		    hex_in(c2 + 1, sa[nsa].auth, 32) != 32)
			return 2;
	}
	while (getline(&line, &cap, stdin) > 0) {
		h = strstr(line, "ESP-PACKET: ");
		if (!h)
			continue;
		total++;
		bad += esp_packet(pkt, hex_in(h + 12, pkt, sizeof(pkt)), sa,
				  nsa, argv[0], &markers);
	}
	free(line);
	if (!total) {
		printf("FAIL: esp: no captured ESP packet\n");
		return 1;
	}
	if (!markers) {
		printf("FAIL: esp: no UDP datagram carrying the marker among the %d captured ESP packets\n", total);
		bad++;
	}
	if (bad)
		return 1;
	printf("PASS: esp: %d captured ESP packets verify (HMAC-SHA256-128) and decrypt (SM4-CBC) with libgcrypt to valid trailers;",
	       total);
	for (i = 0; i < nsa; i++)
		printf(" SPI 0x%x: %lu", sa[i].spi, sa[i].packets);
	printf("; %d UDP datagrams carry the marker\n", markers);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 2;

	if (!gcry_check_version(NULL))
		return 1;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	if (argc == 6 && !strcmp(argv[1], "tls"))
		rc = cmd_tls(argv + 2);
	else if (argc >= 4 && !strcmp(argv[1], "esp"))
		rc = cmd_esp(argc - 2, argv + 2);
	if (rc == 2)
		fprintf(stderr, "usage: %s tls gcm|ccm SEED SIZES OUTDIR\n"
			"       %s esp MARKER SPI:ENCKEY:AUTHKEY... <capture\n",
			argv[0], argv[0]);
	return rc;
}
