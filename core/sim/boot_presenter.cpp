#include "sim/boot_presenter.hpp"

#include "sim/engine.hpp"

#include "mm/boot.hpp"
#include "mm/machine.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim
{

double boot_presentation_speed(const boot_pacing& p, double one_thread_ns)
{
    if (p.speed <= 0 || one_thread_ns <= 0) return 0;
    double speed = p.speed;
    const double min_s = std::chrono::duration<double>(p.min_wall).count();
    const double max_s = std::chrono::duration<double>(p.max_wall).count();
    if (min_s > 0) speed = std::min(speed, one_thread_ns / min_s);
    if (max_s > 0) speed = std::max(speed, one_thread_ns / max_s);
    return speed;
}

double one_thread_boot_ns(const engine& e)
{
    double slowest = 0;
    for (const auto& b : e.boot_report())
        slowest = std::max(slowest, static_cast<double>(b.pages) * deferred_init_ns_per_page(e.rates(), 1));
    return static_cast<double>(e.timeline().deferred_init_start_ns) + slowest;
}

vtime_ns host_reached(const node_boot_state& n)
{
    if (n.host_finished || n.host_done >= n.total || n.done_at_ns <= n.start_ns) return n.done_at_ns;
    return n.start_ns
        + static_cast<vtime_ns>(static_cast<double>(n.done_at_ns - n.start_ns) * static_cast<double>(n.host_done)
            / static_cast<double>(n.total));
}

deferred_progress present_node(const node_boot_state& n, vtime_ns t, bool paced)
{
    deferred_progress d;
    d.node = n.node;
    d.threads = n.threads;
    d.total = n.total;
    d.host_done = n.host_done;
    d.modelled_ms = n.modelled_ms;
    d.done_at_ns = n.done_at_ns;
    d.paced = paced;
    const vtime_ns at = std::clamp(t, n.start_ns, std::max(n.start_ns, n.done_at_ns));
    d.modelled_elapsed_ms = static_cast<double>(at - n.start_ns) / 1e6;
    d.done = std::min(n.host_done, modelled_pages_done(n.total, n.start_ns, n.done_at_ns, t));
    d.finished = n.host_finished && t >= n.done_at_ns;
    return d;
}

std::vector<node_boot_state> planned_nodes(const engine& e, bool host_done)
{
    std::vector<node_boot_state> v;
    for (const auto& b : e.boot_report()) {
        node_boot_state n;
        n.node = b.node;
        n.threads = b.threads;
        n.total = b.pages;
        n.modelled_ms = b.modelled_ms;
        n.start_ns = e.timeline().deferred_init_start_ns;
        n.done_at_ns = b.done_at;
        n.host_done = host_done ? b.pages : 0;
        n.host_finished = host_done;
        v.push_back(n);
    }
    return v;
}

boot_presenter::boot_presenter(const engine& e, double speed, clock::time_point start)
    : m_nodes(planned_nodes(e, false))
    , m_speed(speed)
    , m_start(start)
    , m_end(e.timeline().workload_start_ns)
{
}

void boot_presenter::observe(const mm::machine& m, const mm::deferred_init& di)
{
    for (auto& n : m_nodes) {
        n.host_done = di.progress(n.node);
        n.host_finished = m.node_data(n.node).deferred_init_done.load(std::memory_order_acquire);
    }
}

void boot_presenter::host_finished()
{
    for (auto& n : m_nodes) {
        n.host_done = n.total;
        n.host_finished = true;
    }
}

vtime_ns boot_presenter::position(clock::time_point now)
{
    vtime_ns cap = m_end;
    for (const auto& n : m_nodes)
        if (!n.host_finished) cap = std::min(cap, host_reached(n));
    vtime_ns t = cap;
    if (paced()) {
        const double played = std::chrono::duration<double>(now - m_start).count() * m_speed;
        t = std::min(cap, static_cast<vtime_ns>(std::max(0.0, played)));
    }
    m_shown = std::max(m_shown, std::min(t, m_end));
    return m_shown;
}

std::vector<deferred_progress> boot_presenter::progress(vtime_ns t) const
{
    std::vector<deferred_progress> v;
    for (const auto& n : m_nodes) v.push_back(present_node(n, t, paced()));
    return v;
}

} // namespace pcplab::sim
