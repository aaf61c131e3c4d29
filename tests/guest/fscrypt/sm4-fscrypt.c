// SPDX-License-Identifier: GPL-2.0
/*
 * sm4-fscrypt: the fscrypt ioctls the guest suite needs, for a v2 policy
 * with SM4 (the guest's Debian 12 userland has no fscryptctl, and the
 * UAPI header names no SM4 mode: the kernel knows contents mode 7,
 * SM4-XTS, and filenames mode 8, SM4-CTS).
 *
 *   sm4-fscrypt add-key MOUNTPOINT KEYFILE     prints the key identifier
 *   sm4-fscrypt remove-key MOUNTPOINT KEYID
 *   sm4-fscrypt key-status MOUNTPOINT KEYID    prints absent/present/...
 *   sm4-fscrypt set-policy DIR KEYID [CONTENTS FILENAMES]
 *                                              default modes 7 and 8
 *   sm4-fscrypt get-policy PATH                prints "v2 contents=7
 *                                              filenames=8 flags=0x.. KEYID"
 *   sm4-fscrypt nonce PATH                     prints the file's or
 *                                              directory's 16-byte nonce
 *   sm4-fscrypt extents FILE                   prints "bsize N", then
 *                                              "extent LOGICAL PHYSICAL
 *                                              LENGTH" (bytes) for every
 *                                              extent, data synced first
 *   sm4-fscrypt read-raw DEVICE OFFSET LENGTH  prints LENGTH bytes at
 *                                              OFFSET (multiples of 512)
 *                                              in hex, read with O_DIRECT
 *
 * The last three give the host what it needs to check the ciphertext on
 * the disk with a computation of its own (tests/guest/disk-oracle.c).
 *
 * KEYFILE holds the raw key (64 bytes).  Exit status 0 on success, 1 with
 * the ioctl's error on stderr otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SM4_FSCRYPT_MODE_XTS	7
#define SM4_FSCRYPT_MODE_CTS	8
#define MAX_KEY			64
#define NONCE_SIZE		16	/* FS_IOC_GET_ENCRYPTION_NONCE */

static int open_path(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		fprintf(stderr, "sm4-fscrypt: open %s: %s\n", path,
			strerror(errno));
		exit(1);
	}
	return fd;
}

static void print_id(const unsigned char *id)
{
	int i;

	for (i = 0; i < FSCRYPT_KEY_IDENTIFIER_SIZE; i++)
		printf("%02x", id[i]);
	printf("\n");
}

static void parse_id(const char *hex, unsigned char *id)
{
	int i;

	if (strlen(hex) != 2 * FSCRYPT_KEY_IDENTIFIER_SIZE) {
		fprintf(stderr, "sm4-fscrypt: key identifier must be %d hex digits\n",
			2 * FSCRYPT_KEY_IDENTIFIER_SIZE);
		exit(1);
	}
	for (i = 0; i < FSCRYPT_KEY_IDENTIFIER_SIZE; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1) {
			fprintf(stderr, "sm4-fscrypt: bad key identifier %s\n", hex);
			exit(1);
		}
		id[i] = b;
	}
}

static void fail_ioctl(const char *what)
{
	fprintf(stderr, "sm4-fscrypt: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* One fscrypt ioctl on PATH; exits with the error on failure. */
static void path_ioctl(const char *path, unsigned long req, void *arg,
		       const char *what)
{
	int fd = open_path(path);

	if (ioctl(fd, req, arg) < 0)
		fail_ioctl(what);
	close(fd);
}

static int add_key(const char *mnt, const char *keyfile)
{
	struct {
		struct fscrypt_add_key_arg arg;
		unsigned char raw[MAX_KEY];
	} k;
	ssize_t n;
	int fd;

	memset(&k, 0, sizeof(k));
	fd = open_path(keyfile);
	n = read(fd, k.raw, sizeof(k.raw));
	close(fd);
	if (n != MAX_KEY) {
		fprintf(stderr, "sm4-fscrypt: %s must hold %d bytes\n", keyfile,
			MAX_KEY);
		return 1;
	}
	k.arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	k.arg.raw_size = MAX_KEY;
	path_ioctl(mnt, FS_IOC_ADD_ENCRYPTION_KEY, &k.arg,
		   "FS_IOC_ADD_ENCRYPTION_KEY");
	memset(k.raw, 0, sizeof(k.raw));
	print_id(k.arg.key_spec.u.identifier);
	return 0;
}

static int remove_key(const char *mnt, const char *hex)
{
	struct fscrypt_remove_key_arg arg;

	memset(&arg, 0, sizeof(arg));
	arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	parse_id(hex, arg.key_spec.u.identifier);
	path_ioctl(mnt, FS_IOC_REMOVE_ENCRYPTION_KEY, &arg,
		   "FS_IOC_REMOVE_ENCRYPTION_KEY");
	if (arg.removal_status_flags & FSCRYPT_KEY_REMOVAL_STATUS_FLAG_FILES_BUSY) {
		fprintf(stderr, "sm4-fscrypt: key removed, but files are still in use\n");
		return 1;
	}
	return 0;
}

static int key_status(const char *mnt, const char *hex)
{
	struct fscrypt_get_key_status_arg arg;

	memset(&arg, 0, sizeof(arg));
	arg.key_spec.type = FSCRYPT_KEY_SPEC_TYPE_IDENTIFIER;
	parse_id(hex, arg.key_spec.u.identifier);
	path_ioctl(mnt, FS_IOC_GET_ENCRYPTION_KEY_STATUS, &arg,
		   "FS_IOC_GET_ENCRYPTION_KEY_STATUS");
	switch (arg.status) {
	case FSCRYPT_KEY_STATUS_ABSENT:
		printf("absent\n");
		break;
	case FSCRYPT_KEY_STATUS_PRESENT:
		printf("present\n");
		break;
	case FSCRYPT_KEY_STATUS_INCOMPLETELY_REMOVED:
		printf("incompletely-removed\n");
		break;
	default:
		printf("status-%u\n", arg.status);
	}
	return 0;
}

static int set_policy(const char *dir, const char *hex, int contents,
		      int filenames)
{
	struct fscrypt_policy_v2 p;

	memset(&p, 0, sizeof(p));
	p.version = FSCRYPT_POLICY_V2;
	p.contents_encryption_mode = contents;
	p.filenames_encryption_mode = filenames;
	p.flags = FSCRYPT_POLICY_FLAGS_PAD_32;
	parse_id(hex, p.master_key_identifier);
	path_ioctl(dir, FS_IOC_SET_ENCRYPTION_POLICY, &p,
		   "FS_IOC_SET_ENCRYPTION_POLICY");
	return 0;
}

static int get_policy(const char *path)
{
	struct fscrypt_get_policy_ex_arg arg;

	memset(&arg, 0, sizeof(arg));
	arg.policy_size = sizeof(arg.policy);
	path_ioctl(path, FS_IOC_GET_ENCRYPTION_POLICY_EX, &arg,
		   "FS_IOC_GET_ENCRYPTION_POLICY_EX");
	if (arg.policy.version != FSCRYPT_POLICY_V2) {
		printf("v%u\n", arg.policy.version);
		return 0;
	}
	printf("v2 contents=%u filenames=%u flags=0x%02x ",
	       arg.policy.v2.contents_encryption_mode,
	       arg.policy.v2.filenames_encryption_mode, arg.policy.v2.flags);
	print_id(arg.policy.v2.master_key_identifier);
	return 0;
}

static int get_nonce(const char *path)
{
	unsigned char nonce[NONCE_SIZE];
	int i;

	path_ioctl(path, FS_IOC_GET_ENCRYPTION_NONCE, nonce,
		   "FS_IOC_GET_ENCRYPTION_NONCE");
	for (i = 0; i < NONCE_SIZE; i++)
		printf("%02x", nonce[i]);
	printf("\n");
	return 0;
}

#define MAX_EXTENTS	64

static int extents(const char *path)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent fe[MAX_EXTENTS];
	} m;
	int fd = open_path(path), bsize = 0;
	unsigned int i;

	if (ioctl(fd, FIGETBSZ, &bsize) < 0)
		fail_ioctl("FIGETBSZ");
	memset(&m, 0, sizeof(m));
	m.fm.fm_length = FIEMAP_MAX_OFFSET;
	m.fm.fm_flags = FIEMAP_FLAG_SYNC;
	m.fm.fm_extent_count = MAX_EXTENTS;
	if (ioctl(fd, FS_IOC_FIEMAP, &m.fm) < 0)
		fail_ioctl("FS_IOC_FIEMAP");
	close(fd);
	printf("bsize %d\n", bsize);
	for (i = 0; i < m.fm.fm_mapped_extents; i++) {
		const struct fiemap_extent *e = &m.fe[i];

		/* Only data on the disk, in place, is the file's ciphertext. */
		if (e->fe_flags & (FIEMAP_EXTENT_UNKNOWN |
				   FIEMAP_EXTENT_DELALLOC |
				   FIEMAP_EXTENT_UNWRITTEN |
				   FIEMAP_EXTENT_NOT_ALIGNED |
				   FIEMAP_EXTENT_DATA_INLINE)) {
			fprintf(stderr, "sm4-fscrypt: %s: extent %u has flags %#x\n",
				path, i, e->fe_flags);
			return 1;
		}
		printf("extent %llu %llu %llu\n",
		       (unsigned long long)e->fe_logical,
		       (unsigned long long)e->fe_physical,
		       (unsigned long long)e->fe_length);
	}
	return 0;
}

static int read_raw(const char *dev, const char *offset, const char *length)
{
	unsigned long long off = strtoull(offset, NULL, 0);
	size_t len = strtoull(length, NULL, 0), i;
	unsigned char *buf;
	int fd;

	if (off % 512 || len % 512 || !len || len > (64 << 20) ||
	    posix_memalign((void **)&buf, 4096, len)) {
		fprintf(stderr, "sm4-fscrypt: read-raw: bad offset or length\n");
		return 1;
	}
	fd = open(dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || pread(fd, buf, len, off) != (ssize_t)len) {
		fprintf(stderr, "sm4-fscrypt: read %s: %s\n", dev,
			fd < 0 ? strerror(errno) : "short read");
		return 1;
	}
	close(fd);
	for (i = 0; i < len; i++)
		printf("%02x", buf[i]);
	printf("\n");
	free(buf);
	return 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: sm4-fscrypt add-key MNT KEYFILE | remove-key MNT KEYID |\n"
		"       key-status MNT KEYID | set-policy DIR KEYID [CONTENTS FILENAMES] |\n"
		"       get-policy PATH | nonce PATH | extents FILE |\n"
		"       read-raw DEVICE OFFSET LENGTH\n");
	exit(2);
}

int main(int argc, char **argv)
{
	if (argc < 3)
		usage();
	if (!strcmp(argv[1], "add-key") && argc == 4)
		return add_key(argv[2], argv[3]);
	if (!strcmp(argv[1], "remove-key") && argc == 4)
		return remove_key(argv[2], argv[3]);
	if (!strcmp(argv[1], "key-status") && argc == 4)
		return key_status(argv[2], argv[3]);
	if (!strcmp(argv[1], "set-policy") && argc == 4)
		return set_policy(argv[2], argv[3], SM4_FSCRYPT_MODE_XTS,
				  SM4_FSCRYPT_MODE_CTS);
	if (!strcmp(argv[1], "set-policy") && argc == 6)
		return set_policy(argv[2], argv[3], atoi(argv[4]), atoi(argv[5]));
	if (!strcmp(argv[1], "get-policy") && argc == 3)
		return get_policy(argv[2]);
	if (!strcmp(argv[1], "nonce") && argc == 3)
		return get_nonce(argv[2]);
	if (!strcmp(argv[1], "extents") && argc == 3)
		return extents(argv[2]);
	if (!strcmp(argv[1], "read-raw") && argc == 5)
		return read_raw(argv[2], argv[3], argv[4]);
	usage();
	return 2;
}
