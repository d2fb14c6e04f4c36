#include "preset_zones.hpp"

#include "preset_json.hpp"

#include <limits>

namespace pcplab::sim::detail
{

namespace
{

struct zone_name {
    const char* name;
    mm::zone_type type;
    bool highmem;
};
// The zones a /proc/zoneinfo can show; Device is never populated.
constexpr zone_name k_zone_names[] = {{"DMA", mm::ZONE_DMA, false}, {"DMA32", mm::ZONE_DMA32, false},
    {"Normal", mm::ZONE_NORMAL, false}, {"HighMem", mm::ZONE_MOVABLE, true}, {"Movable", mm::ZONE_MOVABLE, false}};

} // namespace

std::vector<zone_request> read_zones(const nlohmann::json& v, const std::string& path)
{
    if (!v.is_array() || v.empty()) throw field_error{path, "must be a non-empty array of zone objects"};
    std::vector<zone_request> out;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const std::string zpath = path + "[" + std::to_string(i) + "]";
        object_reader r(v[i], zpath, {"zone", "present_pages", "managed_pages"});
        const std::string name = get_string(r.require("zone"), r.path("zone"));
        const zone_name* z = nullptr;
        for (const auto& k : k_zone_names)
            if (name == k.name) z = &k;
        if (!z)
            throw field_error{r.path("zone"), "'" + name + "' is not a zone (DMA, DMA32, Normal, HighMem, Movable)"};
        for (const auto& seen : names) {
            if (seen == name) throw field_error{r.path("zone"), "zone " + name + " is listed twice"};
            if ((seen == "HighMem" && name == "Movable") || (seen == "Movable" && name == "HighMem"))
                throw field_error{r.path("zone"),
                    "HighMem and Movable together: the model keeps HighMem in the Movable slot, so one node has "
                    "one of them"};
        }
        names.push_back(name);
        zone_request q;
        q.type = z->type;
        q.highmem = z->highmem;
        const long max_pages = std::numeric_limits<mm::pfn_t>::max() / 2;
        q.present
            = static_cast<unsigned long>(get_int(r.require("present_pages"), r.path("present_pages"), 1, max_pages));
        q.managed = static_cast<unsigned long>(
            get_int(r.require("managed_pages"), r.path("managed_pages"), 0, static_cast<long>(q.present)));
        out.push_back(q);
    }
    return out;
}

unsigned read_page_shift(const nlohmann::json& v, const std::string& path)
{
    long kib = get_int(v, path, 4, 64);
    if (kib != 4 && kib != 16 && kib != 64) throw field_error{path, "must be 4, 16 or 64, not " + std::to_string(kib)};
    return kib == 4 ? 12 : kib == 16 ? 14 : 16;
}

unsigned long read_section_pages(const nlohmann::json& v, const std::string& path, unsigned page_shift)
{
    long mib = get_int(v, path, 16, 2048);
    if (mib & (mib - 1)) throw field_error{path, "must be a power of two, not " + std::to_string(mib)};
    unsigned long pages = (static_cast<unsigned long>(mib) << 20) >> page_shift;
    if (pages < 1024)
        throw field_error{path,
            std::to_string(mib) + " MiB is less than a MAX_ORDER block (1024 pages) of "
                + std::to_string((1UL << page_shift) >> 10) + " KiB"};
    return pages;
}

} // namespace pcplab::sim::detail
