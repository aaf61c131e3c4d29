# SPDX-License-Identifier: GPL-2.0
IMPL_OBJS_x86_64 += $(B)/arch/x86/sm4-vaes-avx2-asm_64.o $(B)/impl_vaes_avx2.o
