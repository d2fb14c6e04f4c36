#include "buddy_test_support.hpp"

#include "mm/buddy.hpp"
#include "mm/watermark_check.hpp"

#include <catch2/catch.hpp>

#include <random>

using namespace pcplab::mm;
using namespace pcplab::test;

namespace
{

unsigned long pages_on(const machine& m, const zone& z, int mt)
{
    unsigned long n = 0;
    for (unsigned o = 0; o < NR_PAGE_ORDERS; ++o) n += list_pfns(m, z.free_area_[o].free_list[mt]).size() << o;
    return n;
}

std::string first_error(const buddy_census& b)
{
    return b.errors.empty() ? std::string() : b.errors.front();
}

} // namespace

TEST_CASE("random allocations and frees conserve pages and coalesce back to max-order blocks")
{
    auto era = GENERATE(as<std::string>{}, "v5.4", "v6.6", "v6.13", "v6.18");
    CAPTURE(era);
    auto m = make_machine(era);
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    for (zone_type zt : {ZONE_DMA, ZONE_DMA32}) {
        zone& z = m->nodes[0]->z(zt);
        CAPTURE(zone_name(zt));
        const buddy_census start = census(*m, z);
        REQUIRE(start.errors.empty());
        REQUIRE(start.free_pages == static_cast<long>(z.managed()));

        std::vector<bool> in_use(z.spanned_pages, false);
        std::vector<std::pair<pfn_t, unsigned>> live;
        long allocated = 0;
        std::mt19937_64 rng(0x5eedU + zt);
        for (int step = 0; step < 6000; ++step) {
            if (live.empty() || rng() % 100 < 55) {
                unsigned order = static_cast<unsigned>(rng() % NR_PAGE_ORDERS);
                int mt = static_cast<int>(rng() % MIGRATE_PCPTYPES);
                pfn_t pfn = rmqueue_buddy(c, z, order, mt, ALLOC_WMARK_LOW);
                if (pfn == NO_PFN) {
                    // Every PCP type falls back to the others: failing means no block this large is free.
                    for (unsigned o = order; o < NR_PAGE_ORDERS; ++o) REQUIRE(z.free_area_[o].nr_free == 0);
                    continue;
                }
                REQUIRE(z.zone_spans_pfn(pfn));
                REQUIRE((pfn & ((pfn_t{1} << order) - 1)) == 0);
                REQUIRE(m->pfn_to_page(pfn).state() == page_state::allocated);
                REQUIRE(m->pfn_to_page(pfn).order() == order);
                for (pfn_t i = 0; i < (pfn_t{1} << order); ++i) {
                    REQUIRE_FALSE(in_use[pfn + i - z.zone_start_pfn]); // never handed out twice
                    in_use[pfn + i - z.zone_start_pfn] = true;
                }
                live.emplace_back(pfn, order);
                allocated += 1L << order;
            } else {
                std::size_t i = rng() % live.size();
                auto [pfn, order] = live[i];
                live[i] = live.back();
                live.pop_back();
                for (pfn_t k = 0; k < (pfn_t{1} << order); ++k) in_use[pfn + k - z.zone_start_pfn] = false;
                free_one_page(
                    c, z, pfn, order, m->get_pageblock_migratetype(pfn), FPI_NONE, lock_caller::free_one_page);
                allocated -= 1L << order;
            }
            REQUIRE(z.nr_free_pages + allocated == static_cast<long>(z.managed()));
            if (step % 1000 == 999) {
                buddy_census now = census(*m, z);
                INFO(first_error(now));
                REQUIRE(now.errors.empty());
                REQUIRE(now.free_pages + allocated == static_cast<long>(z.managed()));
            }
        }
        for (auto [pfn, order] : live)
            free_one_page(c, z, pfn, order, m->get_pageblock_migratetype(pfn), FPI_NONE, lock_caller::free_one_page);
        const buddy_census end = census(*m, z);
        INFO(first_error(end));
        REQUIRE(end.errors.empty());
        CHECK(end.nr_free == start.nr_free);
        CHECK(end.blocks == start.blocks);
        CHECK(end.free_pages == start.free_pages);
    }
    CHECK(verify_first_error(*m) == "");
}

TEST_CASE("order-0 allocations split one max-order block and walk up through it")
{
    auto era = GENERATE(as<std::string>{}, "v5.4", "v6.18");
    CAPTURE(era);
    auto m = make_machine(era);
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    REQUIRE(z.free_area_[MAX_PAGE_ORDER].nr_free == 252);
    for (unsigned o = 0; o < MAX_PAGE_ORDER; ++o) REQUIRE(z.free_area_[o].nr_free == 0);

    pfn_t head = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    pfn_t first = rmqueue_buddy(c, z, 0, MIGRATE_MOVABLE, 0);
    CHECK(first == head); // the list head, lower half kept
    for (unsigned o = 0; o < MAX_PAGE_ORDER; ++o) {
        CHECK(z.free_area_[o].nr_free == 1);
        CHECK(z.free_area_[o].free_list[MIGRATE_MOVABLE].first == first + (pfn_t{1} << o)); // upper halves
    }
    CHECK(z.free_area_[MAX_PAGE_ORDER].nr_free == 251);
    pfn_t prev = first;
    for (int i = 1; i < 1024; ++i) {
        pfn_t pfn = rmqueue_buddy(c, z, 0, MIGRATE_MOVABLE, 0);
        REQUIRE(pfn == prev + 1);
        prev = pfn;
    }
    CHECK(rmqueue_buddy(c, z, 0, MIGRATE_MOVABLE, 0) / 1024 != first / 1024); // the block is used up
    CHECK(census(*m, z).errors.empty());
    CHECK(verify_first_error(*m) == "");
}

TEST_CASE("rmqueue_bulk fills a PCP list in ascending order under one zone->lock hold")
{
    auto m = make_machine(GENERATE(as<std::string>{}, "v5.4", "v6.18"));
    boot_all(*m);
    mm_ctx c = m->ctx(1);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    page_list list;
    mm_work before = m->work;
    int got = rmqueue_bulk(c, z, 0, 63, list, MIGRATE_UNMOVABLE, ALLOC_WMARK_LOW);
    CHECK(got == 63);
    auto pfns = list_pfns(*m, list);
    REQUIRE(pfns.size() == 63);
    for (std::size_t i = 0; i < pfns.size(); ++i) {
        CHECK(pfns[i] == pfns[0] + i);
        CHECK(m->pfn_to_page(pfns[i]).state() == page_state::pcp);
        CHECK(m->pfn_to_page(pfns[i]).migratetype() == MIGRATE_UNMOVABLE);
    }
    const auto& st = m->counting_locks().stats(lock_kind::zone_lock, lock_caller::rmqueue_bulk);
    CHECK(st.holds == 1);
    CHECK(st.total.pages_from_buddy == 63);
    CHECK((m->work - before).pcp_list_ops == 63);
    CHECK(z.nr_free_pages == static_cast<long>(z.managed()) - 63);
}

TEST_CASE("freeing both buddies merges them, and a likely merge goes to the list tail")
{
    auto era = GENERATE(as<std::string>{}, "v5.4", "v6.6", "v6.18");
    CAPTURE(era);
    auto m = make_machine(era);
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    pfn_t b = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    for (int i = 0; i < 1024; ++i) REQUIRE(rmqueue_buddy(c, z, 0, MIGRATE_MOVABLE, 0) == b + i);
    auto free0 = [&](pfn_t pfn, unsigned fpi = FPI_NONE) {
        free_one_page(c, z, pfn, 0, MIGRATE_MOVABLE, fpi, lock_caller::free_one_page);
    };
    const page_list& o0 = z.free_area_[0].free_list[MIGRATE_MOVABLE];
    const page_list& o1 = z.free_area_[1].free_list[MIGRATE_MOVABLE];

    std::uint64_t merges = m->work.merge_steps;
    free0(b + 2);
    free0(b + 3); // buddy b+2 is free: one order-1 block
    CHECK(m->work.merge_steps - merges == 1);
    CHECK(list_pfns(*m, o1) == std::vector<pfn_t>{b + 2});
    CHECK(o0.empty());
    CHECK(m->pfn_to_page(b + 3).state() == page_state::tail);

    free0(b + 100); // its order-1 buddy (b+102) is in use: head
    free0(b); // its order-1 buddy (b+2) is free: merge likely, tail
    free0(b + 200); // head again
    free0(b + 300, FPI_TO_TAIL);
    CHECK(list_pfns(*m, o0) == std::vector<pfn_t>{b + 200, b + 100, b, b + 300});

    merges = m->work.merge_steps;
    free0(b + 1); // b+1 + b -> order 1, + b+2 -> order 2; b+4 is in use
    CHECK(m->work.merge_steps - merges == 2);
    CHECK(z.free_area_[2].free_list[MIGRATE_MOVABLE].first == b);
    CHECK(m->pfn_to_page(b).order() == 2);
    CHECK(o1.empty());
    CHECK(list_pfns(*m, o0) == std::vector<pfn_t>{b + 200, b + 100, b + 300});
    const auto& st = m->counting_locks().stats(lock_kind::zone_lock, lock_caller::free_one_page);
    CHECK(st.holds == 7);
    CHECK(st.total.pages_to_buddy == 7);
    CHECK(census(*m, z).errors.empty());
    CHECK(verify_first_error(*m) == "");
}

TEST_CASE("merging across pageblocks follows the era's migratetype rules")
{
    auto era = GENERATE(as<std::string>{}, "v5.4", "v6.6", "v6.18");
    CAPTURE(era);
    auto m = make_machine(era);
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    pfn_t b = rmqueue_buddy(c, z, MAX_PAGE_ORDER, MIGRATE_MOVABLE, 0);
    REQUIRE(b != NO_PFN);

    SECTION("different but mergeable types merge; v6.10+ retypes the buddy's pageblock")
    {
        m->set_pageblock_migratetype(b + 512, MIGRATE_UNMOVABLE);
        free_one_page(c, z, b + 512, pageblock_order, MIGRATE_UNMOVABLE, FPI_NONE, lock_caller::free_one_page);
        free_one_page(c, z, b, pageblock_order, MIGRATE_MOVABLE, FPI_NONE, lock_caller::free_one_page);
        CHECK(list_pfns(*m, z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE]).front() == b);
        CHECK(z.free_area_[pageblock_order].nr_free == 0);
        CHECK(m->get_pageblock_migratetype(b + 512) == (era == "v6.18" ? MIGRATE_MOVABLE : MIGRATE_UNMOVABLE));
    }
    SECTION("an isolated pageblock never merges with its neighbour")
    {
        m->set_pageblock_migratetype(b + 512, MIGRATE_ISOLATE);
        z.nr_isolate_pageblock = 1;
        long free_before = z.nr_free_pages;
        free_one_page(c, z, b + 512, pageblock_order, MIGRATE_ISOLATE, FPI_NONE, lock_caller::free_one_page);
        CHECK(z.nr_free_pages == free_before); // isolated pages are not free pages
        free_one_page(c, z, b, pageblock_order, MIGRATE_MOVABLE, FPI_NONE, lock_caller::free_one_page);
        CHECK(z.nr_free_pages == free_before + 512);
        CHECK(list_pfns(*m, z.free_area_[pageblock_order].free_list[MIGRATE_MOVABLE]) == std::vector<pfn_t>{b});
        CHECK(list_pfns(*m, z.free_area_[pageblock_order].free_list[MIGRATE_ISOLATE]) == std::vector<pfn_t>{b + 512});
    }
    CHECK(census(*m, z).errors.empty());
    CHECK(verify_first_error(*m) == "");
}

TEST_CASE("a buddy outside the zone's span is never looked at or merged")
{
    auto m = make_machine("v6.18");
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    pfn_t b = rmqueue_buddy(c, z, MAX_PAGE_ORDER, MIGRATE_MOVABLE, 0);
    free_one_page(c, z, b, pageblock_order, MIGRATE_MOVABLE, FPI_NONE, lock_caller::free_one_page);
    REQUIRE(m->pfn_to_page(b).state() == page_state::buddy); // a free order-9 block of the real zone

    // A zone like a deferred-init thread's: same node and type, spanning only the upper half.
    zone part;
    part.idx = z.idx;
    part.node = z.node;
    part.zone_start_pfn = b + 512;
    part.spanned_pages = 512;
    __free_one_page(c, part, b + 512, pageblock_order, MIGRATE_MOVABLE, FPI_NONE);
    CHECK(part.free_area_[pageblock_order].nr_free == 1);
    CHECK(part.free_area_[MAX_PAGE_ORDER].nr_free == 0);
    CHECK(list_pfns(*m, z.free_area_[pageblock_order].free_list[MIGRATE_MOVABLE]) == std::vector<pfn_t>{b});
    CHECK(census(*m, part).errors.empty());
}

TEST_CASE("an unmovable request with only movable blocks claims a whole max-order block")
{
    auto era = GENERATE(as<std::string>{}, "v5.4", "v6.6", "v6.13", "v6.18");
    CAPTURE(era);
    auto m = make_machine(era);
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    pfn_t head = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    pfn_t pfn = rmqueue_buddy(c, z, 0, MIGRATE_UNMOVABLE, 0);
    CHECK(pfn == head);
    CHECK(m->get_pageblock_migratetype(pfn) == MIGRATE_UNMOVABLE);
    CHECK(m->get_pageblock_migratetype(pfn + 512) == MIGRATE_UNMOVABLE);
    for (unsigned o = 0; o < MAX_PAGE_ORDER; ++o)
        CHECK(list_pfns(*m, z.free_area_[o].free_list[MIGRATE_UNMOVABLE]) == std::vector<pfn_t>{pfn + (1U << o)});
    CHECK(z.free_area_[MAX_PAGE_ORDER].nr_free == 251);
    CHECK(rmqueue_buddy(c, z, 0, MIGRATE_UNMOVABLE, 0) == pfn + 1); // now from its own list
    CHECK(census(*m, z).errors.empty());
    CHECK(verify_first_error(*m) == "");
}

TEST_CASE("stealing from a partly used movable pageblock follows the era's claim rule")
{
    auto era = GENERATE(as<std::string>{}, "v5.4", "v6.6", "v6.13", "v6.18");
    const int free_in_block = GENERATE(100, 300); // below or above half a pageblock
    CAPTURE(era, free_in_block);
    auto m = make_machine(era);
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    while (z.free_area_[MAX_PAGE_ORDER].nr_free > 1) REQUIRE(rmqueue_buddy(c, z, MAX_PAGE_ORDER, MIGRATE_MOVABLE, 0));
    pfn_t r = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    // Fill the first pageblock and all but `free_in_block` pages of the second with movable pages.
    for (int i = 0; i < 1024 - free_in_block; ++i) REQUIRE(rmqueue_buddy(c, z, 0, MIGRATE_MOVABLE, 0) == r + i);
    const pfn_t first_free = r + 1024 - free_in_block;
    const std::uint64_t moves = m->work.pageblock_moves;

    pfn_t pfn = rmqueue_buddy(c, z, 0, MIGRATE_UNMOVABLE, 0);
    const auto now_moved = m->work.pageblock_moves - moves;
    const unsigned long left = static_cast<unsigned long>(free_in_block) - 1;
    if (free_in_block >= 256) {
        // Half the block or more is free: every era claims it, moving its free pages.
        CHECK(pfn == first_free);
        CHECK(m->get_pageblock_migratetype(r + 512) == MIGRATE_UNMOVABLE);
        CHECK(pages_on(*m, z, MIGRATE_UNMOVABLE) == left);
        CHECK(pages_on(*m, z, MIGRATE_MOVABLE) == 0);
        CHECK(now_moved == static_cast<std::uint64_t>(free_in_block));
    } else if (era == "v5.4" || era == "v6.6") {
        // Before v6.10 the free pages move to the unmovable lists even though the block keeps its type.
        CHECK(pfn == first_free);
        CHECK(m->get_pageblock_migratetype(r + 512) == MIGRATE_MOVABLE);
        CHECK(pages_on(*m, z, MIGRATE_UNMOVABLE) == left);
        CHECK(now_moved == static_cast<std::uint64_t>(free_in_block));
    } else {
        // v6.10+: only the page is taken; v6.10 .. v6.14 split the largest fallback block for it,
        // v6.15+ the smallest.
        CHECK(pfn == (era == "v6.13" ? r + 960 : first_free));
        CHECK(m->get_pageblock_migratetype(r + 512) == MIGRATE_MOVABLE);
        CHECK(pages_on(*m, z, MIGRATE_MOVABLE) == left);
        CHECK(pages_on(*m, z, MIGRATE_UNMOVABLE) == 0);
        CHECK(now_moved == 0);
    }
    CHECK(census(*m, z).errors.empty());
    CHECK(verify_first_error(*m) == "");
}

TEST_CASE("zone_watermark_ok on worked numbers")
{
    auto m = make_machine("v6.18");
    boot_all(*m);
    mm_ctx c = m->ctx(0);
    zone& dma = m->nodes[0]->z(ZONE_DMA);
    REQUIRE(dma.nr_free_pages == 3998); // 158 + 3840 frames

    CHECK(zone_watermark_ok(dma, 0, 3997, ZONE_DMA, 0));
    CHECK_FALSE(zone_watermark_ok(dma, 0, 3998, ZONE_DMA, 0)); // free must exceed the mark
    dma.lowmem_reserve[ZONE_NORMAL] = 10;
    CHECK(zone_watermark_ok(dma, 0, 3987, ZONE_DMA, 0));
    CHECK_FALSE(zone_watermark_ok(dma, 0, 3988, ZONE_NORMAL, 0)); // 3998 <= 3988 + 10
    CHECK(zone_watermark_ok(dma, 0, 3987, ZONE_NORMAL, 0));
    CHECK(zone_watermark_ok(dma, 4, 3982, ZONE_DMA, 0)); // 3998 - 15 = 3983
    CHECK_FALSE(zone_watermark_ok(dma, 4, 3983, ZONE_DMA, 0));
    CHECK_FALSE(zone_watermark_ok(dma, 0, 5000, ZONE_DMA, 0));
    CHECK(zone_watermark_ok(dma, 0, 5000, ZONE_DMA, ALLOC_HARDER)); // min 5000 - 1250 = 3750

    // DMA32 with no free max-order block: plenty of pages, but not in one piece.
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    std::vector<pfn_t> blocks;
    for (pfn_t b; (b = rmqueue_buddy(c, z, MAX_PAGE_ORDER, MIGRATE_MOVABLE, 0)) != NO_PFN;) blocks.push_back(b);
    REQUIRE(blocks.size() == 252);
    for (std::size_t i = 1; i < blocks.size(); ++i) {
        // split_page: the upper half stays allocated as a block of its own, the lower half is freed
        page& upper = m->pfn_to_page(blocks[i] + 512);
        upper.set(page_state::allocated, pageblock_order, MIGRATE_MOVABLE);
        free_one_page(c, z, blocks[i], pageblock_order, MIGRATE_MOVABLE, FPI_NONE, lock_caller::free_one_page);
    }
    REQUIRE(z.nr_free_pages == 251 * 512);
    CHECK(zone_watermark_ok(z, pageblock_order, 1000, ZONE_DMA32, 0));
    CHECK_FALSE(zone_watermark_ok(z, MAX_PAGE_ORDER, 1000, ZONE_DMA32, 0));
    CHECK_FALSE(zone_watermark_ok(z, pageblock_order, 251 * 512 - 511, ZONE_DMA32, 0));
    // A max-order block in the highatomic reserve counts only for ALLOC_HARDER.
    m->set_pageblock_migratetype(blocks[0], MIGRATE_HIGHATOMIC);
    m->set_pageblock_migratetype(blocks[0] + 512, MIGRATE_HIGHATOMIC);
    free_one_page(c, z, blocks[0], MAX_PAGE_ORDER, MIGRATE_HIGHATOMIC, FPI_NONE, lock_caller::free_one_page);
    CHECK_FALSE(zone_watermark_ok(z, MAX_PAGE_ORDER, 1000, ZONE_DMA32, 0));
    CHECK(zone_watermark_ok(z, MAX_PAGE_ORDER, 1000, ZONE_DMA32, ALLOC_HARDER));
    CHECK(census(*m, z).errors.empty());
    CHECK(verify_first_error(*m) == "");
}
