#include "engine_lock_table.hpp"

namespace pcplab::sim
{

void lock_table::reset(mm::machine& m, const per_cpu<int>& cpu_socket)
{
    const std::size_t nr_nodes = m.nodes.size();
    m_zone_metrics.clear();
    m.for_each_populated_zone([&](mm::zone& z) {
        lock_metrics lm;
        lm.node = z.node;
        lm.zone = z.idx;
        m_zone_metrics.push_back(lm);
    });
    m_pcp_metrics = lock_metrics{};
    m_pcp_metrics.node = m_pcp_metrics.zone = -1;

    m_zone.assign(nr_nodes, vlock{});
    std::size_t i = 0;
    m.for_each_populated_zone([&](mm::zone& z) { m_zone[z].metrics = &m_zone_metrics[i++]; });

    // The pageset, and so its lock word, lives in its owner's percpu area: on the owner's socket.
    per_cpu<vlock> pcp_row;
    if (m.era.has_pcp_lock()) {
        pcp_row.assign(cpu_socket.nr_cpus(), vlock{});
        for (int c = 0; c < cpu_socket.nr_cpus(); ++c) {
            pcp_row[c].metrics = &m_pcp_metrics;
            pcp_row[c].home_socket = cpu_socket[c];
        }
    }
    m_pcp.assign(nr_nodes, pcp_row);

    for (std::size_t nid = 0; nid < nr_nodes; ++nid)
        for (int zt = 0; zt < mm::MAX_NR_ZONES; ++zt) {
            vlock& l = m_zone(static_cast<int>(nid), zt);
            l.home_socket = m.nodes[nid]->socket;
            if (!l.metrics) l.metrics = &m_pcp_metrics; // never taken: an unpopulated zone
        }
}

} // namespace pcplab::sim
