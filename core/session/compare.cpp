#include "session/compare.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>

namespace pcplab::session
{

namespace
{

// The metrics of a run, named like kernbench's (user/syst/elsp with the CPU count) plus the allocator's own.
std::vector<metric_def> metrics_for(int nr_cpus)
{
    const std::string n = "-" + std::to_string(nr_cpus);
    return {
        {"user" + n, false, "user time, all CPUs (virtual s)", "user-ms" + n},
        {"syst" + n, false, "system time, all CPUs (virtual s)", "syst-ms" + n},
        {"elsp" + n, false, "elapsed virtual time (s)", "elsp-ms" + n},
        {"score", true, "work units per virtual second", ""},
        {"pcp-hit%", true, "allocations served from a PCP list (%)", ""},
        {"zlock-wait-us", false, "zone->lock wait, all zones (us)", ""},
        {"zlock-cont%", false, "zone->lock contention, worst zone (% of the run)", ""},
        {"zlock-hold-max-us", false, "longest zone->lock hold (us)", ""},
    };
}

run_figures figures_of(const sim::snapshot& s, const run_record& r)
{
    run_figures f;
    f.user_s = static_cast<double>(s.user_ns_total()) / 1e9;
    f.system_s = static_cast<double>(s.sys_ns_total()) / 1e9;
    f.elapsed_s = static_cast<double>(s.sim_time_ns) / 1e9;
    // A finished workload's elapsed time is when its last CPU finished, which only the run summary knows.
    auto summary = nlohmann::json::parse(r.summary_json, nullptr, false);
    if (summary.is_object() && summary.contains("totals") && summary["totals"].contains("elapsed_ns")
        && summary["totals"]["elapsed_ns"].is_number())
        f.elapsed_s = summary["totals"]["elapsed_ns"].get<double>() / 1e9;
    double wait_ns = 0, cont = 0, hold_max = 0;
    for (const auto& z : s.zones) {
        wait_ns += static_cast<double>(z.lock.m.wait_ns_total);
        cont = std::max(cont, z.lock.contention_pct);
        hold_max = std::max(hold_max, static_cast<double>(z.lock.m.hold_ns_max));
    }
    const double allocs = static_cast<double>(s.totals.allocs);
    f.values = {
        f.user_s,
        f.system_s,
        f.elapsed_s,
        f.elapsed_s > 0 ? s.score.work_units / f.elapsed_s : 0,
        allocs > 0 ? 100.0 * static_cast<double>(s.totals.pcp_hits) / allocs : 0,
        wait_ns / 1e3,
        cont,
        hold_max / 1e3,
    };
    return f;
}

} // namespace

std::vector<compare_input> compare_inputs_from(const recording& rec)
{
    std::map<int, compare_input> by_side;
    std::vector<std::string> cut_off;
    for (const auto& r : rec.runs()) {
        auto idx = rec.index(r.run);
        if (idx.empty()) continue;
        if (!r.finished) {
            cut_off.push_back(rec.path() + ": run " + std::to_string(r.run) + " (seed " + std::to_string(r.seed)
                + ") was cut off before its end (finished = 0) and is left out");
            continue;
        }
        auto last = rec.load(r.run, idx.back().seq);
        auto [it, fresh] = by_side.try_emplace(r.side);
        compare_input& in = it->second;
        if (fresh) {
            in.label = rec.path();
            in.era = r.requested_era.empty() ? r.era : r.requested_era;
            in.tag = r.tag;
            in.workload = r.workload;
            in.metrics = metrics_for(r.nr_cpus ? r.nr_cpus : last->nr_cpus);
        }
        in.runs.push_back(figures_of(*last, r));
    }
    if (by_side.empty())
        rec.fail(cut_off.empty() ? "no run with snapshots to compare"
                                 : "no finished run to compare (every run was cut off before its end)");
    std::vector<compare_input> out;
    for (auto& [side, in] : by_side) {
        if (by_side.size() > 1) in.tag += side == 0 ? "-A" : "-B";
        out.push_back(std::move(in));
    }
    out.front().notes = std::move(cut_off);
    return out;
}

double mean_of(const std::vector<double>& v)
{
    if (v.empty()) return 0;
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
}

double hmean_of(const std::vector<double>& v)
{
    if (v.empty()) return 0;
    double inv = 0;
    for (double x : v) {
        if (x <= 0) return 0; // the harmonic mean's limit when a value reaches 0
        inv += 1 / x;
    }
    return static_cast<double>(v.size()) / inv;
}

double stddev_of(const std::vector<double>& v)
{
    if (v.size() < 2) return 0;
    const double m = mean_of(v);
    double ss = 0;
    for (double x : v) ss += (x - m) * (x - m);
    return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

double pct_better(double value, double base, bool higher_is_better)
{
    if (value == base) return 0;
    if (base == 0) return (value > 0) == higher_is_better ? 100 : -100; // no ratio to a zero baseline
    const double change = (value - base) * 100 / std::fabs(base);
    return higher_is_better ? change : -change;
}

bool intervals_apart(double mean_a, double sd_a, double mean_b, double sd_b)
{
    const double lo_a = mean_a - 1.96 * sd_a, hi_a = mean_a + 1.96 * sd_a;
    const double lo_b = mean_b - 1.96 * sd_b, hi_b = mean_b + 1.96 * sd_b;
    return lo_b > hi_a || hi_b < lo_a;
}

compare_table build_compare_table(const std::vector<compare_input>& columns)
{
    if (columns.empty()) throw std::invalid_argument("nothing to compare");
    const auto& metrics = columns.front().metrics;
    for (const auto& c : columns) {
        if (c.metrics.size() != metrics.size()) throw std::invalid_argument(c.label + ": different metrics");
        if (c.runs.empty()) throw std::invalid_argument(c.label + ": no runs");
        for (const auto& r : c.runs)
            if (r.values.size() != metrics.size()) throw std::invalid_argument(c.label + ": a run lacks metrics");
    }

    compare_table t;
    t.title = columns.front().workload;
    bool can_test = true;
    std::string workloads;
    bool same_workload = true;
    for (const auto& c : columns) {
        same_workload = same_workload && c.workload == columns.front().workload;
        if (!same_workload) t.title.clear();
        t.era.push_back(c.era);
        t.tag.push_back(c.tag);
        t.repeats.push_back(static_cast<int>(c.runs.size()));
        can_test = can_test && c.runs.size() >= 2;
        workloads += (workloads.empty() ? "" : ", ") + c.tag + " ran " + (c.workload.empty() ? "?" : c.workload);
        t.notes.insert(t.notes.end(), c.notes.begin(), c.notes.end());
    }
    if (!same_workload)
        t.notes.push_back("the columns ran different workloads (" + workloads
            + "): their figures measure different things, and the differences are not the configuration's");
    if (!can_test) t.notes.push_back("significance (asterisks) needs at least 2 runs per column: record with --repeat");

    const std::size_t nm = metrics.size(), nc = columns.size();
    // values[m][c] = the metric m of every run of column c
    std::vector<std::vector<std::vector<double>>> values(nm, std::vector<std::vector<double>>(nc));
    for (std::size_t c = 0; c < nc; ++c)
        for (const auto& r : columns[c].runs)
            for (std::size_t m = 0; m < nm; ++m) values[m][c].push_back(r.values[m]);
    // Short runs: their times in milliseconds, in every column alike (the baseline decides).
    bool to_ms = false;
    for (std::size_t m = 0; m < nm; ++m)
        if (!metrics[m].name_ms.empty()) to_ms = true;
    for (std::size_t m = 0; m < nm && to_ms; ++m)
        if (!metrics[m].name_ms.empty() && mean_of(values[m][0]) >= 10) to_ms = false;
    std::vector<std::string> names;
    for (std::size_t m = 0; m < nm; ++m) {
        const bool scale = to_ms && !metrics[m].name_ms.empty();
        names.push_back(scale ? metrics[m].name_ms : metrics[m].name);
        if (scale)
            for (auto& col : values[m])
                for (double& v : col) v *= 1000;
    }

    auto add_rows = [&](const char* stat, bool spread, auto&& compute) {
        for (std::size_t m = 0; m < nm; ++m) {
            compare_row row;
            const bool hib = metrics[m].higher_is_better;
            row.stat = stat ? stat : (hib ? "Hmean" : "Amean");
            row.metric = names[m];
            row.higher_is_better = spread ? false : hib;
            for (std::size_t c = 0; c < nc; ++c) row.cells.push_back({compute(values[m][c], hib), 0, false});
            for (std::size_t c = 0; c < nc; ++c)
                row.cells[c].pct = pct_better(row.cells[c].value, row.cells[0].value, row.higher_is_better);
            if (!stat && can_test)
                for (std::size_t c = 1; c < nc; ++c)
                    row.cells[c].significant = intervals_apart(
                        row.cells[0].value, stddev_of(values[m][0]), row.cells[c].value, stddev_of(values[m][c]));
            t.rows.push_back(std::move(row));
        }
    };
    add_rows(nullptr, false, [](const std::vector<double>& v, bool hib) { return hib ? hmean_of(v) : mean_of(v); });
    add_rows("Stddev", true, [](const std::vector<double>& v, bool) { return stddev_of(v); });
    add_rows("CoeffVar", true, [](const std::vector<double>& v, bool) {
        const double m = mean_of(v);
        return m != 0 ? 100 * stddev_of(v) / m : 0.0;
    });
    add_rows("Min", false, [](const std::vector<double>& v, bool) { return *std::min_element(v.begin(), v.end()); });
    add_rows("Max", false, [](const std::vector<double>& v, bool) { return *std::max_element(v.begin(), v.end()); });

    t.duration_names = {"User", "System", "Elapsed"};
    t.duration.assign(3, std::vector<double>(nc, 0));
    for (std::size_t c = 0; c < nc; ++c)
        for (const auto& r : columns[c].runs) {
            t.duration[0][c] += r.user_s;
            t.duration[1][c] += r.system_s;
            t.duration[2][c] += r.elapsed_s;
        }
    return t;
}

} // namespace pcplab::session
