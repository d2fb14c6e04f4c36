// pcplab-cli seeds: each seed's scenario run twice on the engine, its switch off and on, scaled down to
// seconds, and the simulated figures set beside the published ones (shared/reference/seed-results.md).
#include "args.hpp"
#include "commands.hpp"
#include "machine_args.hpp"
#include "run_seed_report.hpp"

#include "sim/seed_reference.hpp"
#include "sim/seed_scenarios.hpp"

#include <algorithm>
#include <stdexcept>

namespace pcplab::cli
{

namespace
{

std::vector<const sim::seed_reference*> selected_seeds(const parsed_args& a)
{
    std::vector<const sim::seed_reference*> out;
    auto only = a.get("--only");
    if (!only) {
        for (const auto& r : sim::seed_references()) out.push_back(&r);
        return out;
    }
    std::string ids;
    for (const auto& r : sim::seed_references()) ids += (ids.empty() ? "" : ", ") + r.id;
    std::size_t start = 0;
    const std::string& text = *only;
    while (true) {
        auto comma = text.find(',', start);
        std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (item.empty()) throw cli_error("--only: empty item in '" + text + "' (seeds: " + ids + ")");
        const sim::seed_reference* r = sim::find_seed_reference(item);
        if (!r) throw cli_error("--only: unknown seed '" + item + "' (seeds: " + ids + ")");
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    std::sort(out.begin(), out.end(), [](auto* x, auto* y) { return x->id < y->id; });
    return out;
}

} // namespace

std::string seeds_help()
{
    return "Usage: pcplab-cli seeds [--only 000,001,...] [--quick] [--json]\n"
           "\n"
           "Runs each seed's scenario on the engine with its switch off and then on - 000 kernbench on\n"
           "epyc2-256 (5.4.0-rc3), 001 page-fault1 on skylake-4s (4.15-rc4), 002 kernbench on intel-2s-224 (v6.7),\n"
           "003 stress-vm on meta-1t-316 (v6.18), 004 the boot of xeon-88-503g (4.15-rc2), and beyond the seeds\n"
           "005 net-stream on epyc2-256 (v6.12; Nikhil Dhama's free_high threshold), 006 net-stream on\n"
           "skylake-2s with 100 forced drains a second (v6.6; the v6.0 remote drain under pcp->lock), 007\n"
           "frag-churn on skylake-4s (v6.18; the fallback mode rmqueue_bulk keeps, v6.15), 008 bpf-any-context\n"
           "on skylake-2s from power-on (v6.18; allocation from any context, v6.15), 009 jemalloc-purge on\n"
           "skylake-2s (v6.18; Johannes Weiner's pcp buddy allocator, an RFC not merged) - scaled down to\n"
           "seconds (less memory per node, a bounded virtual time), and prints the simulated figures beside\n"
           "the published ones with the ratio of the changes. Where the model disagrees (direction, or a\n"
           "change more than 3x off), it says so.\n"
           "\n"
           "  --only LIST    only these seeds (000,004 or 0,4)\n"
           "  --quick        the smallest scale (used by the tests): fast, less faithful\n"
           "  --json         one JSON object with the figures and both runs of every seed\n";
}

int cmd_seeds(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("seeds", args,
        {
            {"--json", false, false},
            {"--only", true, false},
            {"--quick", false, false},
        },
        0);
    const bool quick = a.has("--quick");
    std::vector<std::string> notes;
    std::vector<seed_outcome> outcomes;
    for (const sim::seed_reference* ref : selected_seeds(a)) {
        seed_outcome o;
        o.ref = ref;
        sim::seed_scenario sc;
        try {
            sc = sim::make_seed_scenario(*ref, quick ? sim::seed_scale::quick : sim::seed_scale::full);
        } catch (const std::runtime_error& e) {
            throw cli_error(e.what());
        }
        o.plan = sc.plan;
        o.preset_gib_per_node = sc.preset_gib_per_node;
        o.modelled_era = sc.on.era.str();
        if (!sc.off.era_note.empty()) notes.push_back("seed " + ref->id + ": " + sc.off.era_note);
        o.off = sim::run_seed_side(sc, false);
        o.on = sim::run_seed_side(sc, true);
        for (const auto& f : ref->figures) o.figures.push_back(sim::compare_figure(f, o.off, o.on));
        outcomes.push_back(std::move(o));
    }
    std::string out = a.has("--json") ? seeds_json(outcomes, quick) : seeds_text(outcomes, quick);
    print_notes(notes);
    write_stdout(out);
    return 0;
}

} // namespace pcplab::cli
