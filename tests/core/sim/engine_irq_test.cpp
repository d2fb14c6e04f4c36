// Interrupt-context allocations in virtual time (engine_irq.cpp): net-stream with RX interrupts on v6.6, with
// pcp->lock disabling IRQs (pcp-lock-irqs-enabled off, v6.0 / v6.1) and leaving them on (on, v6.2+).
#include "engine_test_support.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::test;

namespace
{

struct irq_run {
    sim::irq_metrics irq;
    std::uint64_t allocs = 0, frees = 0, spin_ns = 0, zone_acquisitions = 0;
};

irq_run run_stream(bool irqs_on, double rate)
{
    auto cfg = small_config(1, 4, 1, "v6.6");
    cfg.patches.set(mm::patch::pcp_lock_irqs_enabled, irqs_on);
    sim::engine e(cfg, [rate] {
        auto w = sim::make_workload("net-stream");
        REQUIRE(w->set_param("rx_irq_pages_per_ms", rate).ok());
        return w;
    });
    run_to(e, 20'000'000);
    irq_run r;
    const auto& t = e.totals();
    r.irq = t.irq;
    r.allocs = t.allocs;
    r.frees = t.frees;
    for (const auto& c : e.cpus()) r.spin_ns += c.spin_ns;
    for (const auto& z : e.zone_locks()) r.zone_acquisitions += z.acquisitions;
    return r;
}

} // namespace

TEST_CASE("without interrupts the switch changes nothing: pcp->lock's IRQ state only matters to an interrupt")
{
    const irq_run off = run_stream(false, 0), on = run_stream(true, 0);
    CHECK(off.allocs > 0);
    CHECK(off.allocs == on.allocs);
    CHECK(off.frees == on.frees);
    CHECK(off.spin_ns == on.spin_ns);
    CHECK(off.zone_acquisitions == on.zone_acquisitions);
    CHECK(on.irq == sim::irq_metrics{});
}

TEST_CASE("with IRQs left on under pcp->lock an interrupt that finds its CPU's pcp->lock held goes to zone->lock, "
          "and waits only for zone->lock holds")
{
    const irq_run off = run_stream(false, 200), on = run_stream(true, 200);
    CHECK(off.irq.arrivals > 1000);
    // Every classified arrival has run but those still pending at the run's end (at most one a CPU here).
    CHECK(off.irq.allocs <= off.irq.arrivals);
    CHECK(off.irq.arrivals - off.irq.allocs <= 4);
    CHECK(off.irq.frees > 0);
    // Off: IRQs are off for the whole pcp->lock hold, so an interrupt never finds its own pageset locked.
    CHECK(off.irq.pcp_fallbacks == 0);
    CHECK(off.irq.delayed > 0);
    // On: some land inside a hold of their CPU's own pcp->lock, and their trylock fails.
    CHECK(on.irq.pcp_fallbacks > 0);
    CHECK(on.zone_acquisitions > off.zone_acquisitions);
    // IRQs are off only inside zone->lock now, not for every pcp->lock hold. (The longest stretch need not
    // shrink: it is a zone->lock wait either way, and on adds zone->lock traffic.)
    CHECK(on.irq.irqs_off_ns_total < off.irq.irqs_off_ns_total);
    CHECK(on.irq.delay_ns_total < off.irq.delay_ns_total);
}
