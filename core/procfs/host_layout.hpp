// This computer's CPU and node layout from sysfs, for checking its own /proc/zoneinfo: how many CPUs each NUMA
// node has (the split zone_highsize divides high by).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace pcplab::procfs
{

// The CPUs of a sysfs cpulist ("0-3,8-11\n" -> 8); -1 when it is not one.
int cpulist_count(std::string_view list);

// CPUs per node id from <sys_root>/devices/system/node/node<N>/cpulist; empty when there is no such directory
// (a kernel without NUMA support, or not Linux). A node without a readable cpulist counts 0.
std::vector<int> sysfs_cpus_per_node(const std::string& sys_root = "/sys");

} // namespace pcplab::procfs
