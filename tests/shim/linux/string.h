/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: everything lives in sm4/compat.h. */
#include <sm4/compat.h>
