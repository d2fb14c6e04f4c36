// rmqueue-bulk-fallback-mode (Johannes Weiner, "mm: page_alloc: speed up fallbacks in rmqueue_bulk()", v6.15):
// a movable refill in a zone whose pageblocks are all unmovable and too full to claim. Without the switch every
// page of the batch searches for a block to claim (and reads a pageblock for it); with it only the first does.
#include "buddy_test_support.hpp"

#include "mm/buddy.hpp"

#include <catch2/catch.hpp>

using namespace pcplab::mm;
using namespace pcplab::test;

namespace
{

// DMA32 of the 1 GiB machine taken entirely by order-3 unmovable blocks (each fallback claims a movable block
// whole, so every pageblock turns unmovable), then three of every eight freed again: slabs 0 and 1 merge into
// an order-4 chunk, slab 2 stays an order-3 one. Each pageblock keeps 320 of its 512 pages: a movable request
// finds order-4 candidates but can never claim their pageblock (192 free + 0 movable < 256).
zone& fragment_dma32(machine& m)
{
    boot_all(m);
    mm_ctx c = m.ctx(0);
    zone& z = m.nodes[0]->z(ZONE_DMA32);
    std::vector<pfn_t> slabs;
    for (pfn_t pfn; (pfn = rmqueue_buddy(c, z, 3, MIGRATE_UNMOVABLE, 0)) != NO_PFN;) slabs.push_back(pfn);
    REQUIRE(z.nr_free_pages == 0);
    for (pfn_t pfn : slabs)
        if ((pfn >> 3) % 8 < 3) free_one_page(c, z, pfn, 3, MIGRATE_UNMOVABLE, FPI_NONE, lock_caller::free_one_page);
    for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o) REQUIRE(z.free_area_[o].free_list[MIGRATE_MOVABLE].empty());
    REQUIRE(z.free_area_[4].nr_free > 0);
    return z;
}

struct refill {
    int got = 0;
    std::vector<pfn_t> pages;
    mm_work work;
};

refill refill_movable(const std::string& era, bool keep_mode, int count)
{
    auto m = make_machine(era);
    m->patches.set(patch::rmqueue_bulk_fallback_mode, keep_mode);
    zone& z = fragment_dma32(*m);
    mm_ctx c = m->ctx(0);
    const mm_work before = m->work;
    page_list list;
    refill r;
    r.got = rmqueue_bulk(c, z, 0, count, list, MIGRATE_MOVABLE, 0);
    r.work = m->work - before;
    r.pages = list_pfns(*m, list);
    CHECK(census(*m, z).errors.empty()); // (verify() would look for the batch on a real pageset's lists)
    return r;
}

} // namespace

TEST_CASE("a movable refill in a fragmented zone searches for a block to claim once per page without the mode, "
          "once with it")
{
    const int batch = 31;
    const refill off = refill_movable("v6.18", false, batch);
    const refill on = refill_movable("v6.18", true, batch);
    REQUIRE(off.got == batch);
    REQUIRE(on.got == batch);
    CHECK(off.work.claim_searches == static_cast<std::uint64_t>(batch));
    CHECK(on.work.claim_searches == 1);
    // The failed claims changed nothing, so the same pages were stolen either way...
    CHECK(on.pages == off.pages);
    CHECK(off.work.pageblock_moves == 0);
    // ...but each search looked at orders 10 .. 4 and walked its order-4 candidate's pageblock: the 320 frames of
    // its slabs and the heads of its free chunks.
    const std::uint64_t touches_off = off.work.page_touch_local + off.work.page_touch_remote + off.work.page_touch_hit;
    const std::uint64_t touches_on = on.work.page_touch_local + on.work.page_touch_remote + on.work.page_touch_hit;
    CHECK(touches_off >= touches_on + (batch - 1) * 320);
    CHECK(off.work.fallback_area_checks >= on.work.fallback_area_checks + (batch - 1) * 7);
}

TEST_CASE("rmqueue-bulk-fallback-mode means nothing before v6.15, whose fallback has no claim and steal modes")
{
    for (const char* era : {"v5.4", "v6.6", "v6.13"}) {
        INFO(era);
        auto v = *kernel_version::parse(era);
        CHECK_FALSE(default_patches(v)[patch::rmqueue_bulk_fallback_mode]);
        const std::string why = patch_not_applicable(patch::rmqueue_bulk_fallback_mode, true, v);
        CHECK(why.find("v6.15") != std::string::npos);
        CHECK(patch_not_applicable(patch::rmqueue_bulk_fallback_mode, false, v) == why);
        // The switch changes nothing there: the same pages, and no claim search at all.
        const refill off = refill_movable(era, false, 15);
        const refill on = refill_movable(era, true, 15);
        CHECK(on.pages == off.pages);
        CHECK(on.work == off.work);
        CHECK(off.work.claim_searches == 0);
    }
    const auto v615 = *kernel_version::parse("v6.15");
    CHECK(default_patches(v615)[patch::rmqueue_bulk_fallback_mode]);
    CHECK(patch_not_applicable(patch::rmqueue_bulk_fallback_mode, true, *kernel_version::parse("v6.18")).empty());
    CHECK(patch_info(patch::rmqueue_bulk_fallback_mode).scenario == "007");
}
