// SPDX-License-Identifier: GPL-2.0
/*
 * The list of implementations under test, shared by sm4-test,
 * sm4-gcm-test and sm4-bench: each impl_*.c registers itself at program
 * start (SM4_TEST_IMPL), in link order.
 */
#include <stddef.h>
#include "impl.h"

static struct sm4_test_impl *impls;

void sm4_test_register_impl(struct sm4_test_impl *impl)
{
	struct sm4_test_impl **p = &impls;

	while (*p)
		p = &(*p)->next;
	*p = impl;
}

struct sm4_test_impl *sm4_test_impl_list(void)
{
	return impls;
}
