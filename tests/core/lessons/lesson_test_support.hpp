// A small hand-made snapshot for the condition-language tests: 2 nodes, 4 CPUs, a DMA32 zone on node 0
// (batch 63 / high 378) and a Normal zone on node 1 (batch 7 / high 42), with known locks and events.
#pragma once

#include "sim/snapshot.hpp"

#include "mm/mm_types.hpp"

#include <memory>

namespace pcplab::test
{

inline std::shared_ptr<sim::snapshot> lesson_snapshot()
{
    auto s = std::make_shared<sim::snapshot>();
    s->state = sim::run_state::paused;
    s->sim_time_ns = 5'000'000;
    s->preset = "tiny";
    s->workload = "kernbench";
    s->nr_cpus = 4;
    s->cpu_node = {0, 0, 1, 1};
    s->patches.set(mm::patch::pcp_update_after_deferred_init, true);

    sim::zone_snapshot dma32;
    dma32.node = 0;
    dma32.zone = mm::ZONE_DMA32;
    dma32.managed = 500'000;
    dma32.free_pages = 1024 * 3 + 8 + 1;
    dma32.batch = 63;
    dma32.high = 378;
    dma32.nr_free[10] = 3;
    dma32.nr_free[3] = 1;
    dma32.nr_free[0] = 1;
    dma32.free_blocks[10][mm::MIGRATE_MOVABLE] = 3;
    dma32.free_blocks[3][mm::MIGRATE_UNMOVABLE] = 1;
    dma32.free_blocks[0][mm::MIGRATE_MOVABLE] = 1;
    dma32.lock.m.acquisitions = 100;
    dma32.lock.m.wait_ns_total = 4000;
    dma32.lock.m.hold_ns_max = 900;
    dma32.lock.m.holds_by_caller[static_cast<unsigned>(mm::lock_caller::free_pcppages_bulk)] = 10;
    dma32.lock.m.hold_ns_by_caller[static_cast<unsigned>(mm::lock_caller::free_pcppages_bulk)] = 5000;

    sim::zone_snapshot normal = dma32;
    normal.node = 1;
    normal.zone = mm::ZONE_NORMAL;
    normal.managed = 300'000;
    normal.batch = 7;
    normal.high = 42;
    normal.lock.m.acquisitions = 50;
    normal.lock.m.wait_ns_total = 1000;
    normal.lock.m.hold_ns_max = 2500;
    normal.lock.m.holds_by_caller = {};
    normal.lock.m.hold_ns_by_caller = {};
    s->zones = {dma32, normal};

    // zone-major: DMA32 pagesets of CPUs 0..3, then Normal.
    for (int z = 0; z < 2; ++z)
        for (int cpu = 0; cpu < 4; ++cpu) s->pcp.push_back({cpu * 2, s->zones[z].high, s->zones[z].batch});

    s->cpus.resize(4);
    for (int cpu = 0; cpu < 4; ++cpu) {
        s->cpus[cpu].sys_ns = 1000 * (cpu + 1);
        s->cpus[cpu].user_ns = 10;
    }
    s->totals.allocs = 640;
    s->totals.zone_allocs = 70;

    sim::sim_event e;
    e.kind = sim::event_kind::limits_change;
    e.field = sim::event_field::batch;
    e.node = 1;
    e.zone = mm::ZONE_NORMAL;
    e.old_value = 7;
    e.new_value = 63;
    e.text = "deferred init done";
    s->events.push_back(e);

    s->deferred_init = {{0, 1, 100, 100, true, 21.5, 3.0}, {1, 1, 100, 100, true, 22.0, 3.0}};
    return s;
}

} // namespace pcplab::test
