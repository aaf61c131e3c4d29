/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: static_assert() is C11's, from <assert.h>. */
#include <assert.h>
