# SPDX-License-Identifier: GPL-2.0
IMPL_OBJS_x86_64 += $(B)/arch/x86/sm4-gfni-avx512-ymm.o $(B)/impl_gfni_avx512_ymm.o
