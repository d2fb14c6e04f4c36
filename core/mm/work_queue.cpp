// queue_work_on / flush_work without a placing engine: the item runs at once as its CPU.
#include "work_queue.hpp"

#include "machine.hpp"

namespace pcplab::mm
{

// queue_work_on (kernel/workqueue.c, v5.4 .. v6.x): as drain_all_pages used it up to v5.19.
void queue_work_on(mm_ctx& c, int cpu, const std::function<void(mm_ctx&)>& fn)
{
    if (c.wq) {
        c.wq->queue_work_on(c, cpu, fn);
        return;
    }
    mm_ctx on_cpu{c.m, cpu, c.m.cpu_to_node[static_cast<std::size_t>(cpu)], c.work, c.locks};
    fn(on_cpu);
}

// flush_work (kernel/workqueue.c, v5.4 .. v6.x): the drainer waits for the items it queued.
void flush_work(mm_ctx& c)
{
    if (c.wq) c.wq->flush_work(c);
}

} // namespace pcplab::mm
