// queue_work_on and flush_work (kernel/workqueue.c) as the allocator sees them: a work item runs on the CPU
// it was queued on, in that CPU's time, and the queuing CPU may wait for it. Before v6.0 drain_all_pages
// emptied other CPUs' pagesets this way (drain_pages_zone ran only on the pageset's own CPU).
#pragma once

#include <functional>

namespace pcplab::mm
{

struct mm_ctx;

// Whoever places work in time (the engine) runs queued items as their CPU; without one (tests, boot) an item
// runs at once in a context of its CPU.
class cpu_work_queue
{
public:
    virtual ~cpu_work_queue() = default;
    // Run `fn` on `cpu` as a work item queued by c.cpu now.
    virtual void queue_work_on(mm_ctx& c, int cpu, const std::function<void(mm_ctx&)>& fn) = 0;
    // The queuing CPU waits until every item it queued has run.
    virtual void flush_work(mm_ctx& c) = 0;
};

// queue_work_on(cpu, mm_percpu_wq, work) (kernel/workqueue.c): through c.wq, or at once as `cpu`.
void queue_work_on(mm_ctx& c, int cpu, const std::function<void(mm_ctx&)>& fn);
// flush_work (kernel/workqueue.c) of every item c.cpu queued: through c.wq; nothing to wait for without one.
void flush_work(mm_ctx& c);

} // namespace pcplab::mm
