/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory checks of the harness: buffers between guard pages, calls that
 * must not touch memory, and an observer that sees every store an
 * implementation makes into its destination buffer.
 */
#ifndef _SM4_TEST_MEMWATCH_H
#define _SM4_TEST_MEMWATCH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A buffer of @len bytes with an inaccessible page right before and
 * right after the pages holding it.  @at_end: the buffer ends where the
 * guard page after it begins (overruns fault at once); otherwise it
 * starts @offset bytes after the guard page before it (underruns fault).
 */
struct guarded {
	unsigned char *map;	/* the whole mapping */
	size_t maplen;
	unsigned char *buf;	/* the buffer */
	unsigned char *pages;	/* first page of the buffer's pages */
	size_t pageslen;
};

void guarded_alloc(struct guarded *g, size_t len, bool at_end,
		   unsigned int offset);
void guarded_free(struct guarded *g);

/* A page no access to which is allowed. */
void *memwatch_noaccess_page(void);

/*
 * Run @fn(@arg); returns 0 if it returned, -1 if it faulted (SIGSEGV or
 * SIGBUS, e.g. on a guard page).
 */
int memwatch_run(void (*fn)(void *arg), void *arg);

/*
 * The store observer (x86-64): while @fn(@arg) runs, the pages of @g are
 * read-only; every store into them is single-stepped, and after it each
 * of the @len bytes at @dst must hold either its contents from @before
 * or its final contents from @after.  Returns the number of
 * stores seen, or -1 if one of them left anything else in @dst (or @fn
 * faulted otherwise); *@first_bad gets the offset of the first such
 * byte.  memwatch_observer_supported() says whether it works here.
 */
bool memwatch_observer_supported(void);
long memwatch_observe(struct guarded *g, const unsigned char *dst,
		      size_t len, const unsigned char *before,
		      const unsigned char *after,
		      void (*fn)(void *arg), void *arg, size_t *first_bad);

#endif
