// pcplab-cli patches (also `seeds`, its first name): each patch scenario - the five seeds and the later patches
// - run twice on the engine, its switch off and on, scaled down to seconds, and the simulated figures set beside
// the published ones (shared/reference/seed-results.md).
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
        if (item.empty()) throw cli_error("--only: empty item in '" + text + "' (scenarios: " + ids + ")");
        const sim::seed_reference* r = sim::find_seed_reference(item);
        if (!r) throw cli_error("--only: unknown scenario '" + item + "' (scenarios: " + ids + ")");
        if (std::find(out.begin(), out.end(), r) == out.end()) out.push_back(r);
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    std::sort(out.begin(), out.end(), [](auto* x, auto* y) { return x->id < y->id; });
    return out;
}

// One line per scenario, from the table the runs use: a patch added there is listed here without an edit.
std::string scenario_lines()
{
    std::string out;
    for (const auto& r : sim::seed_references())
        out += "  " + r.id + "  " + sim::control_name(r) + " (" + r.author + "): " + r.workload + " on " + r.preset
            + " (" + r.era + ")\n";
    return out;
}

} // namespace

std::string patches_help()
{
    return "Usage: pcplab-cli patches [--only 000,001,...] [--quick] [--json]\n"
           "       pcplab-cli seeds ...   (the same command, by its first name)\n"
           "\n"
           "Runs each patch's scenario on the engine with its switch off and then on, scaled down to seconds\n"
           "(less memory per node, a bounded virtual time), and prints the simulated figures beside the\n"
           "published ones with the ratio of the changes. Where the model disagrees (direction, or a change\n"
           "more than 3x off), it says so. 000-004 are the five seed patches; the later ones follow.\n"
           "\n"
           "Scenarios (id, switch, author, workload on preset, kernel measured):\n"
        + scenario_lines()
        + "\n"
          "  --only LIST    only these scenarios (000,004 or 0,4)\n"
          "  --quick        the smallest scale (used by the tests): fast, less faithful\n"
          "  --json         one JSON object with the figures and both runs of every scenario\n";
}

int cmd_patches(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("patches", args,
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
        if (!sc.off.era_note.empty()) notes.push_back("scenario " + ref->id + ": " + sc.off.era_note);
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
