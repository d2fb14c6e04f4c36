#include "mm/boot.hpp"
#include "mm/buddy.hpp"
#include "mm/page_alloc.hpp"
#include "mm/verify.hpp"
#include "support/small_machine.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <stdexcept>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{
std::unique_ptr<machine> booted_machine()
{
    kernel_version era{6, 7, 0, 0};
    auto m = std::make_unique<machine>(test::small_spec(1, 2, 1), era, default_patches(era));
    boot(*m);
    return m;
}

bool mentions(const verify_result& r, const std::string& what)
{
    for (const auto& e : r.errors)
        if (e.find(what) != std::string::npos) return true;
    return false;
}
} // namespace

TEST_CASE("verify accepts a freshly booted machine and one with pages on PCP lists and allocated")
{
    auto m = booted_machine();
    CHECK(verify(*m).ok());
    mm_ctx c = m->ctx(0);
    pfn_t a = alloc_pages(c, {});
    pfn_t b = alloc_pages(c, {});
    REQUIRE(a != NO_PFN);
    free_pages(c, a, 0);
    verify_result r = verify(*m);
    CHECK(r.ok());
    CHECK(r.allocated_pages == 1);
    CHECK(r.pcp_pages > 0);
    free_pages(c, b, 0);
}

TEST_CASE("verify finds a wrong nr_free, a lost frame and a wrong pcp count")
{
    auto m = booted_machine();
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    ++z.free_area_[3].nr_free;
    CHECK(mentions(verify(*m), "nr_free[3]"));
    --z.free_area_[3].nr_free;

    // A free block whose head no longer says PageBuddy: the list and the frame walk disagree.
    pfn_t head = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    REQUIRE(head != NO_PFN);
    m->pfn_to_page(head).set_state(page_state::allocated);
    CHECK_FALSE(verify(*m).ok());
    m->pfn_to_page(head).set_state(page_state::buddy);
    CHECK(verify(*m).ok());

    ++z.per_cpu_pageset[1].count;
    CHECK(mentions(verify(*m), "pcp->count"));
    --z.per_cpu_pageset[1].count;
    CHECK(verify(*m).ok());
}

TEST_CASE("verify finds two free buddies left unmerged")
{
    auto m = booted_machine();
    zone& z = m->nodes[0]->z(ZONE_DMA32);
    mm_ctx c = m->ctx(0);
    // Take one max-order block apart by hand into two order-9 halves, both put back on the free lists
    // without merging them: the allocator would never leave them so.
    pfn_t head = z.free_area_[MAX_PAGE_ORDER].free_list[MIGRATE_MOVABLE].first;
    REQUIRE(head != NO_PFN);
    del_page_from_free_list(c, z, head, MAX_PAGE_ORDER, MIGRATE_MOVABLE);
    pfn_t upper = head + (1U << (MAX_PAGE_ORDER - 1));
    add_to_free_list(c, z, head, MAX_PAGE_ORDER - 1, MIGRATE_MOVABLE, false);
    add_to_free_list(c, z, upper, MAX_PAGE_ORDER - 1, MIGRATE_MOVABLE, false);
    CHECK(mentions(verify(*m), "were not merged"));
}

TEST_CASE("the debug option verifies after every allocator operation")
{
    auto m = booted_machine();
    m->verify_every_op = true;
    mm_ctx c = m->ctx(0);
    pfn_t a = alloc_pages(c, {});
    REQUIRE(a != NO_PFN);
    ++m->nodes[0]->z(ZONE_DMA32).free_area_[2].nr_free; // corrupt
    CHECK_THROWS_AS(free_pages(c, a, 0), std::logic_error);
}
