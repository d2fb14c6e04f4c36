// Dating a /proc/zoneinfo capture by its layout: the lines mm/vmstat.c (mm/page_alloc.c before v2.6.18)
// printed in each version give a window of kernel versions the capture can come from.
#pragma once

#include "mm/kernel_version.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <string>
#include <vector>

namespace pcplab::procfs
{

struct version_window {
    mm::kernel_version from{2, 6, 13, 0}; // /proc/zoneinfo appeared in v2.6.13
    mm::kernel_version to{9, 99, 0, 0}; // inclusive; 9.99 = no upper bound
    std::vector<std::string> reasons; // one per line that narrowed it: "a 'cma' line: v5.12+"
    bool conflict = false; // the lines contradict each other (a vendor backport): the window is the widest
    bool contains(const mm::kernel_version& v) const { return v.compare(from) >= 0 && v.compare(to) <= 0; }
    bool overlaps(const mm::kernel_version& lo, const mm::kernel_version& hi) const
    {
        return lo.compare(to) <= 0 && hi.compare(from) >= 0;
    }
    std::string str() const; // "v5.12 .. v5.15", "v6.13 or later"
};

version_window layout_window(const zoneinfo_doc& doc);

} // namespace pcplab::procfs
