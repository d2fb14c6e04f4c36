// min_free_kbytes, zone watermarks and lowmem reserves (init_per_zone_wmark_min and friends).
#pragma once

#include "base/error.hpp"

#include "machine.hpp"

#include <string>

namespace pcplab::mm
{

// nr_free_buffer_pages (v5.4 / v6.x): managed minus the high watermark, over DMA/DMA32/NORMAL of all nodes.
unsigned long nr_free_buffer_pages(const machine& m);
// calculate_min_free_kbytes (v6.19 name; inside init_per_zone_wmark_min before): int_sqrt(lowmem_kb * 16),
// clamped to [128, era upper]; returns the value to use given the user setting.
unsigned long calculate_min_free_kbytes(const kernel_era& era, unsigned long lowmem_kbytes);
unsigned long int_sqrt(unsigned long x);
// mult_frac (include/linux/math.h): x * n / d without overflowing the product.
unsigned long mult_frac(unsigned long x, unsigned long n, unsigned long d);
// setup_per_zone_wmarks / __setup_per_zone_wmarks (v5.4 / v6.x), then (v5.14+) zone_pcp_update of every zone.
void setup_per_zone_wmarks(machine& m);
// setup_per_zone_lowmem_reserve (v5.4 / v6.x) with the default sysctl_lowmem_reserve_ratio.
void setup_per_zone_lowmem_reserve(machine& m);
// init_per_zone_wmark_min (v5.4 / v6.x): min_free_kbytes (default or the preset's), watermarks, reserves.
void init_per_zone_wmark_min(machine& m);

// The sysctls: ok, or why the value was refused.
status set_min_free_kbytes(machine& m, long kbytes);
status set_watermark_scale_factor(machine& m, int factor);

} // namespace pcplab::mm
