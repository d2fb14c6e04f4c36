// RAII holds of zone->lock and pcp->lock that report the work done inside to the lock model.
#pragma once

#include "machine.hpp"

namespace pcplab::mm
{

class zone_lock_guard
{
public:
    // try_only = true models spin_trylock_irqsave (v6.15 ALLOC_TRYLOCK / FPI_TRYLOCK): check held() afterwards.
    zone_lock_guard(mm_ctx& c, const zone& z, lock_caller caller, bool try_only = false)
        : m_c(c)
        , m_id{lock_kind::zone_lock, z.node, z.idx, -1}
        , m_caller(caller)
        , m_start(c.work)
    {
        if (try_only)
            m_held = m_c.locks.trylock(m_id, m_c.cpu, m_caller);
        else
            m_c.locks.lock(m_id, m_c.cpu, m_caller);
    }
    ~zone_lock_guard() { unlock(); }
    bool held() const { return m_held; }
    void unlock()
    {
        if (!m_held) return;
        m_held = false;
        m_c.locks.unlock(m_id, m_c.cpu, m_caller, m_c.work - m_start);
    }
    zone_lock_guard(const zone_lock_guard&) = delete;
    zone_lock_guard& operator=(const zone_lock_guard&) = delete;

private:
    mm_ctx& m_c;
    lock_id m_id;
    lock_caller m_caller;
    mm_work m_start;
    bool m_held = true;
};

// pcp->lock exists from v6.0; on earlier eras the guard is a no-op (IRQs off / local_lock cannot contend
// across CPUs). `owner` is the CPU whose pageset it is (drain_all_pages takes remote ones).
class pcp_lock_guard
{
public:
    // try = true models pcp_spin_trylock: check held() afterwards.
    pcp_lock_guard(mm_ctx& c, const zone& z, int owner, lock_caller caller, bool try_only = false)
        : m_c(c)
        , m_id{lock_kind::pcp_lock, z.node, z.idx, owner}
        , m_caller(caller)
        , m_start(c.work)
    {
        if (!c.m.era.has_pcp_lock()) {
            m_held = true;
            m_real = false;
            return;
        }
        if (try_only) {
            m_held = m_c.locks.trylock(m_id, m_c.cpu, m_caller);
        } else {
            m_c.locks.lock(m_id, m_c.cpu, m_caller);
            m_held = true;
        }
    }
    ~pcp_lock_guard() { unlock(); }
    bool held() const { return m_held; }
    void unlock()
    {
        if (!m_held) return;
        m_held = false;
        if (m_real) m_c.locks.unlock(m_id, m_c.cpu, m_caller, m_c.work - m_start);
    }
    // Re-take after an unlock (the batched free loops of seed 003); returns false when a trylock fails.
    bool relock(bool try_only)
    {
        if (m_held) return true;
        m_start = m_c.work;
        if (!m_real) return m_held = true;
        if (try_only) return m_held = m_c.locks.trylock(m_id, m_c.cpu, m_caller);
        m_c.locks.lock(m_id, m_c.cpu, m_caller);
        return m_held = true;
    }
    pcp_lock_guard(const pcp_lock_guard&) = delete;
    pcp_lock_guard& operator=(const pcp_lock_guard&) = delete;

private:
    mm_ctx& m_c;
    lock_id m_id;
    lock_caller m_caller;
    mm_work m_start;
    bool m_held = false;
    bool m_real = true;
};

} // namespace pcplab::mm
