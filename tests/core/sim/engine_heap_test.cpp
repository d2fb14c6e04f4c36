// The engine's run queue against a plain ordered set of (clock, CPU): the same CPU on top after every update.
#include "sim/engine_heap.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <set>
#include <utility>
#include <vector>

using namespace pcplab;

namespace
{

void check_against_set(int nr_cpus, std::uint64_t clock_range, int updates)
{
    sim::cpu_heap heap;
    heap.reset(nr_cpus, 0);
    std::set<std::pair<std::uint64_t, int>> ref;
    std::vector<std::uint64_t> clock(static_cast<std::size_t>(nr_cpus), 0);
    for (int c = 0; c < nr_cpus; ++c) ref.insert({0, c});
    std::mt19937_64 rng(42);
    for (int n = 0; n < updates; ++n) {
        REQUIRE(heap.top() == ref.begin()->second);
        REQUIRE(heap.top_key() == ref.begin()->first);
        // Mostly the top moves forward (a step); sometimes any CPU moves either way (a wake-up).
        const int cpu = rng() % 4 ? heap.top() : static_cast<int>(rng() % static_cast<unsigned>(nr_cpus));
        const std::uint64_t t = rng() % 4 ? clock[static_cast<std::size_t>(cpu)] + rng() % clock_range
                                          : rng() % (clock[static_cast<std::size_t>(cpu)] + clock_range);
        ref.erase({clock[static_cast<std::size_t>(cpu)], cpu});
        ref.insert({t, cpu});
        clock[static_cast<std::size_t>(cpu)] = t;
        heap.update(cpu, t);
    }
}

} // namespace

TEST_CASE("the run queue always has the CPU with the earliest clock on top, the lower id first on a tie")
{
    check_against_set(1, 100, 1000);
    check_against_set(7, 3, 20000); // a small clock range: many ties
    check_against_set(256, 1000, 50000);
    check_against_set(316, 1'000'000'000, 50000);
}

TEST_CASE("the run queue refuses a clock beyond the range its keys hold")
{
    sim::cpu_heap heap;
    heap.reset(256, 0);
    heap.update(3, (std::uint64_t{1} << 56) - 1); // 256 CPUs: 8 bits of id, 56 of clock
    CHECK(heap.top() == 0);
    CHECK_THROWS_AS(heap.update(3, std::uint64_t{1} << 56), std::overflow_error);
}
