#include "session/export.hpp"

#include "mm/lock_ops.hpp"
#include "mm/mm_types.hpp"

#include <algorithm>
#include <cstdio>
#include <map>

namespace pcplab::session
{

namespace
{

// lock_stat prints times in microseconds with two decimals, rounded to the nearest 10 ns
// (kernel/locking/lockdep_proc.c, snprint_time).
std::string lockstat_time(std::uint64_t ns)
{
    const std::uint64_t r = ns + 5;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu.%02llu", static_cast<unsigned long long>(r / 1000),
        static_cast<unsigned long long>((r % 1000) / 10));
    return buf;
}

std::string pad(const std::string& s, int w)
{
    return static_cast<int>(s.size()) >= w ? s : std::string(static_cast<std::size_t>(w) - s.size(), ' ') + s;
}

std::string num(std::uint64_t v, int w = 14)
{
    return pad(std::to_string(v), w);
}

// What only the hold records tell (when every hold was recorded): the shortest wait and hold, the bounces
// (acquisitions / contentions where the lock came from another CPU), and contentions per caller.
struct from_holds {
    bool complete = false;
    std::uint64_t wait_min = 0, hold_min = 0, acq_bounces = 0, con_bounces = 0;
    std::map<std::string, std::uint64_t> contentions_by_caller;
};

} // namespace

std::string export_procfs(const recording& rec, std::int64_t run, const std::string& file)
{
    const auto texts = rec.procfs(run, file);
    if (texts.empty())
        rec.fail("no /proc/" + file + " texts recorded in run " + std::to_string(run)
            + " (recordings made by `pcplab-cli run --record` have them)");
    const std::int64_t epoch = rec.created_epoch();
    std::string out;
    for (const auto& t : texts) {
        out += "time: " + std::to_string(epoch + static_cast<std::int64_t>(t.t_ns / 1'000'000'000)) + "\n";
        out += t.text;
        if (!t.text.empty() && t.text.back() != '\n') out += "\n";
    }
    return out;
}

std::string export_lockstat(const recording& rec, std::int64_t run)
{
    const run_record& rr = rec.run(run);
    const auto snaps = rec.load_all(run);
    if (snaps.empty()) rec.fail("run " + std::to_string(run) + " has no snapshots");
    const sim::snapshot& last = *snaps.back();

    // Per zone lock, in the order of the snapshot's zones.
    std::vector<from_holds> extra(last.zones.size());
    const bool complete = rr.holds_seen > 0 && rr.holds_seen == rr.holds_written;
    std::vector<int> last_cpu(last.zones.size(), -1);
    for (const auto& sp : snaps)
        for (const auto& h : sp->holds) {
            if (h.kind != mm::lock_kind::zone_lock) continue;
            const int zi = last.zone_index(h.node, h.zone);
            if (zi < 0) continue;
            auto& x = extra[static_cast<std::size_t>(zi)];
            const bool first = last_cpu[static_cast<std::size_t>(zi)] < 0;
            const bool bounced = !first && last_cpu[static_cast<std::size_t>(zi)] != h.cpu;
            if (bounced) x.acq_bounces += 1;
            if (h.wait_ns > 0) {
                if (bounced) x.con_bounces += 1;
                x.wait_min = x.wait_min == 0 ? h.wait_ns : std::min<std::uint64_t>(x.wait_min, h.wait_ns);
                x.contentions_by_caller[std::string(mm::lock_caller_name(h.caller))] += 1;
            }
            x.hold_min = first ? h.hold_ns : std::min<std::uint64_t>(x.hold_min, h.hold_ns);
            last_cpu[static_cast<std::size_t>(zi)] = h.cpu;
        }
    for (auto& x : extra) x.complete = complete;

    std::vector<std::size_t> order(last.zones.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return last.zones[a].lock.m.contended > last.zones[b].lock.m.contended; // as the kernel sorts
    });

    const std::string rule(40 + 1 + 12 * (14 + 1), '-');
    std::string out = "lock_stat version 0.4\n" + rule + "\n" + pad("class name", 40);
    for (const char* h :
        {"con-bounces", "contentions", "waittime-min", "waittime-max", "waittime-total", "waittime-avg", "acq-bounces",
            "acquisitions", "holdtime-min", "holdtime-max", "holdtime-total", "holdtime-avg"})
        out += " " + pad(h, 14);
    out += "\n" + rule + "\n\n";

    for (std::size_t i : order) {
        const auto& z = last.zones[i];
        const auto& m = z.lock.m;
        const auto& x = extra[i];
        if (!z.lock.present || m.acquisitions == 0) continue;
        const char* zn = z.zone >= 0 && z.zone < static_cast<int>(mm::MAX_NR_ZONES)
            ? mm::zone_name(static_cast<unsigned>(z.zone))
            : "?";
        const std::string name = "&zone->lock/N" + std::to_string(z.node) + "-" + zn;
        out += pad(name, 40) + ":" + num(x.complete ? x.con_bounces : 0) + " ";
        out += num(m.contended) + " " + pad(lockstat_time(x.complete ? x.wait_min : 0), 14) + " "
            + pad(lockstat_time(m.wait_ns_max), 14) + " " + pad(lockstat_time(m.wait_ns_total), 14) + " "
            + pad(lockstat_time(m.contended ? m.wait_ns_total / m.contended : 0), 14);
        out += " " + num(x.complete ? x.acq_bounces : 0) + " ";
        out += num(m.acquisitions) + " " + pad(lockstat_time(x.complete ? x.hold_min : 0), 14) + " "
            + pad(lockstat_time(m.hold_ns_max), 14) + " " + pad(lockstat_time(m.hold_ns_total), 14) + " "
            + pad(lockstat_time(m.acquisitions ? m.hold_ns_total / m.acquisitions : 0), 14) + "\n";
        // Contention points: the callers that had to wait (from the hold records), most first.
        std::vector<std::pair<std::uint64_t, std::string>> points;
        for (const auto& [caller, n] : x.contentions_by_caller) points.emplace_back(n, caller);
        std::sort(points.rbegin(), points.rend());
        if (points.size() > 4) points.resize(4); // LOCKSTAT_POINTS
        if (!points.empty()) {
            out += std::string(40 - std::min<std::size_t>(name.size(), 40), ' ') + std::string(name.size(), '-') + "\n";
            for (const auto& [n, caller] : points)
                out += pad(name, 40) + " " + num(n) + " " + pad("[<0000000000000000>]", 29) + " " + caller + "\n";
            out += "\n" + std::string(rule.size(), '.') + "\n";
        }
        out += "\n";
    }
    if (!complete)
        out += "# pcplab: the recording kept " + std::string(rr.holds_seen ? "a sample of the" : "no")
            + " lock holds (rule " + rec.meta("holds_rule")
            + "): con-bounces, acq-bounces, waittime-min and holdtime-min read 0\n";
    return out;
}

} // namespace pcplab::session
