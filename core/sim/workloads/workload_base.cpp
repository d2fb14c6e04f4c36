#include "sim/workloads/workload_base.hpp"

#include <algorithm>
#include <cmath>

namespace pcplab::sim::workloads
{

std::vector<int> placement_order(const workload_env& env)
{
    std::vector<int> cpus = env.cpus;
    if (cpus.empty())
        for (int c = 0; c < env.nr_cpus; ++c) cpus.push_back(c);
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());

    auto node_of = [&](int cpu) {
        return cpu >= 0 && static_cast<std::size_t>(cpu) < env.cpu_node.size() ? env.cpu_node[cpu] : 0;
    };
    std::vector<std::vector<int>> per_node;
    for (int c : cpus) {
        if (c < 0 || c >= env.nr_cpus) continue;
        auto n = static_cast<std::size_t>(std::max(0, node_of(c)));
        if (per_node.size() <= n) per_node.resize(n + 1);
        per_node[n].push_back(c);
    }
    std::vector<int> order;
    for (std::size_t i = 0;; ++i) {
        bool any = false;
        for (const auto& node : per_node) {
            if (i < node.size()) {
                order.push_back(node[i]);
                any = true;
            }
        }
        if (!any) break;
    }
    return order;
}

int scaled_count(double intensity, int places)
{
    if (places <= 0) return 0;
    double n = std::round(intensity * places);
    if (!(n >= 1)) return 1; // also catches NaN
    return n >= places ? places : static_cast<int>(n);
}

void workload_base::attach_base(const workload_env& env)
{
    m_env = env;
    m_order = placement_order(env);
    m_place_of.assign(static_cast<std::size_t>(std::max(0, env.nr_cpus)), -1);
    for (std::size_t i = 0; i < m_order.size(); ++i) m_place_of[m_order[i]] = static_cast<int>(i);
}

void workload_base::set_intensity(double intensity)
{
    m_env.intensity = intensity;
    on_intensity();
}

vtime_ns workload_base::pages_ns(double pages) const
{
    double ns = pages * m_env.user_ns_per_page;
    return ns > 0 ? static_cast<vtime_ns>(std::llround(ns)) : 0;
}

} // namespace pcplab::sim::workloads
