// struct free_area: the buddy free lists of one order.
#pragma once

#include "page_list.hpp"

#include <array>

namespace pcplab::mm
{

struct free_area {
    std::array<page_list, MIGRATE_TYPES> free_list{};
    unsigned long nr_free = 0; // blocks of this order, all migratetypes
    // pcplab's own count per list (the kernel keeps none: /proc/pagetypeinfo walks the lists), so that a
    // snapshot reports blocks per migratetype without walking long lists through the memmap every time.
    std::array<unsigned long, MIGRATE_TYPES> nr_free_mt{};
};

} // namespace pcplab::mm
