#include "session/series.hpp"

#include "mm/mm_types.hpp"

#include <map>

namespace pcplab::session
{

const std::vector<series_info>& all_series()
{
    static const std::vector<series_info> k = {
        {"allocs", false, "allocations"},
        {"frees", false, "frees"},
        {"pcp_hits", false, "allocations served from a PCP list"},
        {"zone_allocs", false, "pages taken from the buddy allocator"},
        {"refills", false, "PCP refills (rmqueue_bulk)"},
        {"drains", false, "PCP drains"},
        {"free_high_drains", false, "frees that drained a PCP list above high"},
        {"pcp_resident_pages", false, "pages on PCP lists"},
        {"reclaimed_pages", false, "pages reclaimed"},
        {"alloc_failures", false, "failed allocations"},
        {"sys_ns", false, "system time, all CPUs (ns)"},
        {"user_ns", false, "user time, all CPUs (ns)"},
        {"idle_ns", false, "idle time, all CPUs (ns)"},
        {"spin_ns", false, "time spinning on locks, all CPUs (ns)"},
        {"work_units", false, "work done (workload units)"},
        {"events", false, "engine events processed"},
        {"batch", true, "pcp->batch (pages)"},
        {"high", true, "pcp->high, zone value (pages)"},
        {"high_min", true, "pcp->high_min (pages)"},
        {"high_max", true, "pcp->high_max (pages)"},
        {"cpu_high_min", true, "lowest per-CPU pcp->high (pages)"},
        {"cpu_high_max", true, "highest per-CPU pcp->high (pages)"},
        {"cpu_high_mean", true, "mean per-CPU pcp->high (pages)"},
        {"count", true, "pages on the zone's PCP lists, all CPUs"},
        {"free_pages", true, "NR_FREE_PAGES"},
        {"managed", true, "managed pages"},
        {"acquisitions", true, "zone->lock acquisitions"},
        {"contended", true, "contended zone->lock acquisitions"},
        {"wait_ns_total", true, "zone->lock wait, total (ns)"},
        {"hold_ns_total", true, "zone->lock hold, total (ns)"},
        {"hold_ns_max", true, "longest zone->lock hold (ns)"},
        {"contention_pct", true, "zone->lock contention, whole run (%)"},
        {"contention_pct_recent", true, "zone->lock contention, last interval (%)"},
        {"waiting_cpus", true, "CPUs waiting for zone->lock"},
    };
    return k;
}

const series_info* find_series(const std::string& name)
{
    for (const auto& s : all_series())
        if (name == s.name) return &s;
    return nullptr;
}

std::string series_names_text()
{
    std::string out;
    for (const auto& s : all_series()) out += (out.empty() ? "" : ", ") + std::string(s.name);
    return out;
}

std::vector<series_line> read_series(const recording& rec, std::int64_t run, const series_info& s)
{
    // The column name comes from the fixed list above, never from the user, so it is safe to splice in.
    std::vector<series_line> out;
    try {
        if (!s.per_zone) {
            auto q = rec.db().prepare(
                std::string("SELECT t_ns, ") + s.name + ", seq FROM samples WHERE run = ? ORDER BY seq");
            q.bind(1, run);
            series_line line;
            line.label = s.name;
            while (q.step()) {
                line.seq.push_back(static_cast<std::uint64_t>(q.column_int(2)));
                line.t_s.push_back(static_cast<double>(q.column_int(0)) / 1e9);
                line.v.push_back(q.column_double(1));
            }
            out.push_back(std::move(line));
            return out;
        }
        auto q = rec.db().prepare(std::string("SELECT node, zone, t_ns, ") + s.name
            + ", seq FROM zone_samples WHERE run = ? ORDER BY node, zone, seq");
        q.bind(1, run);
        std::map<std::pair<int, int>, std::size_t> at;
        while (q.step()) {
            const int node = static_cast<int>(q.column_int(0)), zone = static_cast<int>(q.column_int(1));
            auto [it, fresh] = at.emplace(std::make_pair(node, zone), out.size());
            if (fresh) {
                series_line line;
                line.node = node;
                line.zone = zone;
                line.label = "Node " + std::to_string(node) + " "
                    + (zone >= 0 && zone < static_cast<int>(mm::MAX_NR_ZONES)
                            ? mm::zone_name(static_cast<unsigned>(zone))
                            : "?");
                out.push_back(std::move(line));
            }
            auto& line = out[it->second];
            line.seq.push_back(static_cast<std::uint64_t>(q.column_int(4)));
            line.t_s.push_back(static_cast<double>(q.column_int(2)) / 1e9);
            line.v.push_back(q.column_double(3));
        }
    } catch (const sqlite_error& e) {
        rec.fail(e);
    }
    return out;
}

} // namespace pcplab::session
