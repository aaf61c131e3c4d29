// SPDX-License-Identifier: GPL-2.0
/*
 * sm4_entry_count: count entries into kernel functions with kprobes, so
 * that the guest suite (tests/guest/suite.sh) can prove that a driver's
 * assembly ran rather than a fallback.
 *
 * kprobe events (tracefs) refuse functions without an ftrace location,
 * which assembly functions never have, unless the kernel is built with
 * CONFIG_KPROBE_EVENTS_ON_NOTRACE (Debian's are not); kprobes registered
 * by a module have no such rule.
 *
 *   insmod sm4_entry_count.ko syms=sm4_neon_ecb,sm4_neon_xts,... [stop_after=N]
 *   cat /sys/module/sm4_entry_count/parameters/counts   ("symbol hits" lines)
 *   rmmod sm4_entry_count
 *
 * Each probe is a trap, which costs much under emulation: a probe whose
 * count reaches stop_after (default 1; 0: never) is disabled from a work
 * item, so that the count says "entered" (at least stop_after times)
 * rather than how often.  The handler runs in the breakpoint exception,
 * which lockdep treats as NMI context: it may not take the workqueue's
 * locks, so it queues an irq_work (NMI-safe) that queues the work item
 * (the debug kernel's lockdep reported "inconsistent {INITIAL USE} ->
 * {IN-NMI} usage" for &pool->lock when the handler queued the work
 * itself).
 * The module fails to load, naming the symbol, if any probe cannot be
 * placed.  Test-only: loaded in QEMU guests, never on a real system.
 */
#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

struct entry_probe {
	struct kprobe kp;
	atomic64_t hits;
	struct irq_work kick;
	struct work_struct disable;
};

static unsigned long stop_after = 1;
module_param(stop_after, ulong, 0444);
MODULE_PARM_DESC(stop_after, "disable a probe after this many entries (0: never)");

static char *syms;
module_param(syms, charp, 0444);
MODULE_PARM_DESC(syms, "comma-separated functions to count entries into");

static char *names;
static struct entry_probe *probes;
static unsigned int nprobes;

static int entry_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct entry_probe *p = container_of(kp, struct entry_probe, kp);

	if (atomic64_inc_return(&p->hits) == stop_after)
		irq_work_queue(&p->kick);
	return 0;
}

static void entry_kick(struct irq_work *work)
{
	struct entry_probe *p = container_of(work, struct entry_probe, kick);

	schedule_work(&p->disable);
}

static void entry_disable(struct work_struct *work)
{
	struct entry_probe *p = container_of(work, struct entry_probe, disable);

	disable_kprobe(&p->kp);
}

static int counts_get(char *buf, const struct kernel_param *kp)
{
	unsigned int i;
	int n = 0;

	for (i = 0; i < nprobes; i++)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%s %lld\n",
			       probes[i].kp.symbol_name,
			       (long long)atomic64_read(&probes[i].hits));
	return n;
}

static const struct kernel_param_ops counts_ops = {
	.get = counts_get,
};
module_param_cb(counts, &counts_ops, NULL, 0444);
MODULE_PARM_DESC(counts, "entries into each function since loading");

static void unregister_first(unsigned int n)
{
	while (n--) {
		unregister_kprobe(&probes[n].kp);
		irq_work_sync(&probes[n].kick);
		cancel_work_sync(&probes[n].disable);
	}
}

static int __init entry_count_init(void)
{
	unsigned int i, n = 1;
	char *s, *name;
	int err;

	if (!syms || !*syms) {
		pr_err("sm4_entry_count: no syms= given\n");
		return -EINVAL;
	}
	names = kstrdup(syms, GFP_KERNEL);
	if (!names)
		return -ENOMEM;
	for (s = names; *s; s++)
		n += *s == ',';
	probes = kcalloc(n, sizeof(*probes), GFP_KERNEL);
	if (!probes) {
		kfree(names);
		return -ENOMEM;
	}
	s = names;
	for (i = 0; (name = strsep(&s, ",")) != NULL; ) {
		if (!*name)
			continue;
		probes[i].kp.symbol_name = name;
		probes[i].kp.pre_handler = entry_pre;
		init_irq_work(&probes[i].kick, entry_kick);
		INIT_WORK(&probes[i].disable, entry_disable);
		err = register_kprobe(&probes[i].kp);
		if (err) {
			pr_err("sm4_entry_count: cannot probe %s: %d\n", name, err);
			unregister_first(i);
			kfree(probes);
			kfree(names);
			return err;
		}
		i++;
	}
	nprobes = i;
	pr_info("sm4_entry_count: counting entries into %u functions\n", nprobes);
	return 0;
}

static void __exit entry_count_exit(void)
{
	unregister_first(nprobes);
	kfree(probes);
	kfree(names);
}

module_init(entry_count_init);
module_exit(entry_count_exit);
MODULE_DESCRIPTION("Test-only: count entries into functions with kprobes");
MODULE_LICENSE("GPL");
