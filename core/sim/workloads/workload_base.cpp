#include "sim/workloads/workload_base.hpp"

#include "sim/workloads/task_state.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

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

workload_score count_score(std::uint64_t n, std::string unit, bool seed_measure)
{
    workload_score s;
    s.work_units = static_cast<double>(n);
    s.unit = std::move(unit);
    if (seed_measure) {
        s.seed_measure = s.unit;
        s.seed_measure_value = s.work_units;
    }
    return s;
}

void workload_base::attach_base(const workload_env& env)
{
    m_env = env;
    m_one_page_ns = pages_ns(1);
    m_order = placement_order(env);
    m_place_of.assign(static_cast<std::size_t>(std::max(0, env.nr_cpus)), -1);
    for (std::size_t i = 0; i < m_order.size(); ++i) m_place_of[m_order[i]] = static_cast<int>(i);
    m_released = false;
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

bool workload_base::take_touch(bool& pending, cpu_action& out) const
{
    if (!pending) return false;
    pending = false;
    const vtime_ns ns = m_one_page_ns; // pages_ns(1), computed once in attach_base (hot: every fault)
    if (!ns) return false;
    out = compute(ns);
    return true;
}

status workload_base::one_per_cpu_problem(const workload_env& env, const char* key, const char* task) const
{
    const auto places = placement_order(env).size();
    const double n = m_params.get(key);
    const std::string setting = std::string(key) + "=" + number_text(n);
    const std::string per_cpu = std::string("at most one ") + task + " per CPU";
    if (n > static_cast<double>(places))
        return pcplab::error(
            setting + ": more than the " + std::to_string(places) + " CPUs it runs on (" + per_cpu + ")");
    if (n > 0 && env.intensity != 1)
        return pcplab::error("intensity " + number_text(env.intensity) + ": changes nothing beside " + setting + " ("
            + key + " sets the count that the intensity would scale)");
    if (env.intensity > 1)
        return pcplab::error("intensity " + number_text(env.intensity) + ": " + per_cpu
            + ", which intensity 1 already fills; above 1 changes nothing");
    return {};
}

std::uint32_t workload_base::scaled_amount(double base, double cap) const
{
    double n = std::round(base * m_env.intensity);
    return n >= 1 ? static_cast<std::uint32_t>(std::min(n, cap)) : 1U;
}

} // namespace pcplab::sim::workloads
