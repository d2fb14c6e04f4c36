// zone->lock and pcp->lock as an interface: the core says when it takes and drops each lock and what it
// did while holding it; an implementation counts (tests) or places the hold in virtual time (the engine).
#pragma once

#include "mm_work.hpp"

#include <cstdint>
#include <string_view>

namespace pcplab::mm
{

// The kernel function on whose behalf a lock is taken (the outermost caller, as a profile would show it).
enum class lock_caller : std::uint8_t {
    rmqueue_bulk,
    rmqueue_buddy, // rmqueue() for an order the PCP does not cache
    free_pcppages_bulk, // the free path (free_unref_page_commit -> free_pcppages_bulk)
    free_one_page, // frees that bypass the PCP
    drain_pages_zone,
    drain_zone_pages,
    decay_pcp_high,
    deferred_init,
    boot_free, // memblock_free_all
    reclaim, // the simulated reclaimer returning pages
    pcp_alloc, // pcp->lock around rmqueue_pcplist
    pcp_free, // pcp->lock around free_unref_page_commit
    other,
    nr_callers,
};
std::string_view lock_caller_name(lock_caller c);

enum class lock_kind : std::uint8_t { zone_lock, pcp_lock };

struct lock_id {
    lock_kind kind;
    int node;
    int zone; // zone_type
    int cpu; // owner of the pcp for pcp_lock; -1 for zone->lock
};

class lock_ops
{
public:
    virtual ~lock_ops() = default;
    virtual void lock(const lock_id& id, int cpu, lock_caller caller) = 0;
    // pcp->lock in v6.0+ is taken with trylock in the alloc and free paths
    virtual bool trylock(const lock_id& id, int cpu, lock_caller caller) = 0;
    // `inside` is the work done between lock and unlock.
    virtual void unlock(const lock_id& id, int cpu, lock_caller caller, const mm_work& inside) = 0;
};

} // namespace pcplab::mm
