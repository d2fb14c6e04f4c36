// How much of a node's highest zone is initialised before deferred init, per era: v4.15's reset_deferred_meminit
// (2 GiB or span / 256, plus the memblock reservations that touch that part of the node) and v4.17's one
// section. The pagesets set up in between are sized from it (seed 001's base v4.15-rc4 had batch 31).
#include "mm/boot.hpp"
#include "mm/boot_internal.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/verify.hpp"
#include "support/small_machine.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{
constexpr unsigned long GIB_PAGES = (1UL << 30) >> PAGE_SHIFT;

// The batch zone_batchsize gives a zone of `managed` pages up to v4.18, worked out by hand: a thousandth of
// the zone, at most 512 KiB of pages, quartered, then the largest 2^n - 1 not above 1.5 times that.
int batch_by_hand(unsigned long managed)
{
    unsigned long b = std::min(managed / 1024, (512UL << 10) / PAGE_SIZE) / 4;
    b = std::max(b, 1UL);
    unsigned long p = 1;
    while (p * 2 <= b + b / 2) p *= 2;
    return static_cast<int>(p - 1);
}
} // namespace

TEST_CASE("v4.15 initialises 2 GiB of each node's highest zone early, so its first pagesets get batch 31")
{
    kernel_version era{4, 15, 0, 0};
    machine_spec spec = test::small_spec(2, 4, 6);
    // Node 1's reservation (its memmap) moves to the top of the node, out of its first 2 GiB.
    pfn_range& n1_res = spec.nodes[1].reserved.front();
    const pfn_t n1_end = spec.nodes[1].memory.back().end;
    n1_res = {n1_end - 256, n1_end};
    machine m(spec, era, default_patches(era));
    mem_init(m);

    // Node 1: nothing reserved in its first 2 GiB, so 2 GiB exactly (the count passes 2 GiB on a section edge).
    zone& n1 = m.nodes[1]->z(ZONE_NORMAL);
    CHECK(m.nodes[1]->first_deferred_pfn == n1.zone_start_pfn + 2 * GIB_PAGES);
    CHECK(n1.managed() == 2 * GIB_PAGES);
    // Node 0: the 8 MiB kernel image at 16 MiB lies in the node's first 2 GiB and is added to the count, so the
    // Normal zone (above 4 GiB; DMA and DMA32 are all early) defers one section later.
    zone& n0 = m.nodes[0]->z(ZONE_NORMAL);
    CHECK(m.nodes[0]->first_deferred_pfn == n0.zone_start_pfn + 2 * GIB_PAGES + PAGES_PER_SECTION);
    CHECK(n0.managed() == 2 * GIB_PAGES + PAGES_PER_SECTION);

    setup_per_cpu_pageset(m);
    CHECK(batch_by_hand(n1.managed()) == 31); // 512 KiB / 4 KiB / 4 = 32, clamped to 31
    for (zone* z : {&n0, &n1}) {
        CHECK(z->per_cpu_pageset[0].batch == batch_by_hand(z->managed()));
        CHECK(z->per_cpu_pageset[0].high == 6 * 31);
    }

    // The rest is the pgdatinit threads' work; the limits stay (no seed 000 fix before v5.4).
    deferred_init d(m);
    d.start();
    d.finish();
    CHECK(n1.managed() == n1.present_pages - 256);
    CHECK(n1.per_cpu_pageset[0].batch == 31);
    verify_result v = verify(m);
    INFO((v.errors.empty() ? std::string() : v.errors.front()));
    CHECK(v.ok());
}

TEST_CASE("v4.17 initialises only the first section early: batch 7 on the same machine")
{
    kernel_version era{4, 17, 0, 0};
    machine m(test::small_spec(2, 4, 6), era, default_patches(era));
    mem_init(m);
    zone& n1 = m.nodes[1]->z(ZONE_NORMAL);
    zone& n0 = m.nodes[0]->z(ZONE_NORMAL);
    CHECK(m.nodes[1]->first_deferred_pfn == n1.zone_start_pfn + PAGES_PER_SECTION);
    CHECK(m.nodes[0]->first_deferred_pfn == n0.zone_start_pfn + PAGES_PER_SECTION);
    CHECK(n1.managed() == PAGES_PER_SECTION - 256); // its memmap's 256 frames are at the start of the node
    setup_per_cpu_pageset(m);
    CHECK(batch_by_hand(n1.managed()) == 7);
    CHECK(n1.per_cpu_pageset[0].batch == 7);
    CHECK(n0.per_cpu_pageset[0].batch == 7);
}

TEST_CASE("reset_deferred_meminit: span / 256 on large nodes, reservations counted whole, never more than the span")
{
    pglist_data pg;
    pg.node_start_pfn = 1UL << 24;
    node_spec ns;

    // A 1 TiB node: a 256th of its span (4 GiB) is more than 2 GiB.
    pg.node_spanned_pages = 1024 * GIB_PAGES;
    const unsigned long window = 4 * GIB_PAGES;
    CHECK(reset_deferred_meminit(pg, ns, PAGE_SHIFT) == window);
    const pfn_t end = static_cast<pfn_t>(pg.node_start_pfn + window);
    // A region reaching into the window counts with all its frames, one starting on its last frame too; one
    // starting after it does not.
    ns.reserved = {{end - 8, end + 1000}, {end + 2000, end + 2100}};
    CHECK(reset_deferred_meminit(pg, ns, PAGE_SHIFT) == window + 1008);
    ns.reserved = {{end, end + 10}, {end + 1, end + 100}};
    CHECK(reset_deferred_meminit(pg, ns, PAGE_SHIFT) == window + 10);

    // A 16 GiB node: the 2 GiB floor. A 1 GiB node: all of it.
    ns.reserved.clear();
    pg.node_spanned_pages = 16 * GIB_PAGES;
    CHECK(reset_deferred_meminit(pg, ns, PAGE_SHIFT) == 2 * GIB_PAGES);
    pg.node_spanned_pages = GIB_PAGES;
    CHECK(reset_deferred_meminit(pg, ns, PAGE_SHIFT) == GIB_PAGES);
    // 2 GiB is counted in the machine's own pages: 32768 of 64 KiB.
    pg.node_spanned_pages = 1UL << 20;
    CHECK(reset_deferred_meminit(pg, ns, 16) == 32768);

    // The era picks the rule: v4.17 and later count one section (at most the span).
    pg.node_spanned_pages = 16 * GIB_PAGES;
    CHECK(static_init_pgcnt(kernel_era{{4, 15, 0, 0}}, pg, ns, PAGE_SHIFT, PAGES_PER_SECTION) == 2 * GIB_PAGES);
    CHECK(static_init_pgcnt(kernel_era{{4, 17, 0, 0}}, pg, ns, PAGE_SHIFT, PAGES_PER_SECTION) == PAGES_PER_SECTION);
    CHECK(static_init_pgcnt(kernel_era{{6, 18, 0, 0}}, pg, ns, PAGE_SHIFT, PAGES_PER_SECTION) == PAGES_PER_SECTION);
}
