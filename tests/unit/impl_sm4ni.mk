# SPDX-License-Identifier: GPL-2.0
IMPL_OBJS_x86_64 += $(B)/arch/x86/sm4-ni-avx2-asm_64.o $(B)/impl_sm4ni.o
