#include "sim/workloads/workload_params.hpp"

#include <cassert>
#include <cmath>
#include <cstdio>

namespace pcplab::sim::workloads
{

std::string number_text(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%g", v);
    return buf;
}

void param_set::add(std::string key, double value, std::string what, double min, double max)
{
    m_params.push_back({std::move(key), value, std::move(what)});
    m_min.push_back(min);
    m_max.push_back(max);
}

double param_set::get(std::string_view key) const
{
    for (const auto& p : m_params)
        if (p.key == key) return p.value;
    assert(false && "unknown workload parameter");
    return 0;
}

status param_set::set(std::string_view key, double value)
{
    for (std::size_t i = 0; i < m_params.size(); ++i) {
        if (m_params[i].key != key) continue;
        if (!std::isfinite(value) || value < m_min[i] || value > m_max[i])
            return pcplab::error("parameter " + std::string(key) + " must be between " + number_text(m_min[i]) + " and "
                + number_text(m_max[i]));
        m_params[i].value = value;
        return {};
    }
    std::string known;
    for (const auto& p : m_params) known += (known.empty() ? "" : ", ") + p.key;
    return pcplab::error("unknown parameter " + std::string(key) + (known.empty() ? "" : " (known: " + known + ")"));
}

} // namespace pcplab::sim::workloads
