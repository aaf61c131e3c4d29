# SPDX-License-Identifier: GPL-2.0
IMPL_OBJS_x86_64 += $(B)/arch/x86/sm4-gfni-avx512-asm_64.o $(B)/impl_gfni_avx512.o \
		    $(B)/tests/unit/evex_emu.o
