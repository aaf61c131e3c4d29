/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim of the kernel's assembler symbol macros. */
#ifndef _SHIM_LINUX_LINKAGE_H
#define _SHIM_LINUX_LINKAGE_H
#ifdef __ASSEMBLY__
#define SYM_FUNC_START(name)	.globl name; .type name, @function; .p2align 4; name:
#define SYM_FUNC_START_LOCAL(name)	.type name, @function; .p2align 4; name:
#define SYM_FUNC_END(name)	.size name, . - name
#define SYM_TYPED_FUNC_START(name)	SYM_FUNC_START(name)
#define SYM_DATA_START_LOCAL(name)	name:
#define SYM_DATA_END(name)
#define SYM_DATA_LOCAL(name, x)	name: x
#if defined(__x86_64__)
#define RET	ret
#define CALL_NOSPEC(reg)	call *reg
#define ANNOTATE_NOENDBR
#define ANNOTATE_UNRET_SAFE
#endif
#endif
#endif
