#include "mm/boot.hpp"
#include "mm/pcp_limits.hpp"
#include "mm/state_digest.hpp"
#include "mm/verify.hpp"
#include "support/small_machine.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::mm;

namespace
{
std::uint64_t boot_digest(const kernel_version& era, bool parallel, int threads, unsigned long* managed = nullptr)
{
    machine_spec spec = test::small_spec(2, 8, 6);
    patch_set ps = default_patches(era);
    ps.set(patch::parallel_deferred_init, parallel);
    ps.init_threads = threads;
    machine m(spec, era, ps);
    deferred_init_report rep = boot(m);
    verify_result v = verify(m);
    INFO((v.errors.empty() ? std::string() : v.errors.front()));
    REQUIRE(v.ok());
    REQUIRE(rep.nodes.size() == 2);
    for (const auto& n : rep.nodes) CHECK(n.threads == (parallel ? threads : 1));
    if (managed) {
        *managed = 0;
        m.for_each_populated_zone([&](zone& z) { *managed += z.managed(); });
    }
    return state_digest(m);
}
} // namespace

TEST_CASE("deferred init gives identical state with 1, 2, 4 and 8 threads per node")
{
    for (const char* e : {"v5.4", "v6.7"}) {
        kernel_version era = *kernel_version::parse(e);
        unsigned long managed_serial = 0, managed = 0;
        std::uint64_t serial = boot_digest(era, false, 0, &managed_serial);
        for (int threads : {1, 2, 4, 8}) {
            INFO(e << " with " << threads << " threads");
            CHECK(boot_digest(era, true, threads, &managed) == serial);
            CHECK(managed == managed_serial);
        }
    }
}

TEST_CASE("deferred init initialises every free frame and only the first section is early")
{
    kernel_version era{5, 4, 0, 0};
    machine m(test::small_spec(2, 4, 6), era, default_patches(era));
    mem_init(m);
    // Node 1 (all Normal) has one section initialised early; the rest waits for the pgdatinit thread.
    zone& n1 = m.nodes[1]->z(ZONE_NORMAL);
    CHECK(m.nodes[1]->first_deferred_pfn == n1.zone_start_pfn + PAGES_PER_SECTION);
    CHECK(n1.managed() == PAGES_PER_SECTION - 256); // minus the reserved frames
    setup_per_cpu_pageset(m);
    deferred_init d(m);
    d.start();
    deferred_init_report rep = d.finish();
    CHECK(d.progress(1) == d.total(1));
    CHECK(n1.managed() == n1.present_pages - 256);
    unsigned long pages = 0;
    for (const auto& t : rep.threads)
        if (t.node == 1) pages += t.pages;
    CHECK(pages == d.total(1));
}
