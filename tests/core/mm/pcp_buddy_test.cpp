// pcp-buddy (Johannes Weiner's "[RFC 0/2] mm: page_alloc: pcp buddy allocator", April 2026, not merged): a refill
// claims a whole pageblock, the claiming CPU owns it, frees on any CPU go to the owner's pageset, and a flush
// merges under pcp->lock before it frees the larger chunks under zone->lock.
#include "pcp_test_support.hpp"

#include "mm/page_alloc.hpp"

using namespace pcp_test;

namespace
{

// One node, two CPUs, on v6.18 with the switch on; the limits fixed (high_min = high_max turns auto-tuning
// off) so that pcp->high, 1024, holds a whole claimed pageblock.
std::unique_ptr<machine> buddy_machine()
{
    auto m = make_machine({"v6.18", 1, 2, 65536, {}}, {.batch = 63, .high = 1024, .high_min = 1024, .high_max = 1024});
    m->patches.set(patch::pcp_buddy, true);
    return m;
}

} // namespace

TEST_CASE("pcp-buddy is an RFC no kernel has: off in every era, and meaningless before pcp->lock (v6.0)")
{
    for (const char* v : {"v5.4", "v6.6", "v6.18", "v6.19"})
        CHECK_FALSE(default_patches(*kernel_version::parse(v))[patch::pcp_buddy]);
    CHECK(patch_info(patch::pcp_buddy).kernels.str() == "not merged");
    CHECK(patch_not_applicable(patch::pcp_buddy, true, *kernel_version::parse("v5.14")).find("pcp->lock")
        != std::string::npos);
    CHECK(patch_not_applicable(patch::pcp_buddy, true, *kernel_version::parse("v6.6")).empty());
    CHECK(patch_from_name("pcp-buddy") == patch::pcp_buddy);
}

TEST_CASE("a pcp-buddy refill claims a whole pageblock in one zone->lock hold and tags it with the CPU")
{
    auto m = buddy_machine();
    zone& z = normal_zone(*m);
    const long free_before = z.nr_free_pages;
    mm_ctx c = m->ctx(0);
    auto& locks = record_holds(*m);
    const pfn_t first = alloc_pages(c, {});
    REQUIRE(first != NO_PFN);
    CHECK(m->get_pageblock_owner(first) == 0);
    CHECK(z.per_cpu_pageset[0].count == static_cast<int>(pageblock_nr_pages) - 1);
    CHECK(z.nr_free_pages == free_before - static_cast<long>(pageblock_nr_pages));
    // The rest of the block comes off the list without zone->lock.
    for (int i = 1; i < static_cast<int>(pageblock_nr_pages); ++i) REQUIRE(alloc_pages(c, {}) != NO_PFN);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::rmqueue_bulk).size() == 1);
    require_conserved(*m);

    // Off: the same allocations refill a batch at a time.
    auto off
        = make_machine({"v6.18", 1, 2, 65536, {}}, {.batch = 63, .high = 1024, .high_min = 1024, .high_max = 1024});
    mm_ctx c_off = off->ctx(0);
    auto& locks_off = record_holds(*off);
    for (int i = 0; i < static_cast<int>(pageblock_nr_pages); ++i) REQUIRE(alloc_pages(c_off, {}) != NO_PFN);
    CHECK(holds_of(locks_off, lock_kind::zone_lock, lock_caller::rmqueue_bulk).size() > 1);
    CHECK(off->get_pageblock_owner(first) == -1);
}

TEST_CASE("a page freed on another CPU goes to the pageset of the CPU that owns its pageblock")
{
    auto m = buddy_machine();
    zone& z = normal_zone(*m);
    mm_ctx c0 = m->ctx(0), c1 = m->ctx(1);
    const pfn_t pfn = alloc_pages(c0, {});
    REQUIRE(pfn != NO_PFN);
    const int owner_count = z.per_cpu_pageset[0].count;
    auto& locks = record_holds(*m);
    free_pages(c1, pfn, 0);
    CHECK(z.per_cpu_pageset[0].count == owner_count + 1);
    CHECK(z.per_cpu_pageset[1].count == 0);
    CHECK(holds_of(locks, lock_kind::zone_lock, lock_caller::free_one_page).empty());
    // CPU 0's next allocation reuses it (the list head is the hottest page).
    CHECK(alloc_pages(c0, {}) == pfn);
    require_conserved(*m);
}

TEST_CASE("a pcp-buddy drain merges the block under pcp->lock and frees it whole, which clears the owner")
{
    auto m = buddy_machine();
    zone& z = normal_zone(*m);
    const long free_before = z.nr_free_pages;
    mm_ctx c0 = m->ctx(0), c1 = m->ctx(1);
    std::vector<pfn_t> pages;
    for (int i = 0; i < 64; ++i) pages.push_back(alloc_pages(c0, {}));
    for (pfn_t p : pages) free_pages(c1, p, 0); // all back on CPU 0's lists
    REQUIRE(z.per_cpu_pageset[0].count == static_cast<int>(pageblock_nr_pages));
    auto& locks = record_holds(*m);
    drain_pages_zone(c0, 0, z);
    CHECK(z.per_cpu_pageset[0].count == 0);
    CHECK(z.nr_free_pages == free_before);
    const auto hs = holds_of(locks, lock_kind::zone_lock, lock_caller::drain_pages_zone);
    REQUIRE(hs.size() == 1);
    CHECK(m->get_pageblock_owner(pages.front()) == -1);
    require_conserved(*m);
}
