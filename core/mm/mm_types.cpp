#include "mm_types.hpp"
#include "machine.hpp"

#include <array>

namespace pcplab::mm
{

const char* migratetype_name(unsigned mt)
{
    // The names /proc/pagetypeinfo uses
    static constexpr std::array<const char*, MIGRATE_TYPES> names
        = {"Unmovable", "Movable", "Reclaimable", "HighAtomic", "Isolate"};
    return mt < names.size() ? names[mt] : "?";
}

const char* zone_name(unsigned zt)
{
    static constexpr std::array<const char*, MAX_NR_ZONES> names = {"DMA", "DMA32", "Normal", "Movable", "Device"};
    return zt < names.size() ? names[zt] : "?";
}

const char* limits_cause_name(limits_cause c)
{
    switch (c) {
    case limits_cause::setup_per_cpu_pageset:
        return "setup_per_cpu_pageset";
    case limits_cause::deferred_init_done:
        return "zone_pcp_update after deferred init";
    case limits_cause::watermarks:
        return "setup_per_zone_wmarks";
    case limits_cause::sysctl:
        return "sysctl";
    case limits_cause::cpu_online:
        return "cpu online";
    }
    return "?";
}

} // namespace pcplab::mm
