// The simulated machine's memory-management state: nodes, zones, memmap, pageblocks, sysctls, era and
// switches. It owns everything (no globals), so two machines can run side by side.
#pragma once

#include "counting_lock_ops.hpp"
#include "kernel_era.hpp"
#include "machine_spec.hpp"
#include "page_list.hpp"
#include "patch_switches.hpp"
#include "pglist_data.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pcplab::mm
{

class machine;
class cpu_work_queue; // work_queue.hpp

// What one CPU's caches hold of the memmap (one struct page per cache line). touch() records the access and
// says whether it hit. Without one, every struct page touch counts as a miss.
class struct_page_cache
{
public:
    virtual ~struct_page_cache() = default;
    virtual bool touch(pfn_t pfn) = 0;
    // A hint that `pfn` will be touched soon: the host may start loading where the model keeps its state
    // (a cache model spread over megabytes makes each touch a host cache miss). Never changes a result.
    [[gnu::always_inline]] void prefetch(pfn_t pfn) const // see prefetch_struct_page: else GCC may delete it
    {
        if (m_hint_base)
            __builtin_prefetch(m_hint_base + static_cast<std::size_t>(pfn & m_hint_mask) * m_hint_stride, 1);
    }

protected:
    // Set by a model that wants prefetch hints: its state of pfn is at base + (pfn & mask) * stride.
    const char* m_hint_base = nullptr;
    std::uint32_t m_hint_mask = 0;
    std::size_t m_hint_stride = 0;
};

// The implicit "current CPU" of kernel code: who runs, on which node, whose work meter and lock model.
struct mm_ctx {
    machine& m;
    int cpu;
    int nid;
    mm_work& work;
    lock_ops& locks;
    struct_page_cache* cache = nullptr;
    // Where queue_work_on runs a work item (work_queue.hpp); nullptr: at once, as the target CPU.
    cpu_work_queue* wq = nullptr;
};

enum class boot_stage {
    created, // zones sized, nothing initialised
    early_init, // memmap_init + memblock_free_all done
    pagesets_setup, // setup_per_cpu_pageset done (limits from the managed pages of that moment)
    deferred_init, // pgdatinit threads running
    booted, // deferred init done, watermarks set (init_per_zone_wmark_min)
};

// Why a zone's pageset limits were (re)computed: shown as the cause of a batch/high change.
enum class limits_cause {
    setup_per_cpu_pageset,
    deferred_init_done, // seed 000: zone_pcp_update once page_alloc_init_late has seen every node's init end
    watermarks, // v5.14+: setup_per_zone_wmarks -> zone_pcp_update
    sysctl,
    cpu_online,
};
const char* limits_cause_name(limits_cause c);

struct limits_change {
    int node;
    int zone;
    limits_cause cause;
    int old_batch, old_high, old_high_min, old_high_max;
    int new_batch, new_high, new_high_min, new_high_max;
};

class machine
{
public:
    machine(const machine_spec& spec, const kernel_version& era, const patch_set& patches);
    // With formulas of an older kernel (kernel_era::formulas).
    machine(const machine_spec& spec, const kernel_era& era, const patch_set& patches);
    ~machine();
    machine(const machine&) = delete;
    machine& operator=(const machine&) = delete;

    const machine_spec& spec() const { return m_spec; }
    kernel_era era;
    patch_set patches;
    sysctl_values sysctl;
    unsigned page_shift = PAGE_SHIFT; // from the spec: see machine_spec::page_shift
    unsigned long pages_per_section = PAGES_PER_SECTION;
    unsigned long min_free_kbytes = 1024; // compiled-in default until init_per_zone_wmark_min runs
    long user_min_free_kbytes = -1;
    boot_stage stage = boot_stage::created;
    // Frames mem_init's memmap_init initialised on the boot CPU before deferred init (present frames below
    // each node's first_deferred_pfn and the reserved ones): what the boot's early part costs (sim::boot_timeline).
    unsigned long early_init_pages = 0;

    std::vector<std::unique_ptr<pglist_data>> nodes;
    std::vector<int> cpu_to_node; // cpu_to_node(cpu)
    int nr_cpu_ids() const { return static_cast<int>(cpu_to_node.size()); }
    int nr_online_nodes() const { return static_cast<int>(nodes.size()); }
    // NODE_DATA(nid) (include/linux/mmzone.h): the node's pglist_data.
    pglist_data& node_data(int nid) { return *nodes[static_cast<std::size_t>(nid)]; }
    const pglist_data& node_data(int nid) const { return *nodes[static_cast<std::size_t>(nid)]; }
    // The node order of a node's zonelist (build_zonelists), built once.
    const std::vector<int>& node_zonelist(int nid) const { return m_zonelists[static_cast<std::size_t>(nid)]; }

    // The memmap: one struct page per pfn in [0, max_pfn) (holes, and the frames inside blocks deferred init
    // freed whole, stay `uninit`).
    pfn_t max_pfn = 0;
    page& pfn_to_page(pfn_t pfn) { return m_memmap.get()[pfn]; }
    const page& pfn_to_page(pfn_t pfn) const { return m_memmap.get()[pfn]; }
    page* memmap() { return m_memmap.get(); }
    list_ops lists() const { return list_ops(m_memmap.get()); }
    int pfn_to_nid(pfn_t pfn) const; // by node pfn ranges (works for uninitialised frames)
    // The zone of a frame by the node whose memory holds it (spans of interleaved nodes overlap).
    std::uint8_t zone_id_of_present_pfn(pfn_t pfn) const;
    zone* pfn_to_zone(pfn_t pfn); // nullptr in a hole between zones
    // page_zone_id / page_zone / page_to_nid (include/linux/mm.h): the kernel reads the node and zone from
    // page->flags; the 8-byte frame has no room for them, so they come from the pfn. Where no two zones' spans
    // overlap (every preset), a short walk of the zones by start pfn finds it without touching memory; else a
    // byte per pageblock, and the zone spans in a pageblock that two zones share. The id is packed as
    // make_zone_nid packs it.
    std::uint8_t page_zone_id(pfn_t pfn) const
    {
        if (!m_zone_ranges.empty()) [[likely]] {
            for (auto it = m_zone_ranges.rbegin(); it != m_zone_ranges.rend(); ++it)
                if (pfn >= it->start) return pfn < it->end ? it->id : PAGEBLOCK_ZONES_MIXED;
            return PAGEBLOCK_ZONES_MIXED;
        }
        const std::uint8_t id = m_pageblock_zone[pfn >> pageblock_order];
        return id != PAGEBLOCK_ZONES_MIXED ? id : zone_id_of_present_pfn(pfn);
    }
    zone& page_zone(pfn_t pfn)
    {
        const std::uint8_t id = page_zone_id(pfn);
        return nodes[id >> 3]->z(static_cast<zone_type>(id & 7U));
    }
    int page_to_nid(pfn_t pfn) const { return page_zone_id(pfn) >> 3; }
    // Whether some zones' spans overlap (interleaved nodes): a zone's span then holds other zones' frames.
    bool zone_spans_overlap() const { return m_zone_ranges.empty(); }

    // Pageblock migratetypes (the pageblock_flags bitmap), one byte per pageblock.
    int get_pageblock_migratetype(pfn_t pfn) const { return m_pageblock_mt[pfn >> pageblock_order]; }
    void set_pageblock_migratetype(pfn_t pfn, int mt)
    {
        m_pageblock_mt[pfn >> pageblock_order] = static_cast<std::uint8_t>(mt);
    }
    // pcp-buddy (RFC, not merged, April 2026): the CPU whose pageset claimed the pageblock, -1 for none. The
    // RFC keeps it in struct pageblock_data, which replaces the pageblock_flags bitmap (patch 1/2); one entry
    // per pageblock, not per struct page.
    int get_pageblock_owner(pfn_t pfn) const { return m_pageblock_owner[pfn >> pageblock_order]; }
    void set_pageblock_owner(pfn_t pfn, int cpu)
    {
        m_pageblock_owner[pfn >> pageblock_order] = static_cast<std::int16_t>(cpu);
    }

    // The lock model; defaults to counting. The engine installs its virtual-time locks.
    lock_ops& locks() { return *m_locks; }
    void set_lock_ops(lock_ops* l) { m_locks = l ? l : &m_counting; }
    counting_lock_ops& counting_locks() { return m_counting; }

    // Work done by code running on the calling thread (the engine / main thread).
    mm_work work;
    mm_ctx ctx(int cpu) { return mm_ctx{*this, cpu, cpu_to_node[cpu], work, *m_locks}; }

    // Called after every change of a zone's pageset limits (for event logs).
    std::function<void(const limits_change&)> on_limits_change;

    // Debug option: verify() after every top-level allocator operation.
    bool verify_every_op = false;

    template <typename F> void for_each_populated_zone(F&& f)
    {
        for (auto& n : nodes)
            for (auto& z : n->node_zones)
                if (z->populated()) f(*z);
    }
    template <typename F> void for_each_populated_zone(F&& f) const
    {
        for (const auto& n : nodes)
            for (const auto& z : n->node_zones)
                if (z->populated()) f(static_cast<const zone&>(*z));
    }
    template <typename F> void for_each_zone(F&& f)
    {
        for (auto& n : nodes)
            for (auto& z : n->node_zones) f(*z);
    }

private:
    void build_zonelists();
    void build_pageblock_zones();
    struct free_deleter {
        std::size_t bytes; // set right after mmap
        void operator()(page* p) const;
    };
    machine_spec m_spec;
    std::unique_ptr<page, free_deleter> m_memmap;
    std::size_t m_memmap_bytes = 0;
    std::vector<std::vector<int>> m_zonelists;
    std::vector<std::uint8_t> m_pageblock_mt;
    // Only for interleaved nodes: the zone of each pageblock's frames as make_zone_nid packs it; PAGEBLOCK_ZONES_MIXED
    // where zones meet inside one pageblock.
    static constexpr std::uint8_t PAGEBLOCK_ZONES_MIXED = 0xff;
    std::vector<std::uint8_t> m_pageblock_zone;
    // The populated zones' spans by start pfn, when no two overlap; empty when some do.
    struct zone_range {
        pfn_t start;
        pfn_t end;
        std::uint8_t id;
    };
    std::vector<zone_range> m_zone_ranges;
    std::vector<std::int16_t> m_pageblock_owner;
    counting_lock_ops m_counting;
    lock_ops* m_locks = &m_counting;
};

} // namespace pcplab::mm
