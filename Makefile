# SPDX-License-Identifier: GPL-2.0
#
# make                 build every module for the running kernel
# make KDIR=... ARCH=... [CROSS_COMPILE=...]   build for another tree
# make install         modules_install + depmod
# make check           run every test (same as tests/run-all)

KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PWD := $(CURDIR)

all: modules

modules clean modules_install: check-kdir
	$(MAKE) -C $(KDIR) M=$(PWD) $@

install: modules_install
	depmod -a $(KVER)

check-kdir:
	@test -f $(KDIR)/Makefile || { \
	  echo "error: no kernel build tree at $(KDIR): install the headers (apt-get install linux-headers-$(KVER)) or pass KDIR=" >&2; \
	  exit 1; }

check:
	bash tests/run-all

.PHONY: all modules clean modules_install install check-kdir check
