// A workload's tunables by key, with their meaning and allowed range (shown by the CLI and the GUI).
#pragma once

#include "sim/workload.hpp"

#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace pcplab::sim::workloads
{

// A setting's value in messages: "64", "8000000", "0.5" (whole numbers in full, others as printf's %g).
std::string number_text(double v);

class param_set
{
public:
    void add(std::string key, double value, std::string what, double min = 0,
        double max = std::numeric_limits<double>::max());
    double get(std::string_view key) const; // the key must exist (asserted)
    status set(std::string_view key, double value); // ok, or what is wrong
    const std::vector<workload_param>& list() const { return m_params; }

private:
    std::vector<workload_param> m_params;
    std::vector<double> m_min, m_max;
};

} // namespace pcplab::sim::workloads
