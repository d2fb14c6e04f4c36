// A preset's machine given by its zones (what preset-from-zoneinfo writes): the "zones" of a node, the page
// size and the memory section size. Internal to core/sim/preset.cpp; the schema is in resources/presets/README.md.
#pragma once

#include "preset_layout.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pcplab::sim::detail
{

// "zones": [{"zone": "DMA", "present_pages": N, "managed_pages": M}, ...]: each zone type at most once, HighMem
// and Movable not both (the model keeps HighMem in the Movable slot).
std::vector<zone_request> read_zones(const nlohmann::json& v, const std::string& path);
// "page_size_kib": 4, 16 or 64 -> PAGE_SHIFT
unsigned read_page_shift(const nlohmann::json& v, const std::string& path);
// "section_mib": a power of two from 16 to 2048, at least 1024 pages (a MAX_ORDER block) -> pages per section
unsigned long read_section_pages(const nlohmann::json& v, const std::string& path, unsigned page_shift);

} // namespace pcplab::sim::detail
