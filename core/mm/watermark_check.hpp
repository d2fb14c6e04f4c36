// zone_watermark_ok: may an allocation of this order take pages from the zone without going below a watermark?
// (watermark_check.cpp; the watermarks themselves are set in watermarks.hpp.)
#pragma once

#include "machine.hpp"

namespace pcplab::mm
{

// zone_watermark_ok / __zone_watermark_ok (v5.4 / v6.x), with free pages taken from zone->nr_free_pages.
bool zone_watermark_ok(const zone& z, unsigned order, unsigned long mark, int highest_zoneidx, unsigned alloc_flags);

} // namespace pcplab::mm
