// Pieces of the boot code shared by mem_init.cpp and deferred_init.cpp.
#pragma once

#include "machine.hpp"

#include <vector>

namespace pcplab::mm
{

zone* node_zone_of(pglist_data& pg, pfn_t pfn);
std::vector<pfn_range> free_ranges(pglist_data& pg, const node_spec& ns, pfn_t s, pfn_t e);
void init_single_page(page& p, int nid, unsigned zt);
// __free_pages_core at boot into zone z (managed += 1 << order)
void free_boot_block(mm_ctx& c, zone& z, pfn_t pfn, unsigned order);

} // namespace pcplab::mm
