/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test modules' "drivers" parameter: a comma-separated list of
 * crypto names, walked in place (a kstrdup()ed copy).
 */
#ifndef _SM4_TEST_NAMES_H
#define _SM4_TEST_NAMES_H

#include <linux/string.h>

/* The next non-empty name of *@cur (blanks trimmed), NULL at the end. */
static inline char *sm4_test_next_name(char **cur)
{
	char *name;

	while ((name = strsep(cur, ",")) != NULL) {
		name = strim(name);
		if (*name)
			return name;
	}
	return NULL;
}

#endif /* _SM4_TEST_NAMES_H */
