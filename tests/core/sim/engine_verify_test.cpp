// PCPLAB_VERIFY reaches every machine the program runs: the engine's (which `pcplab-cli run`, the window and the
// lessons drive) runs mm::verify after every allocation and free, and a corrupted free list stops the run.
#include "core/sim/engine_test_support.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <stdexcept>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

// Sets PCPLAB_VERIFY for the lifetime of the object (each ctest test runs in a process of its own).
struct verify_env {
    explicit verify_env(const char* value) { ::setenv("PCPLAB_VERIFY", value, 1); }
    ~verify_env() { ::unsetenv("PCPLAB_VERIFY"); }
};

// A free-list count that no longer matches its list: what a bug in the allocator would leave behind.
void corrupt_free_list(sim::engine& e)
{
    ++e.machine().nodes[0]->z(mm::ZONE_DMA32).free_area_[2].nr_free;
}

} // namespace

TEST_CASE("PCPLAB_VERIFY=1 makes the engine verify the allocator, and a corrupted free list stops the run")
{
    verify_env env("1");
    sim::engine e(small_config(1, 2, 1, "v6.7"), loop_factory({}));
    e.boot();
    REQUIRE(e.machine().verify_every_op);
    e.run_for(200'000); // a consistent machine passes every check
    CHECK(loop_of(e).allocations > 0);
    corrupt_free_list(e);
    CHECK_THROWS_WITH(e.run_for(200'000), Catch::Contains("verify() failed"));
}

TEST_CASE("without PCPLAB_VERIFY (or with 0) the engine does not verify")
{
    verify_env env("0");
    sim::engine e(small_config(1, 2, 1, "v6.7"), loop_factory({}));
    e.boot();
    CHECK_FALSE(e.machine().verify_every_op);
    corrupt_free_list(e);
    CHECK_NOTHROW(e.run_for(200'000));
}
