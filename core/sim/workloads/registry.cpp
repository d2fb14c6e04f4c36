// The workload registry: names as the CLI and the GUI show them, and their factories.
#include "sim/workload.hpp"
#include "sim/workloads/registry_internal.hpp"

#include <algorithm>

namespace pcplab::sim
{

namespace
{

struct entry {
    const char* name;
    std::unique_ptr<workload> (*make)();
};

const entry k_workloads[] = {
    {"kernbench", workloads::make_kernbench},
    {"page-fault1", workloads::make_page_fault1},
    {"stress-vm", workloads::make_stress_vm},
    {"high-order", workloads::make_high_order},
    {"bursty", workloads::make_bursty},
    {"boot", workloads::make_boot_load},
    {"net-stream", workloads::make_net_stream},
    {"frag-churn", workloads::make_frag_churn},
    {"bpf-any-context", workloads::make_bpf_any_context},
    {"jemalloc-purge", workloads::make_jemalloc_purge},
};

} // namespace

std::vector<std::string> workload_names()
{
    std::vector<std::string> names;
    for (const auto& e : k_workloads) names.emplace_back(e.name);
    return names;
}

std::unique_ptr<workload> make_workload(std::string_view name)
{
    // "page_fault1" and "page-fault1" both name will-it-scale's test.
    std::string n(name);
    std::replace(n.begin(), n.end(), '_', '-');
    for (const auto& e : k_workloads)
        if (n == e.name) return e.make();
    return nullptr;
}

} // namespace pcplab::sim
