// Booting the allocator in the kernel's order: early memmap init, memblock_free_all, setup_per_cpu_pageset,
// deferred struct-page init (real threads), then watermarks.
#pragma once

#include "machine.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

namespace pcplab::mm
{

// memmap_init + the early part of deferred init (v4.17+: the first section of each node's highest zone; v4.15:
// 2 GiB of it, or more; lower zones fully) and memblock_free_all: frees the early, non-reserved frames to the
// buddy allocator.
void mem_init(machine& m);

// What one host thread did for one node (a host thread serves every node; see deferred_init.cpp).
struct deferred_thread_report {
    int node = 0;
    int thread = 0; // the host thread's number
    unsigned long pages = 0; // frames of `node` initialised and freed by this thread
    std::uint64_t host_ns = 0; // wall time on the host
};
struct deferred_node_report {
    int node = 0;
    int threads = 0;
    unsigned long pages = 0;
    std::uint64_t host_ns = 0; // from thread start to the node's completion
};
struct deferred_init_report {
    std::vector<deferred_node_report> nodes;
    std::vector<deferred_thread_report> threads;
    std::uint64_t host_ns = 0; // page_alloc_init_late as a whole
};

// The pgdatinit threads of page_alloc_init_late (v5.4 / v5.8 padata / the 2018 RFC): one thread per node;
// with parallel-deferred-init, each node's deferred range is split into section-aligned chunks run by N
// threads (threads(nid), which sets the modelled time). On the host, a pool of std::threads no larger than
// the host's CPUs runs every node's chunks. start() returns at once; progress() can be read while they run; finish()
// joins them, merges their free lists into the zones in pfn order (so the result is the same for any thread count) and
// then does what page_alloc_init_late does once all are done: pcp_update_after_deferred_init.
class deferred_init
{
public:
    explicit deferred_init(machine& m);
    ~deferred_init();
    // Works out the chunks, totals and thread counts without starting anything (total() and threads() are
    // known from here on); start() does it if it was not done.
    void plan();
    void start();
    // Frames initialised so far in node `nid` (all threads), for progress bars.
    unsigned long progress(int nid) const;
    unsigned long total(int nid) const;
    // The init threads working on node `nid` (0 when it has nothing deferred); known from plan() on.
    int threads(int nid) const;
    deferred_init_report finish();

private:
    struct impl;
    std::unique_ptr<impl> m_impl;
};

// Seed 000's fix (v5.4 .. v5.13, with pcp-update-after-deferred-init): zone_pcp_update on every populated
// zone once every node's deferred init is done. deferred_init::finish calls it.
void pcp_update_after_deferred_init(machine& m);

// page_alloc_init_late: deferred_init start + finish.
deferred_init_report page_alloc_init_late(machine& m);

// start_kernel's part, from wherever the machine is: mem_init, then setup_per_cpu_pageset.
void boot_early(machine& m);
// kernel_init's part after the init threads are done: init_per_zone_wmark_min (an initcall).
void boot_late(machine& m);
// The whole boot: boot_early, page_alloc_init_late, boot_late.
deferred_init_report boot(machine& m);

} // namespace pcplab::mm
