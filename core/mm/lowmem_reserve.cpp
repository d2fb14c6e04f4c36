// zone->lowmem_reserve[]: how many pages an allocation that could have used a higher zone must leave in a
// lower one (zoneinfo's "protection:" line). mm/page_alloc.c setup_per_zone_lowmem_reserve.
#include "watermarks.hpp"

#include <array>

namespace pcplab::mm
{

namespace
{

// sysctl_lowmem_reserve_ratio defaults (v4.16+ designated initialisers): DMA and DMA32 keep 1/256 of what
// the zones above them hold, Normal 1/32; Movable and Device are never fallen back to (0 = no reserve).
constexpr std::array<unsigned long, MAX_NR_ZONES> lowmem_reserve_ratio = {256, 256, 32, 0, 0};

enum class reserve_form {
    walk_down, // v4.16 .. about v5.8: per upper zone, walk the lower zones down; empty lower zones too
    clear_empty_lower, // about v5.9 .. v6.9 and v6.14+: a zone with nothing managed (or ratio 0) reserves 0
    clear_empty_upper, // v6.10 .. v6.13: also 0 towards an empty upper zone (96a5c186efff, reverted in 2025)
};

reserve_form form_of(const kernel_version& v)
{
    // The walk-down form is in v5.4; the clearing rewrite is in v6.1. 96a5c186efff ("don't show protection
    // in zone's ->lowmem_reserve[] for empty zone") came in v6.10 and its revert is tagged for stable, in v6.14.
    if (v.before(5, 9)) return reserve_form::walk_down;
    if (v.at_least(6, 10) && v.before(6, 14)) return reserve_form::clear_empty_upper;
    return reserve_form::clear_empty_lower;
}

} // namespace

// setup_per_zone_lowmem_reserve (v4.17 .. v6.19): lower_zone->lowmem_reserve[j] = (managed pages of the
// zones above it up to j) / ratio(lower zone), per node; the three forms differ only for empty zones.
void setup_per_zone_lowmem_reserve(machine& m)
{
    reserve_form form = form_of(m.era.version);
    for (auto& n : m.nodes) {
        auto managed = [&](unsigned t) { return n->z(static_cast<zone_type>(t)).managed(); };
        for (unsigned i = 0; i < MAX_NR_ZONES; ++i) {
            zone& z = n->z(static_cast<zone_type>(i));
            unsigned long ratio = lowmem_reserve_ratio[i];
            bool clear = ratio == 0 || (form != reserve_form::walk_down && managed(i) == 0);
            unsigned long above = 0;
            z.lowmem_reserve[i] = 0;
            for (unsigned j = i + 1; j < MAX_NR_ZONES; ++j) {
                above += managed(j);
                bool empty_upper = form == reserve_form::clear_empty_upper && managed(j) == 0;
                z.lowmem_reserve[j] = (clear || empty_upper) ? 0 : static_cast<long>(above / ratio);
            }
        }
    }
}

} // namespace pcplab::mm
