#include "sim/boot_presenter.hpp"

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

deferred_progress present_node(const node_boot_state& n, double modelled_ns, bool paced)
{
    deferred_progress d;
    d.node = n.node;
    d.threads = n.threads;
    d.total = n.total;
    d.host_done = n.host_done;
    const double end_ns = static_cast<double>(n.total) * n.ns_per_page;
    d.modelled_ms = end_ns / 1e6;
    if (!paced) {
        d.done = n.host_done;
        d.finished = n.host_finished;
        return d;
    }
    d.paced = true;
    const double at = std::clamp(modelled_ns, 0.0, end_ns);
    d.modelled_elapsed_ms = at / 1e6;
    const double frames = n.ns_per_page > 0 ? std::floor(at / n.ns_per_page) : static_cast<double>(n.total);
    const auto modelled_done = static_cast<unsigned long>(std::min(frames, static_cast<double>(n.total)));
    d.done = std::min(n.host_done, modelled_done);
    d.finished = n.host_finished && modelled_ns >= end_ns;
    return d;
}

boot_presenter::boot_presenter(const cost_rates& rates, const boot_pacing& pacing)
    : m_rates(rates)
    , m_pacing(pacing)
{
}

void boot_presenter::observe(const mm::machine& m, const mm::deferred_init& di, clock::time_point now)
{
    if (!m_started) {
        m_started = true;
        m_start = now;
        double one_thread_ns = 0;
        for (int nid = 0; nid < m.nr_online_nodes(); ++nid) {
            node_boot_state n;
            n.node = nid;
            const auto& node = *m.nodes[static_cast<std::size_t>(nid)];
            n.threads = di.threads(nid) > 0
                ? di.threads(nid)
                : mm::deferred_init_threads(m.patches, m.era.version, static_cast<int>(node.cpus.size()));
            n.total = di.total(nid);
            n.ns_per_page = deferred_init_ns_per_page(m_rates, n.threads);
            one_thread_ns
                = std::max(one_thread_ns, static_cast<double>(n.total) * deferred_init_ns_per_page(m_rates, 1));
            m_nodes.push_back(n);
        }
        m_speed = boot_presentation_speed(m_pacing, one_thread_ns);
    }
    for (auto& n : m_nodes) {
        n.host_done = di.progress(n.node);
        n.host_finished = m.nodes[static_cast<std::size_t>(n.node)]->deferred_init_done.load(std::memory_order_acquire);
    }
}

void boot_presenter::host_finished()
{
    for (auto& n : m_nodes) {
        n.host_done = n.total;
        n.host_finished = true;
    }
}

double boot_presenter::modelled_ns(clock::time_point now) const
{
    if (!paced()) return 0;
    return std::chrono::duration<double>(now - m_start).count() * m_speed;
}

std::vector<deferred_progress> boot_presenter::progress(clock::time_point now) const
{
    std::vector<deferred_progress> v;
    const double t = modelled_ns(now);
    for (const auto& n : m_nodes) v.push_back(present_node(n, t, paced()));
    return v;
}

bool boot_presenter::done(clock::time_point now) const
{
    const auto p = progress(now);
    return std::all_of(p.begin(), p.end(), [](const deferred_progress& d) { return d.finished; });
}

boot_presenter::clock::duration boot_presenter::remaining(clock::time_point now) const
{
    if (!paced()) return clock::duration::zero();
    double end_ns = 0;
    for (const auto& n : m_nodes) {
        if (!n.host_finished) return clock::duration::zero();
        end_ns = std::max(end_ns, static_cast<double>(n.total) * n.ns_per_page);
    }
    const double left_s = (end_ns - modelled_ns(now)) / m_speed;
    if (left_s <= 0) return clock::duration::zero();
    return std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(left_s));
}

} // namespace pcplab::sim
