/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the arm64 driver modules share besides the glue of sm4_generic.ko:
 *
 *   sm4_arm64_check_cpu(driver, have, what)
 *                       0 if @have (the CPU feature the driver needs is
 *                       present), else -ENODEV after one log line naming
 *                       @driver and the missing feature @what; the
 *                       cpu_check of module_sm4_driver().
 */
#ifndef _SM4_ARM64_GLUE_H
#define _SM4_ARM64_GLUE_H

#include <linux/errno.h>
#include <linux/printk.h>
#include <linux/types.h>

static inline int sm4_arm64_check_cpu(const char *driver, bool have,
				      const char *what)
{
	if (have)
		return 0;
	pr_info("%s: CPU lacks %s, driver not loaded\n", driver, what);
	return -ENODEV;
}

#endif /* _SM4_ARM64_GLUE_H */
