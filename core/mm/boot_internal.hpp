// Pieces of the boot code shared by mem_init.cpp and deferred_init.cpp.
#pragma once

#include "machine.hpp"

#include <vector>

namespace pcplab::mm
{

zone* node_zone_of(pglist_data& pg, pfn_t pfn);
std::vector<pfn_range> free_ranges(pglist_data& pg, const node_spec& ns, pfn_t s, pfn_t e);
void init_single_page(page& p);
// What free_boot_block does with the frames inside the block (all but its head).
enum class inner_frames : bool {
    mark_tail, // memmap_init wrote them `reserved`: each becomes a tail
    unwritten, // never written (deferred init): they stay zero, which inside a block reads as a tail
};
// __free_pages_core at boot into zone z (managed += 1 << order)
void free_boot_block(mm_ctx& c, zone& z, pfn_t pfn, unsigned order, inner_frames inner = inner_frames::mark_tail);
// The frames of a node's highest zone that memmap_init initialises before deferring the rest: up to v4.16
// reset_deferred_meminit (2 GiB, span / 256, + reservations), from v4.17 one section.
unsigned long reset_deferred_meminit(const pglist_data& pg, const node_spec& ns, unsigned page_shift);
unsigned long static_init_pgcnt(
    const kernel_era& era, const pglist_data& pg, const node_spec& ns, unsigned page_shift, unsigned long section);

} // namespace pcplab::mm
