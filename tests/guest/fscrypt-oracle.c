// SPDX-License-Identifier: GPL-2.0
/*
 * fscrypt-oracle: the host's check of what fscrypt wrote on the guest's
 * disk, computed with libgcrypt (which shares no code with the kernel)
 * from the master key alone, the way fscrypt's v2 policies derive and
 * use their keys (Documentation/filesystems/fscrypt.rst):
 *
 *   fscrypt-oracle MASTER_KEY_FILE PLAINTEXT_FILE DISK_IMAGE <report
 *
 * The report is the guest's RAW-FSCRYPT lines, that prefix removed
 * (tests/guest/suite.sh, fscrypt_raw_report and fscrypt_raw_nokey):
 *   key KEYID                 the key identifier the kernel gave
 *   file SIZE NONCE           the file holding PLAINTEXT_FILE's first SIZE
 *                             bytes, and its nonce
 *   bsize N                   the file system's block size
 *   extent LOGICAL PHYSICAL LENGTH   where that file's blocks are (bytes)
 *   dir INO NONCE             a directory and its nonce
 *   name INO NAME             a plaintext name in it
 *   nokey INO NAME            a name it listed without the key
 *
 * Checks, each a PASS: or FAIL: line (exit status 1 if one failed):
 *   - KEYID = HKDF-SHA512(master key, info "fscrypt\0" 0x01), 16 bytes;
 *   - every block of the file, read from DISK_IMAGE, decrypts with
 *     SM4-XTS, key HKDF(..., 0x02 || nonce) (32 bytes), tweak the block
 *     number (little-endian, zero-padded), to the plaintext;
 *   - in every directory, the no-key names are exactly the plaintext
 *     names encrypted with SM4-CBC-CTS (key HKDF(..., 0x02 || dir nonce),
 *     16 bytes, zero IV), NUL-padded to a multiple of 32 bytes (policy
 *     flags 0x03) of at least 16 and at most 255; a no-key name is
 *     base64url (no padding) of 8 dirhash bytes and the ciphertext, or
 *     past 149 bytes of ciphertext its first 149 and the SHA-256 of the
 *     rest.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gcrypt.h>

#define MASTER_KEY_SIZE		64
#define NONCE_SIZE		16
#define NOKEY_BYTES		149	/* ciphertext kept whole in a no-key name */
#define DIRHASH_SIZE		8
#define NAME_PAD		32	/* FSCRYPT_POLICY_FLAGS_PAD_32 */
#define NAME_MAX_LEN		255
#define MAX_DIRS		16
#define MAX_NAMES		64
#define MAX_EXTENTS		64

static int n_pass, n_fail;

static void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s: ", ok ? "PASS" : "FAIL");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		n_pass++;
	else
		n_fail++;
}

static int unhex(const char *s, uint8_t *out, size_t len)
{
	size_t i;
	unsigned int b;

	if (strlen(s) != 2 * len)
		return -1;
	for (i = 0; i < len; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = b;
	}
	return 0;
}

static void die_gcry(gcry_error_t err, const char *what)
{
	if (err) {
		fprintf(stderr, "fscrypt-oracle: libgcrypt %s: %s\n", what,
			gcry_strerror(err));
		exit(2);
	}
}

/* HMAC-SHA512 of the concatenation of @n pieces. */
static void hmac512(const uint8_t *key, size_t keylen, const uint8_t **p,
		    const size_t *len, int n, uint8_t out[64])
{
	gcry_md_hd_t h;
	int i;

	die_gcry(gcry_md_open(&h, GCRY_MD_SHA512, GCRY_MD_FLAG_HMAC), "hmac");
	die_gcry(gcry_md_setkey(h, key, keylen), "hmac key");
	for (i = 0; i < n; i++)
		gcry_md_write(h, p[i], len[i]);
	memcpy(out, gcry_md_read(h, GCRY_MD_SHA512), 64);
	gcry_md_close(h);
}

/*
 * fscrypt's HKDF-SHA512 (RFC 5869): extract with a salt of 64 zero
 * bytes, expand with info "fscrypt\0" || @context || @info; @okmlen <= 64.
 */
static void fscrypt_hkdf(const uint8_t *master, uint8_t context,
			 const uint8_t *info, size_t infolen, uint8_t *okm,
			 size_t okmlen)
{
	static const uint8_t salt[64];
	uint8_t prk[64], t[64], prefix[9] = "fscrypt";
	const uint8_t one = 1;
	const uint8_t *p[3] = { master };
	size_t len[3] = { MASTER_KEY_SIZE };

	hmac512(salt, sizeof(salt), p, len, 1, prk);
	prefix[8] = context;
	p[0] = prefix;
	len[0] = sizeof(prefix);
	p[1] = info;
	len[1] = infolen;
	p[2] = &one;
	len[2] = 1;
	hmac512(prk, sizeof(prk), p, len, 3, t);
	memcpy(okm, t, okmlen);
}

static void hexstr(char *out, const uint8_t *p, size_t n)
{
	while (n--)
		out += sprintf(out, "%02x", *p++);
}

/* base64url without padding; returns the decoded length or -1. */
static int b64url_decode(const char *s, uint8_t *out, size_t max)
{
	static const char tab[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	unsigned int acc = 0, bits = 0;
	size_t n = 0;
	const char *c;

	for (; *s; s++) {
		c = strchr(tab, *s);
		if (!c)
			return -1;
		acc = acc << 6 | (unsigned int)(c - tab);
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n == max)
				return -1;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	return (int)n;
}

struct dir {
	unsigned long ino;
	uint8_t nonce[NONCE_SIZE];
	char *names[MAX_NAMES], *nokey[MAX_NAMES];
	int n_names, n_nokey;
};

static struct dir dirs[MAX_DIRS];
static int n_dirs;

static struct dir *dir_of(unsigned long ino, bool create)
{
	int i;

	for (i = 0; i < n_dirs; i++)
		if (dirs[i].ino == ino)
			return &dirs[i];
	if (!create || n_dirs == MAX_DIRS)
		return NULL;
	dirs[n_dirs].ino = ino;
	return &dirs[n_dirs++];
}

/*
 * What a no-key name holds after its dirhash for @name in a directory
 * keyed @key: the ciphertext, or its first 149 bytes and the SHA-256 of
 * the rest.  Returns its length.
 */
static size_t nokey_bytes(const uint8_t key[16], const char *name,
			  uint8_t *out)
{
	static const uint8_t zero_iv[16];
	uint8_t buf[NAME_MAX_LEN + 1] = { 0 };
	size_t len = strlen(name), clen;
	gcry_cipher_hd_t h;

	clen = ((len < 16 ? 16 : len) + NAME_PAD - 1) / NAME_PAD * NAME_PAD;
	if (clen > NAME_MAX_LEN)
		clen = NAME_MAX_LEN;
	memcpy(buf, name, len > clen ? clen : len);
	die_gcry(gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_CBC,
				  GCRY_CIPHER_CBC_CTS), "cts");
	die_gcry(gcry_cipher_setkey(h, key, 16), "cts key");
	die_gcry(gcry_cipher_setiv(h, zero_iv, 16), "cts iv");
	die_gcry(gcry_cipher_encrypt(h, buf, clen, NULL, 0), "cts");
	gcry_cipher_close(h);
	if (clen <= NOKEY_BYTES) {
		memcpy(out, buf, clen);
		return clen;
	}
	memcpy(out, buf, NOKEY_BYTES);
	gcry_md_hash_buffer(GCRY_MD_SHA256, out + NOKEY_BYTES,
			    buf + NOKEY_BYTES, clen - NOKEY_BYTES);
	return NOKEY_BYTES + 32;
}

static void check_dir(const uint8_t *master, struct dir *d)
{
	uint8_t key[16], want[NOKEY_BYTES + 32], got[256];
	bool used[MAX_NAMES] = { false };
	int i, j, n, matched = 0, hashed = 0;
	char bad[300] = "";
	size_t wl;

	fscrypt_hkdf(master, 2, d->nonce, NONCE_SIZE, key, sizeof(key));
	for (i = 0; i < d->n_names; i++) {
		wl = nokey_bytes(key, d->names[i], want);
		hashed += wl > NOKEY_BYTES;
		for (j = 0; j < d->n_nokey; j++) {
			n = b64url_decode(d->nokey[j], got, sizeof(got));
			if (!used[j] && n == (int)(DIRHASH_SIZE + wl) &&
			    !memcmp(got + DIRHASH_SIZE, want, wl)) {
				used[j] = true;
				matched++;
				break;
			}
		}
		if (j == d->n_nokey && !bad[0])
			snprintf(bad, sizeof(bad), "; no no-key name holds the ciphertext of '%.40s%s'",
				 d->names[i], strlen(d->names[i]) > 40 ? "..." : "");
	}
	result(d->n_names && matched == d->n_names && d->n_nokey == d->n_names,
	       "fscrypt names: directory inode %lu: %d of %d no-key names are the SM4-CTS ciphertext (libgcrypt, key HKDF-SHA512 of its nonce) of its %d plaintext names (%d past %d bytes: hashed tail)%s",
	       d->ino, matched, d->n_nokey, d->n_names, hashed, NOKEY_BYTES,
	       bad);
}

static int check_file(const uint8_t *master, FILE *disk, FILE *plainf,
		      size_t size, const uint8_t *nonce, unsigned long bsize,
		      unsigned long long (*ext)[3], int n_ext)
{
	uint8_t key[32], tweak[16] = { 0 }, *ct, *pt, *want;
	size_t blocks = (size + bsize - 1) / bsize, done = 0, bad = 0, lblk;
	unsigned long long off;
	gcry_cipher_hd_t h;
	char first[80] = "";
	bool *seen;
	int e;

	if (!bsize || bsize % 512 || bsize > 65536 || !blocks) {
		result(false, "fscrypt contents: block size %lu, file size %zu", bsize, size);
		return -1;
	}
	ct = malloc(bsize);
	pt = malloc(bsize);
	want = calloc(blocks, bsize);
	seen = calloc(blocks, 1);
	if (!ct || !pt || !want || !seen ||
	    fread(want, 1, size, plainf) != size) {
		result(false, "fscrypt contents: cannot read %zu bytes of plaintext", size);
		return -1;
	}
	fscrypt_hkdf(master, 2, nonce, NONCE_SIZE, key, sizeof(key));
	die_gcry(gcry_cipher_open(&h, GCRY_CIPHER_SM4, GCRY_CIPHER_MODE_XTS, 0),
		 "xts");
	die_gcry(gcry_cipher_setkey(h, key, sizeof(key)), "xts key");
	for (e = 0; e < n_ext; e++) {
		for (off = 0; off < ext[e][2]; off += bsize) {
			lblk = (ext[e][0] + off) / bsize;
			if (lblk >= blocks)
				break;
			if (fseeko(disk, (off_t)(ext[e][1] + off), SEEK_SET) ||
			    fread(ct, 1, bsize, disk) != bsize) {
				result(false, "fscrypt contents: cannot read block %zu at %llu of the disk image",
				       lblk, ext[e][1] + off);
				return -1;
			}
			memset(tweak, 0, sizeof(tweak));
			for (int i = 0; i < 8; i++)
				tweak[i] = (uint8_t)((uint64_t)lblk >> (8 * i));
			die_gcry(gcry_cipher_setiv(h, tweak, 16), "xts tweak");
			die_gcry(gcry_cipher_decrypt(h, pt, bsize, ct, bsize), "xts");
			/* Past the end of the file: not compared. */
			if (memcmp(pt, want + lblk * bsize,
				   lblk == blocks - 1 ? size - lblk * bsize : bsize)) {
				if (!bad++)
					snprintf(first, sizeof(first), "; first wrong: block %zu", lblk);
			}
			done += !seen[lblk];
			seen[lblk] = true;
		}
	}
	gcry_cipher_close(h);
	result(!bad && done == blocks,
	       "fscrypt contents: %zu of %zu blocks (%lu bytes) of the file on the disk decrypt to its plaintext with libgcrypt SM4-XTS (per-file key HKDF-SHA512 of its nonce, tweak the block number), %zu wrong%s",
	       done, blocks, bsize, bad, first);
	free(ct);
	free(pt);
	free(want);
	free(seen);
	return 0;
}

int main(int argc, char **argv)
{
	uint8_t master[MASTER_KEY_SIZE], id[16], want_id[16], nonce[NONCE_SIZE];
	unsigned long long ext[MAX_EXTENTS][3];
	unsigned long bsize = 0, ino;
	char line[1024], word[16], hex[160], *arg;
	size_t size = 0;
	bool have_id = false, have_file = false;
	FILE *kf, *pf, *df;
	int n_ext = 0, i;
	struct dir *d;

	if (argc != 4) {
		fprintf(stderr, "usage: %s MASTER_KEY_FILE PLAINTEXT_FILE DISK_IMAGE <report\n",
			argv[0]);
		return 2;
	}
	if (!gcry_check_version(NULL))
		return 2;
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	kf = fopen(argv[1], "rb");
	pf = fopen(argv[2], "rb");
	df = fopen(argv[3], "rb");
	if (!kf || !pf || !df ||
	    fread(master, 1, sizeof(master), kf) != sizeof(master)) {
		fprintf(stderr, "fscrypt-oracle: cannot read %s, %s or %s\n",
			argv[1], argv[2], argv[3]);
		return 2;
	}
	fclose(kf);

	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\r\n")] = 0;
		if (sscanf(line, "%15s", word) != 1)
			continue;
		arg = line + strlen(word) + (line[strlen(word)] == ' ');
		if (!strcmp(word, "key") && !unhex(arg, id, sizeof(id))) {
			have_id = true;
		} else if (!strcmp(word, "file") &&
			   sscanf(arg, "%zu %159s", &size, hex) == 2 &&
			   !unhex(hex, nonce, NONCE_SIZE)) {
			have_file = true;
		} else if (!strcmp(word, "bsize")) {
			bsize = strtoul(arg, NULL, 0);
		} else if (!strcmp(word, "extent") && n_ext < MAX_EXTENTS &&
			   sscanf(arg, "%llu %llu %llu", &ext[n_ext][0],
				  &ext[n_ext][1], &ext[n_ext][2]) == 3) {
			n_ext++;
		} else if (!strcmp(word, "dir") &&
			   sscanf(arg, "%lu %159s", &ino, hex) == 2 &&
			   (d = dir_of(ino, true)) &&
			   !unhex(hex, d->nonce, NONCE_SIZE)) {
			;
		} else if ((!strcmp(word, "name") || !strcmp(word, "nokey")) &&
			   sscanf(arg, "%lu", &ino) == 1 && strchr(arg, ' ') &&
			   (d = dir_of(ino, false))) {
			bool plain = !strcmp(word, "name");
			int *n = plain ? &d->n_names : &d->n_nokey;

			if (*n < MAX_NAMES)
				(plain ? d->names : d->nokey)[(*n)++] =
					strdup(strchr(arg, ' ') + 1);
		} else {
			result(false, "fscrypt report: line not understood: '%.80s'", line);
		}
	}

	if (!have_id) {
		result(false, "fscrypt report: no key identifier");
	} else {
		fscrypt_hkdf(master, 1, NULL, 0, want_id, sizeof(want_id));
		hexstr(hex, id, sizeof(id));
		result(!memcmp(id, want_id, sizeof(id)),
		       "fscrypt key identifier %s is HKDF-SHA512 of the master key (libgcrypt)",
		       hex);
	}
	if (!have_file || !n_ext)
		result(false, "fscrypt report: no file (%s) or no extent of it (%d)",
		       have_file ? "reported" : "missing", n_ext);
	else
		check_file(master, df, pf, size, nonce, bsize, ext, n_ext);
	if (!n_dirs)
		result(false, "fscrypt report: no directory");
	for (i = 0; i < n_dirs; i++)
		check_dir(master, &dirs[i]);
	printf("%d passed, %d failed\n", n_pass, n_fail);
	return n_fail ? 1 : 0;
}
