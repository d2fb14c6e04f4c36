#include "run_engine.hpp"

#include "sim/engine.hpp"
#include "sim/preset.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <variant>

namespace pcplab::cli
{

sim::vtime_ns parse_duration_ns(const std::string& flag, std::string_view text)
{
    const std::string t(text);
    const std::string bad = flag + ": '" + t + "' is not a duration (a number with ns, us, ms or s, e.g. 10s)";
    std::size_t unit_at = t.find_first_not_of("0123456789.");
    std::string number = t.substr(0, unit_at), unit = unit_at == std::string::npos ? "s" : t.substr(unit_at);
    if (number.empty() || number.find('.') != number.rfind('.') || number == ".") throw cli_error(bad);
    double scale = 0;
    if (unit == "ns")
        scale = 1;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else
        throw cli_error(bad);
    double ns = std::strtod(number.c_str(), nullptr) * scale;
    if (!(ns >= 1)) throw cli_error(flag + ": must be at least 1ns, not " + t);
    if (ns > 1e18) throw cli_error(flag + ": '" + t + "' is too long");
    return static_cast<sim::vtime_ns>(std::llround(ns));
}

double parse_positive_real(const std::string& flag, std::string_view text, double max_value)
{
    const std::string t(text);
    char* end = nullptr;
    double v = t.empty() ? 0 : std::strtod(t.c_str(), &end);
    if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v))
        throw cli_error(flag + ": '" + t + "' is not a number");
    if (v <= 0) throw cli_error(flag + ": must be more than 0, not " + t);
    if (v > max_value) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", max_value);
        throw cli_error(flag + ": must be at most " + buf + ", not " + t);
    }
    return v;
}

std::pair<std::string, double> parse_param(const std::string& text)
{
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) throw cli_error("--param " + text + ": expected KEY=VALUE (e.g. jobs=64)");
    char* end = nullptr;
    const std::string value = text.substr(eq + 1);
    const double v = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v))
        throw cli_error("--param " + text + ": '" + value + "' is not a number");
    return {text.substr(0, eq), v};
}

std::uint64_t parse_u64(const std::string& flag, std::string_view text)
{
    const std::string t(text);
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos)
        throw cli_error(flag + ": '" + t + "' is not a whole number");
    errno = 0;
    unsigned long long v = std::strtoull(t.c_str(), nullptr, 10);
    if (errno == ERANGE) throw cli_error(flag + ": '" + t + "' is too large");
    return v;
}

std::unique_ptr<sim::workload> make_configured_workload(
    const std::string& name, const std::vector<std::pair<std::string, double>>& params)
{
    auto w = sim::make_workload(name);
    if (!w) throw cli_error("--workload: unknown workload '" + name + "'");
    for (const auto& [key, value] : params) {
        // The workload's message names the parameter and, for an unknown one, every key it takes.
        if (const status set = w->set_param(key, value); !set) {
            char v[32];
            std::snprintf(v, sizeof v, "%g", value);
            throw cli_error("--param " + key + "=" + v + ": " + set.message());
        }
    }
    return w;
}

sim::engine_config engine_config_of(const run_request& req)
{
    sim::engine_config ec = sim::engine_config_for(req.cfg);
    ec.workload = req.workload;
    ec.intensity = req.intensity;
    ec.seed = req.seed;
    ec.cpus = req.cpus;
    ec.hold_threshold_ns = req.hold_threshold_ns;
    ec.continuous = req.continuous;
    return ec;
}

sim::run_summary execute_run(const run_request& req)
{
    const auto wall_start = std::chrono::steady_clock::now();
    make_configured_workload(req.workload, req.params); // refuse bad parameters before booting
    sim::engine e(engine_config_of(req), [&req] { return make_configured_workload(req.workload, req.params); });
    return execute_run(req, e, run_observer{}, wall_start);
}

sim::run_summary execute_run(
    const run_request& req, sim::engine& e, const run_observer& obs, std::chrono::steady_clock::time_point wall_start)
{
    e.boot();
    if (obs.booted) obs.booted(e);
    const sim::vtime_ns every = obs.tick ? obs.every_ns : 0;
    // Durations count from the workload's start: the boot before it is reported apart.
    const sim::vtime_ns start = e.workload_start();
    std::string stop;
    // After a tick: whether the observer ends the run there.
    auto stopped_by_observer = [&] {
        if (!obs.stop || !obs.stop()) return false;
        stop = obs.stop_reason;
        return true;
    };
    if (req.work_units) {
        // Step until the workload has done the work; checked every few steps (the score is cheap, not
        // free), which keeps the stop point deterministic.
        stop = "work";
        sim::vtime_ns next = start + every;
        for (std::uint64_t n = 0; !e.finished();) {
            if (++n % 64 == 0 && (e.score().work_units >= *req.work_units || e.elapsed() >= WORK_TIME_CAP_NS)) {
                if (e.elapsed() >= WORK_TIME_CAP_NS) stop = "time cap";
                break;
            }
            if (!e.step()) break;
            if (every && e.now() >= next) {
                obs.tick(e);
                next += every;
                if (stopped_by_observer()) break;
            }
        }
    } else {
        stop = "duration";
        sim::vtime_ns end = start + req.duration_ns.value_or(DEFAULT_DURATION_NS);
        if (!every) e.run_until(end);
        for (sim::vtime_ns t = start + every; every && !e.finished(); t += every) {
            e.run_until(std::min(t, end));
            if (t >= end || e.finished()) break;
            obs.tick(e);
            if (stopped_by_observer()) {
                end = t;
                break;
            }
        }
        // The run ends at `end`, not where each CPU's last compute or idle period would have taken it.
        if (!e.finished()) e.end_at(end);
    }
    if (e.finished() && stop != obs.stop_reason) stop = "finished";
    if (obs.stopped) obs.stopped(e);
    sim::run_summary s = sim::summarize_run(e);
    const auto wall_end = std::chrono::steady_clock::now();

    s.preset = req.preset;
    s.workload_params = req.params;
    s.requested_era = req.cfg.requested.str();
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) s.patch_origins.push_back(sim::switch_origin_name(req.cfg.origin[i]));
    s.stop_reason = stop;
    s.wall_ns = std::chrono::duration<double, std::nano>(wall_end - wall_start).count();
    return s;
}

} // namespace pcplab::cli
