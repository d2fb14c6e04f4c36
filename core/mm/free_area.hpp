// struct free_area: the buddy free lists of one order.
#pragma once

#include "page_list.hpp"

#include <array>

namespace pcplab::mm
{

struct free_area {
    std::array<page_list, MIGRATE_TYPES> free_list{};
    unsigned long nr_free = 0; // blocks of this order, all migratetypes
};

} // namespace pcplab::mm
