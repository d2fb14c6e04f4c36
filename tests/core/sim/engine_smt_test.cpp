// User code shares its core with the SMT sibling (engine.cpp, run_action): beside a sibling that is busy the
// whole time a compute period takes 2 / smt.pair_throughput times its own length; beside an idle sibling, or
// on a machine without SMT, it takes its own length. Seed 000's user time rises for this reason.
#include "core/sim/engine_test_support.hpp"

#include "sim/cost_model.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

// CPU 0's user time over the compute it asked for, on one node of two CPUs (one core when threads_per_core
// is 2). `cpus`: the CPUs that run the loop (empty: both).
double cpu0_compute_stretch(int threads_per_core, std::vector<int> cpus)
{
    loop_params p;
    p.burst = 8;
    p.per_alloc_ns = 20'000; // 20 us of user code after each allocation: the allocator is a small share
    sim::engine_config cfg = small_config(1, 2, 1, "v6.7");
    cfg.spec.threads_per_core = threads_per_core;
    cfg.cpus = std::move(cpus);
    sim::engine e(cfg, loop_factory(p));
    run_to(e, 20'000'000);
    const sim::cpu_metrics& c = e.cpus()[0];
    REQUIRE(c.allocs > 500);
    return static_cast<double>(c.user_ns) / static_cast<double>(c.allocs * p.per_alloc_ns);
}

} // namespace

TEST_CASE("user code runs slower beside a busy SMT sibling, at its own speed beside an idle one")
{
    const double factor
        = sim::compile_rates(sim::cost_model_for(small_config(1, 2, 1, "v6.7").spec)).smt_busy_sibling_factor;
    REQUIRE(factor > 0.3); // 2 / 1.3 - 1 for the generic class

    CHECK(cpu0_compute_stretch(2, {0}) == Approx(1.0).epsilon(0.02)); // the sibling idles
    CHECK(cpu0_compute_stretch(1, {}) == Approx(1.0).epsilon(0.02)); // two cores, no SMT
    const double both = cpu0_compute_stretch(2, {}); // both threads of the core compute
    CHECK(both > 1 + 0.9 * factor);
    CHECK(both < 1 + factor + 0.02);
}
