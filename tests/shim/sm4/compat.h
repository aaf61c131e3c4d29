/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace replacement for include/sm4/compat.h and the kernel headers
 * the library and mode code use, so that lib/sm4.c and crypto/sm4_modes.c
 * compile unchanged into the test harness.
 */
#ifndef _SHIM_SM4_COMPAT_H
#define _SHIM_SM4_COMPAT_H
#include <linux/types.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>

#ifndef __always_inline
#define __always_inline		inline __attribute__((always_inline))
#endif
#define __init
#define __exit
#define barrier_data(p)		__asm__ __volatile__("" : : "r"(p) : "memory")
#define memzero_explicit(p, n)	do { memset((p), 0, (n)); barrier_data(p); } while (0)
#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)
#define SM4_EXPORT_SYMBOL_NS_GPL(s)
#define SM4_MODULE_IMPORT_NS()
#define MODULE_DESCRIPTION(s)
#define MODULE_LICENSE(s)
#define MODULE_VERSION(s)
#define MODULE_AUTHOR(s)
#define MODULE_ALIAS_CRYPTO(s)
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define __aligned(n)		__attribute__((aligned(n)))
#define BUILD_BUG_ON(c)		_Static_assert(!(c), #c)
#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
#define pr_err(...)		fprintf(stderr, __VA_ARGS__)
/* The library's module_init runs as a constructor-free hook in tests. */
#define module_init(fn)		int sm4_shim_init_##fn(void) { return fn(); }
#define module_exit(fn)		void sm4_shim_exit_##fn(void) { fn(); }
#define SM4_REGISTER_GENERIC_CFB 0

static inline u32 rol32(u32 w, unsigned int s)
{
	return (w << (s & 31)) | (w >> ((-s) & 31));
}

static inline u32 get_unaligned_be32(const void *p)
{
	const u8 *b = p;

	return (u32)b[0] << 24 | (u32)b[1] << 16 | (u32)b[2] << 8 | b[3];
}

static inline void put_unaligned_be32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v >> 24; b[1] = v >> 16; b[2] = v >> 8; b[3] = v;
}

static inline u64 get_unaligned_be64(const void *p)
{
	const u8 *b = p;

	return (u64)get_unaligned_be32(b) << 32 | get_unaligned_be32(b + 4);
}

static inline void put_unaligned_be64(u64 v, void *p)
{
	put_unaligned_be32(v >> 32, p);
	put_unaligned_be32((u32)v, (u8 *)p + 4);
}

#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))

static inline u64 get_unaligned_le64(const void *p)
{
	u64 v;

	memcpy(&v, p, 8);
	return v;	/* the harness runs on little-endian hosts only */
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	memcpy(p, &v, 8);
}

/* A word at a time, as the kernel's (the benchmark times callers). */
static inline void crypto_xor_cpy(u8 *dst, const u8 *a, const u8 *b,
				  unsigned int len)
{
	for (; len >= 8; len -= 8, dst += 8, a += 8, b += 8) {
		u64 x, y;

		memcpy(&x, a, 8);
		memcpy(&y, b, 8);
		x ^= y;
		memcpy(dst, &x, 8);
	}
	while (len--)
		*dst++ = *a++ ^ *b++;
}

static inline void crypto_xor(u8 *dst, const u8 *src, unsigned int len)
{
	crypto_xor_cpy(dst, dst, src, len);
}

/* Increment a big-endian counter of @size bytes. */
static inline void crypto_inc(u8 *a, unsigned int size)
{
	while (size-- && !++a[size])
		;
}
#endif
