/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by tests/unit/regwipe.c and its trampolines: how much of the
 * stack below the caller's stack pointer is painted before a call and
 * read back after it (the largest frame of the assembly, gfni-avx512's
 * XTS, is under 2 KiB with its alignment), and how many general
 * registers the arm64 one stores after the call (x0-x18).
 */
#ifndef SM4_REGWIPE_H
#define SM4_REGWIPE_H
#define SM4_RW_STACK	8192
#define SM4_RW_GPRS	19
#endif
