/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim: typed symbols are plain symbols here. */
#include <linux/linkage.h>
