#include "mm_types.hpp"

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

} // namespace pcplab::mm
