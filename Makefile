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

modules modules_install: check-kdir
	$(MAKE) -C $(KDIR) M=$(PWD) $@

# Kbuild's own "clean" searches the whole module directory, caches under
# .cache/ and build/ included (it deletes every *.o and *.ko there): remove
# the build outputs of the source directories by name instead.
clean:
	find lib crypto arch \( -name '*.o' -o -name '.*.cmd' -o -name '*.o.d' \
		-o -name '.*.o.d' \) -delete
	rm -f *.ko *.mod *.mod.c *.o .*.cmd Module.symvers modules.order \
		arch/x86/sm4_x86_glue_*.c

install: modules_install
	depmod -a $(KVER)

check-kdir:
	@test -f $(KDIR)/Makefile || { \
	  echo "error: no kernel build tree at $(KDIR): install the headers (apt-get install linux-headers-$(KVER)) or pass KDIR=" >&2; \
	  exit 1; }

check:
	bash tests/run-all

.PHONY: all modules clean modules_install install check-kdir check

# ---- tcrypt, DKMS and the native benchmark -------------------------------
# make tcrypt [KDIR=...] [ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-]
#                      patched crypto/tcrypt.c as sm4_tcrypt.ko (in .cache/tcrypt/)
# make dkms [KVER=...] stage /usr/src/sm4-crypto-<ver>, dkms add/build/install
# make dkms-remove     dkms remove --all
# make dkms-test [KVER=...]  add/build/install/remove test with PASS/FAIL lines
# make deb [DEB_OUT=DIR] [DEB_VERSION=VER]  Debian package
#                      sm4-crypto-dkms_<ver>_all.deb in DIR (default
#                      build/deb), built from a copy of the checkout
# <ver> is what tools/version.sh prints (0.2.0~git<date>.<hash> from a git
# checkout), stamped into the copies; DEB_VERSION overrides it for make deb.
# make bench           tools/bench.sh: tables, doc/bench/results.{txt,csv}, chart.png

DKMS_VERSION = $(shell tools/version.sh)

tcrypt:
	bash tools/build-tcrypt.sh $(KDIR) $(TCRYPT_OUT)

dkms:
	@! dpkg-query -W -f='$${Status}' sm4-crypto-dkms 2>/dev/null | \
		grep -q 'ok installed' || { echo "error: the sm4-crypto-dkms package is installed: it owns /usr/src/sm4-crypto-$(DKMS_VERSION) (apt-get purge sm4-crypto-dkms first)" >&2; exit 1; }
	bash tools/dkms-src.sh --version $(DKMS_VERSION)
	-dkms remove -m sm4-crypto -v $(DKMS_VERSION) --all >/dev/null 2>&1
	dkms add -m sm4-crypto -v $(DKMS_VERSION)
	dkms build -m sm4-crypto -v $(DKMS_VERSION) -k $(KVER)
	dkms install -m sm4-crypto -v $(DKMS_VERSION) -k $(KVER)

dkms-remove:
	dkms remove -m sm4-crypto -v $(DKMS_VERSION) --all

dkms-test:
	bash tests/dkms-test.sh $(if $(filter command line,$(origin KVER)),$(KVER))

deb:
	bash tools/make-deb.sh $(if $(DEB_VERSION),--version $(DEB_VERSION)) $(DEB_OUT)

bench:
	bash tools/bench.sh

.PHONY: tcrypt dkms dkms-remove dkms-test deb bench
