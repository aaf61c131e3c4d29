/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every difference between the kernels this project supports (Debian's
 * 6.1, 6.12 and 7.2, x86_64 and arm64) is confined to this header.  The
 * userspace test harness replaces it with tests/shim/sm4/compat.h.
 */
#ifndef _SM4_CRYPTO_COMPAT_H
#define _SM4_CRYPTO_COMPAT_H

#include <linux/version.h>
#include <linux/kernel.h>

/* <asm/unaligned.h> moved to <linux/unaligned.h> in 6.12. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/*
 * The "cfb" template was removed in 6.8; from then on sm4_generic
 * registers cfb(sm4) itself so that CFB stays available.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
#define SM4_REGISTER_GENERIC_CFB 1
#else
#define SM4_REGISTER_GENERIC_CFB 0
#endif

/*
 * Kernel-mode SIMD sections.  Callers bound each section to
 * SM4_SIMD_CHUNK bytes of work.
 */
#include <asm/simd.h>
#include <crypto/internal/simd.h>
#if defined(CONFIG_X86)
#include <asm/fpu/api.h>
#define sm4_simd_begin()	kernel_fpu_begin()
#define sm4_simd_end()		kernel_fpu_end()
#elif defined(CONFIG_ARM64)
#include <asm/neon.h>
#define sm4_simd_begin()	kernel_neon_begin()
#define sm4_simd_end()		kernel_neon_end()
#else
#define sm4_simd_begin()	do { } while (0)
#define sm4_simd_end()		do { } while (0)
#endif

#endif /* _SM4_CRYPTO_COMPAT_H */
