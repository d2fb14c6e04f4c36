// /proc/zoneinfo of the simulated machine in the era's exact layout (mm/vmstat.c zoneinfo_show_print).
#pragma once

#include "zoneinfo_source.hpp"

#include "mm/machine.hpp"

#include <string>

namespace pcplab::procfs
{

// zoneinfo_show / zoneinfo_show_print (v5.4 .. v6.19 layouts, chosen by the machine's era)
std::string zoneinfo_text(const zoneinfo_source& src);
// frag_show / frag_show_print (/proc/buddyinfo)
std::string buddyinfo_text(const zoneinfo_source& src);

// The same of a machine now (capture_zoneinfo_source, then print).
std::string zoneinfo_text(const mm::machine& m);
std::string buddyinfo_text(const mm::machine& m);

} // namespace pcplab::procfs
