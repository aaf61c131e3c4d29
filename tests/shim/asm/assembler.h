/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for arm64 <asm/assembler.h>: nothing the tests need. */
