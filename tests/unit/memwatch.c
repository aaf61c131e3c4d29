// SPDX-License-Identifier: GPL-2.0
/*
 * Guard pages, fault catching and the dst store observer of the harness
 * (see memwatch.h).
 *
 * The observer maps the destination read-only.  A store into it faults;
 * the SIGSEGV handler makes the pages writable and sets the trap flag, so
 * that the store executes and the CPU stops right after it (SIGTRAP); the
 * SIGTRAP handler checks what is now in the buffer, protects the pages
 * again and clears the trap flag.  So every store is seen with the value
 * it wrote, however briefly that value would have stayed there.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <setjmp.h>
#include <string.h>
#include <stdlib.h>
#include <stdio.h>
#include <unistd.h>
#include <ucontext.h>
#include <sys/mman.h>
#include "memwatch.h"

static size_t page_size(void)
{
	return (size_t)sysconf(_SC_PAGESIZE);
}

void guarded_alloc(struct guarded *g, size_t len, bool at_end,
		   unsigned int offset)
{
	size_t pg = page_size();
	size_t need = (at_end ? len : len + offset) + 1;
	size_t pages = (need + pg - 1) / pg * pg;

	g->maplen = pages + 2 * pg;
	g->map = mmap(NULL, g->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (g->map == MAP_FAILED) {
		perror("mmap");
		abort();
	}
	g->pages = g->map + pg;
	g->pageslen = pages;
	if (mprotect(g->pages, pages, PROT_READ | PROT_WRITE)) {
		perror("mprotect");
		abort();
	}
	g->buf = at_end ? g->pages + pages - len : g->pages + offset;
}

void guarded_free(struct guarded *g)
{
	munmap(g->map, g->maplen);
	memset(g, 0, sizeof(*g));
}

void *memwatch_noaccess_page(void)
{
	static void *page;

	if (!page) {
		page = mmap(NULL, page_size(), PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (page == MAP_FAILED)
			abort();
	}
	return page;
}

/* ---- Fault catching ------------------------------------------------ */

static sigjmp_buf fault_jmp;
static volatile sig_atomic_t fault_armed;

/* The observer's state, used by the handlers. */
static struct {
	unsigned char *pages;
	size_t pageslen;
	const unsigned char *dst, *before, *after;
	size_t len;
	long stores;
	bool bad;
	size_t first_bad;
	volatile sig_atomic_t active, stepping;
} obs;

/*
 * Byte by byte: a block written word by word is in between for a while,
 * and a byte of an intermediate value (a tweak, a keystream block) hits
 * the old or the final byte only by chance (2 in 256).
 */
static void check_dst(void)
{
	size_t off;

	for (off = 0; off < obs.len; off++) {
		if (obs.dst[off] == obs.before[off] ||
		    obs.dst[off] == obs.after[off])
			continue;
		if (!obs.bad)
			obs.first_bad = off;
		obs.bad = true;
	}
}

#if defined(__x86_64__)
#define TRAP_FLAG	0x100

static void set_tf(void *ucv, bool on)
{
	ucontext_t *uc = ucv;

	if (on)
		uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
	else
		uc->uc_mcontext.gregs[REG_EFL] &= ~TRAP_FLAG;
}

static void on_trap(int sig, siginfo_t *si, void *ucv)
{
	if (!obs.stepping) {
		signal(SIGTRAP, SIG_DFL);
		return;
	}
	obs.stepping = 0;
	obs.stores++;
	check_dst();
	mprotect(obs.pages, obs.pageslen, PROT_READ);
	set_tf(ucv, false);
}
#endif

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	unsigned char *addr = si->si_addr;

#if defined(__x86_64__)
	if (obs.active && sig == SIGSEGV && addr >= obs.pages &&
	    addr < obs.pages + obs.pageslen) {
		mprotect(obs.pages, obs.pageslen, PROT_READ | PROT_WRITE);
		obs.stepping = 1;
		set_tf(ucv, true);
		return;
	}
#endif
	if (fault_armed) {
		fault_armed = 0;
		siglongjmp(fault_jmp, 1);
	}
	signal(sig, SIG_DFL);
}

static void install(void)
{
	static bool done;
	struct sigaction sa;

	if (done)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
#if defined(__x86_64__)
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
#endif
	done = true;
}

int memwatch_run(void (*fn)(void *arg), void *arg)
{
	install();
	if (sigsetjmp(fault_jmp, 1)) {
		obs.active = 0;
		return -1;
	}
	fault_armed = 1;
	fn(arg);
	fault_armed = 0;
	return 0;
}

bool memwatch_observer_supported(void)
{
#if defined(__x86_64__)
	return true;
#else
	return false;
#endif
}

long memwatch_observe(struct guarded *g, const unsigned char *dst,
		      size_t len, const unsigned char *before,
		      const unsigned char *after,
		      void (*fn)(void *arg), void *arg, size_t *first_bad)
{
	int r;

	obs.pages = g->pages;
	obs.pageslen = g->pageslen;
	obs.dst = dst;
	obs.len = len;
	obs.before = before;
	obs.after = after;
	obs.stores = 0;
	obs.bad = false;
	obs.first_bad = 0;
	obs.stepping = 0;
	install();
	mprotect(g->pages, g->pageslen, PROT_READ);
	obs.active = 1;
	r = memwatch_run(fn, arg);
	obs.active = 0;
	mprotect(g->pages, g->pageslen, PROT_READ | PROT_WRITE);
	*first_bad = obs.first_bad;
	if (r || obs.bad)
		return -1;
	return obs.stores;
}
