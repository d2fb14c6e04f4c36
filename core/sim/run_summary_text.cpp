// The readable run summary: header, switches, totals, the per-zone table and deferred init. Rendered from
// the JSON tree so a repeat's {"mean", "stddev"} figures print as "mean ± stddev" through the same code.
#include "sim/run_summary_detail.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pcplab::sim::detail
{

namespace
{

bool is_stat(const ojson& v)
{
    return v.is_object() && v.contains("mean") && v.contains("stddev");
}

double mean_of(const ojson& v)
{
    if (is_stat(v)) return v["mean"].get<double>();
    return v.is_number() ? v.get<double>() : 0.0;
}

std::string printf_str(const char* fmt, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, fmt, v);
    return buf;
}

// A count: exact while it is an integer, else (a mean) with one decimal.
std::string count_str(double v)
{
    if (v == std::floor(v) && std::fabs(v) < 1e15) return printf_str("%.0f", v);
    return printf_str("%.1f", v);
}

std::string ns_str(double ns)
{
    double a = std::fabs(ns);
    if (a >= 1e9) return printf_str("%.3f s", ns / 1e9);
    if (a >= 1e6) return printf_str("%.3f ms", ns / 1e6);
    if (a >= 1e3) return printf_str("%.3f us", ns / 1e3);
    return printf_str("%.0f ns", ns);
}

std::string ms_str(double ms)
{
    return printf_str("%.1f ms", ms);
}

std::string pct_str(double p)
{
    return printf_str("%.2f%%", p);
}

std::string real_str(double v)
{
    return printf_str("%.6g", v);
}

// A figure in `unit`: a plain number, or "mean ± stddev" for a repeat.
template <typename F> std::string fig(const ojson& v, F unit)
{
    if (is_stat(v)) {
        double sd = v["stddev"].get<double>();
        return unit(v["mean"].get<double>()) + " ± " + (sd == 0 ? std::string("0") : unit(sd));
    }
    if (v.is_number()) return unit(v.get<double>());
    return v.is_null() ? "-" : v.dump();
}

std::string count(const ojson& v)
{
    // An integer prints whole, not through a double: seed 9007199254740993 (2^53 + 1) stays itself.
    if (v.is_number_integer()) return v.dump();
    return fig(v, count_str);
}

std::string str(const ojson& v)
{
    if (v.is_string()) return v.get<std::string>();
    return v.dump(); // differing strings of a repeat: every run's value
}

// Columns aligned: first column left, the others right.
std::string table(const std::vector<std::vector<std::string>>& rows, const std::string& indent)
{
    std::vector<std::size_t> width;
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (width.size() <= i) width.push_back(0);
            width[i] = std::max(width[i], r[i].size());
        }
    std::string out;
    for (const auto& r : rows) {
        std::string line = indent;
        for (std::size_t i = 0; i < r.size(); ++i) {
            std::string pad(width[i] - r[i].size(), ' ');
            line += i == 0 ? r[i] + pad : "  " + pad + r[i];
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string header(const ojson& j)
{
    std::string era = str(j["era"]);
    if (j["requested_era"] != j["era"]) era += " (asked for " + str(j["requested_era"]) + ")";
    std::string out = "run: preset " + str(j["preset"]) + ", era " + era + ", workload " + str(j["workload"])
        + ", intensity " + fig(j["intensity"], real_str) + ", seed " + count(j["seed"]);
    if (j.contains("repeat")) out += " (" + count(j["repeat"]) + " runs, seeds " + str(j["seeds"]) + ")";
    out += "\n";
    if (j.contains("workload_params") && !j["workload_params"].empty()) {
        out += "workload parameters:";
        for (auto it = j["workload_params"].begin(); it != j["workload_params"].end(); ++it)
            out += " " + it.key() + "=" + fig(it.value(), real_str);
        out += "\n";
    }
    out += "switches:";
    const ojson& origins = j.contains("patch_origins") ? j["patch_origins"] : ojson::object();
    for (auto it = j["patches"].begin(); it != j["patches"].end(); ++it) {
        out += "\n  " + it.key() + " "
            + (it.value().is_boolean() ? (it.value().get<bool>() ? "on" : "off") : str(it.value()));
        if (origins.contains(it.key())) out += " (" + str(origins[it.key()]) + ")";
    }
    out += "\n  deferred-init threads per node: " + count(j["init_threads"]) + " (0 = the era's choice)\n";
    out += "virtual time " + fig(j["sim_time_ns"], ns_str) + " of the workload (stopped: " + str(j["stop_reason"])
        + "), " + count(j["events"]) + " events, wall time " + fig(j["wall_ns"], ns_str) + "\n";
    if (j.contains("boot_times")) {
        const ojson& b = j["boot_times"];
        out += "boot (modelled, from power-on): deferred init " + fig(b["deferred_init_start_ns"], ns_str) + " .. "
            + fig(b["init_end_ns"], ns_str) + ", workload from " + fig(b["workload_start_ns"], ns_str) + "\n";
    }
    if (j.contains("rounds")) out += "continuous: " + count(j["rounds"]) + " round(s) of the workload finished\n";
    return out;
}

std::string totals(const ojson& j)
{
    const ojson& t = j["totals"];
    std::vector<std::vector<std::string>> rows = {
        {"allocations", count(t["allocs"]), "frees", count(t["frees"]), "failures", count(t["alloc_failures"])},
        {"PCP hits", count(t["pcp_hits"]), "zone allocations", count(t["zone_allocs"]), "free_high drains",
            count(t["free_high_drains"])},
        {"refills", count(t["refills"]), "drains", count(t["drains"]), "reclaimed pages", count(t["reclaimed_pages"])},
        {"PCP-resident pages", count(t["pcp_resident_pages"]), "pcp trylock failures", count(t["pcp_trylock_failures"]),
            "drain work on other CPUs", count(t["remote_work_items"])},
        {"sys time", fig(t["sys_ns"], ns_str), "spinning", fig(t["spin_ns"], ns_str), "claim searches",
            count(t["claim_searches"])},
        {"user time", fig(t["user_ns"], ns_str), "idle", fig(t["idle_ns"], ns_str), "elapsed",
            fig(t["elapsed_ns"], ns_str)},
    };
    // Calls from any context (a BPF-like workload): shown only where the workload made them.
    if (t.contains("any_context_allocs") && mean_of(t["any_context_allocs"]) > 0) {
        rows.push_back({"any-context allocs", count(t["any_context_allocs"]), "failed",
            count(t["any_context_failures"]), "during deferred init", count(t["any_context_failures_deferred_init"])});
        rows.push_back({"any-context spinning", fig(t["any_context_spin_ns"], ns_str), "frees above high",
            count(t["any_context_frees_over_high"]), "longest above high",
            fig(t["any_context_over_high_ns_max"], ns_str)});
    }
    // Interrupt-context allocations (net-stream's rx_irq_pages_per_ms): shown only where the workload raised them.
    if (t.contains("irq_arrivals") && mean_of(t["irq_arrivals"]) > 0) {
        rows.push_back({"irq allocs", count(t["irq_allocs"]), "irq frees", count(t["irq_frees"]),
            "to zone->lock (pcp held)", count(t["irq_pcp_fallbacks"])});
        rows.push_back({"irqs delayed", count(t["irq_delayed"]), "longest delay", fig(t["irq_delay_ns_max"], ns_str),
            "longest irqs off", fig(t["irq_irqs_off_ns_max"], ns_str)});
    }
    std::string out = "\ntotals\n" + table(rows, "  ");
    out += "  score: " + fig(t["score"], real_str) + " " + str(j["score_unit"]) + " per virtual second ("
        + fig(j["work_units"], real_str) + " " + str(j["score_unit"]) + ")\n";
    const ojson& sm = j["seed_measure"];
    if (sm["name"].is_string() && !sm["name"].get<std::string>().empty())
        out += "  seed measure: " + str(sm["name"]) + " " + fig(sm["value"], real_str) + "\n";
    return out;
}

std::string zones(const ojson& j)
{
    bool autotune = false;
    for (const auto& z : j["zones"]) autotune = autotune || z.contains("high_min");
    std::vector<std::string> head = {"zone", "managed", "batch", "high"};
    if (autotune) head.insert(head.end(), {"high_min", "high_max", "high now"});
    head.insert(head.end(),
        {"PCP pages", "acquired", "contended", "wait total", "wait max", "hold total", "hold max", "hold p99",
            "max pages", "holds > " + fig(j["hold_threshold_ns"], ns_str),
            "waits > " + fig(j["hold_threshold_ns"], ns_str), "contention"});
    std::vector<std::vector<std::string>> rows = {head};
    for (const auto& z : j["zones"]) {
        const ojson& l = z["lock"];
        std::vector<std::string> r = {"Node " + count(z["node"]) + " " + str(z["zone"]), count(z["managed_pages"]),
            count(z["batch"]), count(z["high"])};
        if (autotune) {
            if (z.contains("high_min"))
                r.insert(r.end(), {count(z["high_min"]), count(z["high_max"]), fig(z["pcp_high_mean"], real_str)});
            else
                r.insert(r.end(), {"-", "-", "-"});
        }
        r.insert(r.end(),
            {count(z["pcp_pages"]), count(l["acquisitions"]), count(l["contended"]), fig(l["wait_ns_total"], ns_str),
                fig(l["wait_ns_max"], ns_str), fig(l["hold_ns_total"], ns_str), fig(l["hold_ns_max"], ns_str),
                fig(l["hold_ns_p99"], ns_str), count(l["max_pages_per_hold"]), count(l["holds_over_threshold"]),
                count(l["waits_over_threshold"]), fig(z["contention_pct"], pct_str)});
        rows.push_back(std::move(r));
    }
    std::string out = "\nzones (zone->lock)\n" + table(rows, "  ");

    // Who took each lock: mean hold per caller says where the time under zone->lock went.
    std::vector<std::vector<std::string>> callers = {{"zone", "caller", "holds", "mean hold", "max pages"}};
    for (const auto& z : j["zones"])
        for (auto it = z["callers"].begin(); it != z["callers"].end(); ++it) {
            const ojson& c = it.value();
            double holds = mean_of(c["holds"]);
            std::string mean_hold = holds > 0 ? ns_str(mean_of(c["hold_ns_total"]) / holds) : "-";
            callers.push_back({"Node " + count(z["node"]) + " " + str(z["zone"]), it.key(), count(c["holds"]),
                mean_hold, count(c["max_pages"])});
        }
    if (callers.size() > 1) out += "\nzone->lock holds by caller\n" + table(callers, "  ");
    if (j.contains("pcp_lock")) {
        const ojson& p = j["pcp_lock"];
        out += "\npcp->lock (all CPUs): " + count(p["acquisitions"]) + " acquired, " + count(p["contended"])
            + " contended, wait " + fig(p["wait_ns_total"], ns_str) + ", hold " + fig(p["hold_ns_total"], ns_str)
            + "\n";
    }
    return out;
}

std::string boot(const ojson& j)
{
    if (j["boot"].empty()) return "";
    std::vector<std::vector<std::string>> rows = {{"node", "threads", "pages", "modelled", "on this host"}};
    for (const auto& b : j["boot"])
        rows.push_back({count(b["node"]), count(b["threads"]), count(b["pages"]), fig(b["modelled_ms"], ms_str),
            fig(b["host_ms"], ms_str)});
    return "\ndeferred struct-page init\n" + table(rows, "  ");
}

} // namespace

std::string run_object_text(const ojson& j)
{
    return header(j) + totals(j) + zones(j) + boot(j);
}

} // namespace pcplab::sim::detail
