/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: no frame-pointer bookkeeping is needed in tests. */
#ifdef __ASSEMBLY__
#define FRAME_BEGIN
#define FRAME_END
#endif
