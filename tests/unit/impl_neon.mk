# SPDX-License-Identifier: GPL-2.0
IMPL_OBJS_aarch64 += $(B)/arch/arm64/sm4-neon-core.o $(B)/impl_neon.o
