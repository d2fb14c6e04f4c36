// The factories behind make_workload (one per workload file).
#pragma once

#include "sim/workload.hpp"

#include <memory>

namespace pcplab::sim::workloads
{

std::unique_ptr<workload> make_kernbench();
std::unique_ptr<workload> make_page_fault1();
std::unique_ptr<workload> make_stress_vm();
std::unique_ptr<workload> make_high_order();
std::unique_ptr<workload> make_bursty();
std::unique_ptr<workload> make_boot_load();
std::unique_ptr<workload> make_net_stream();
std::unique_ptr<workload> make_frag_churn();
std::unique_ptr<workload> make_bpf_any_context();
std::unique_ptr<workload> make_jemalloc_purge();

} // namespace pcplab::sim::workloads
