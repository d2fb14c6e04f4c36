// The bit helpers the kernel's formulas use (include/linux/log2.h, include/asm-generic/bitops/fls.h).
#pragma once

namespace pcplab::mm
{

// fls: 1-based index of the highest set bit, 0 for 0.
constexpr int fls(unsigned long x)
{
    int r = 0;
    for (; x; x >>= 1) ++r;
    return r;
}

// rounddown_pow_of_two for b >= 1.
constexpr unsigned long rounddown_pow_of_two(unsigned long b)
{
    unsigned long p = 1;
    while (p <= b / 2) p <<= 1;
    return p;
}

} // namespace pcplab::mm
