// pcplab-cli demo: seed 000 on the classroom preset. Boots it twice (pcp-update-after-deferred-init off,
// then on), showing the limits setup_per_cpu_pageset computes from a partly initialised zone, the deferred
// init threads at work, and which limits each boot ends with.
#include "args.hpp"
#include "commands.hpp"
#include "machine_args.hpp"

#include "procfs/zoneinfo_print.hpp"
#include "sim/pageset_summary.hpp"
#include "sim/preset.hpp"

#include <algorithm>
#include <cstdio>
#include <unistd.h>
#include <variant>

namespace pcplab::cli
{

namespace
{

constexpr mm::patch k_fix = mm::patch::pcp_update_after_deferred_init;

struct zone_limits {
    int node = 0;
    const char* name = "";
    unsigned long present = 0, managed = 0;
    int batch = 0, high = 0, pagesets = 0;
};

std::vector<zone_limits> populated_zone_limits(const mm::machine& m)
{
    std::vector<zone_limits> out;
    for (const auto& n : m.nodes)
        for (const auto& z : n->node_zones) {
            if (!z->populated()) continue;
            const mm::per_cpu_pages& pcp = z->per_cpu_pageset[0];
            out.push_back({z->node, mm::zone_name(z->idx), z->present_pages, z->managed(), pcp.batch, pcp.high,
                z->per_cpu_pageset.nr_cpus()});
        }
    return out;
}

std::string gib(unsigned long pages)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(pages) * mm::PAGE_SIZE / double(1UL << 30));
    return buf;
}

std::string bar(unsigned long done, unsigned long total, int width)
{
    int filled = total ? static_cast<int>(static_cast<double>(done) / static_cast<double>(total) * width) : width;
    return "[" + std::string(static_cast<std::size_t>(filled), '#')
        + std::string(static_cast<std::size_t>(width - filled), '.') + "]";
}

void print_zone_table(const std::vector<zone_limits>& setup, const std::vector<zone_limits>& booted)
{
    std::printf("    %-14s %10s   %-26s   %s\n", "", "present", "at setup_per_cpu_pageset", "after deferred init");
    std::printf("    %-14s %10s   %10s %6s %6s   %10s %6s %6s\n", "zone", "pages", "managed", "batch", "high",
        "managed", "batch", "high");
    for (std::size_t i = 0; i < setup.size() && i < booted.size(); ++i) {
        const auto& s = setup[i];
        const auto& b = booted[i];
        char zone[32];
        std::snprintf(zone, sizeof zone, "Node %d %s", s.node, s.name);
        bool stale = s.managed != b.managed && s.batch == b.batch && s.high == b.high;
        std::printf("    %-14s %10lu   %10lu %6d %6d   %10lu %6d %6d%s\n", zone, s.present, s.managed, s.batch, s.high,
            b.managed, b.batch, b.high, stale ? "   <- still the setup values" : "");
    }
}

struct boot_result {
    std::vector<zone_limits> setup, booted;
    sim::pageset_summary summary;
    std::string buddyinfo;
};

boot_result run_boot(const sim::machine_config& cfg, bool tty)
{
    boot_result r;
    auto m = sim::build_machine(cfg);
    sim::boot_to(*m, sim::boot_target::setup);
    r.setup = populated_zone_limits(*m);

    sim::boot_observer obs;
    obs.interval = std::chrono::milliseconds(40);
    obs.on_progress = [tty](const mm::machine& mc, const mm::deferred_init& di) {
        if (!tty) return;
        // Keep the line within 80 columns however many nodes there are: it is redrawn with \r.
        int nodes = std::max(1, mc.nr_online_nodes());
        bool compact = nodes > 3;
        int width = std::max(2, 62 / nodes - (compact ? 5 : 11));
        std::string line = "\r    deferred init";
        for (int nid = 0; nid < mc.nr_online_nodes(); ++nid)
            line += (compact ? " " + std::to_string(nid) + ":" : "  node " + std::to_string(nid) + " ")
                + bar(di.progress(nid), di.total(nid), width);
        std::fputs(line.c_str(), stdout);
        std::fflush(stdout);
    };
    auto report = sim::boot_to(*m, sim::boot_target::after_init, &obs);
    if (tty) std::puts("");
    if (report)
        for (const auto& n : report->nodes)
            std::printf("    pgdatinit node %d: %s initialised and freed by %d thread%s in %.1f ms (host)\n", n.node,
                gib(n.pages).c_str(), n.threads, n.threads == 1 ? "" : "s", n.host_ns / 1e6);
    r.booted = populated_zone_limits(*m);
    r.summary = sim::summarize_pagesets(*m);
    r.buddyinfo = procfs::buddyinfo_text(*m);
    return r;
}

std::string indent(const std::string& text, const char* prefix)
{
    std::string out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();
        std::string line = text.substr(start, end - start);
        out += line.empty() ? "\n" : prefix + line + "\n";
        start = end + 1;
    }
    return out;
}

} // namespace

int cmd_demo(const std::vector<std::string>& args)
{
    parsed_args a = parse_args("demo", args, {{"--preset", true, false}}, 0);
    std::string preset = a.get("--preset").value_or("classroom");
    auto loaded = sim::load_preset(preset);
    if (auto* err = std::get_if<pcplab::error>(&loaded)) throw cli_error("--preset " + preset + ": " + err->str());
    const mm::machine_spec& spec = std::get<mm::machine_spec>(loaded);

    // Seed 000 only exists as a switch where deferred init is followed by nothing else that recomputes
    // the limits (v5.4 .. v5.13); run the preset there if its own era is later.
    sim::machine_options opts;
    std::vector<std::string> notes;
    if (auto era = mm::choose_era(spec.era); !era || !mm::patch_not_applicable(k_fix, true, era->era).empty()) {
        opts.era = "v5.4";
        notes.push_back("seed 000 needs era v5.4; the preset's era " + spec.era + " is replaced for this demo");
    }
    sim::machine_config cfg[2];
    for (int on = 0; on < 2; ++on) {
        opts.switches = {{k_fix, on == 1}};
        auto c = sim::make_machine_config(spec, opts);
        if (auto* err = std::get_if<pcplab::error>(&c)) throw cli_error(err->str());
        cfg[on] = std::get<sim::machine_config>(c);
    }
    for (const auto& c : cfg) notes.insert(notes.end(), c.notes.begin(), c.notes.end());
    print_notes(notes);

    bool tty = isatty(fileno(stdout));
    std::printf("pcplab demo - seed 000: \"Recalculate per-cpu page allocator batch and high limits after\n"
                "deferred meminit\" (Mel Gorman, October 2019)\n\n");
    std::printf(
        "Machine: %s - %s\n", spec.name.c_str(), spec.description.substr(0, spec.description.find('\n')).c_str());
    std::printf("         %d CPUs, %zu nodes, era %s\n\n", spec.nr_cpus(), spec.nodes.size(), cfg[0].era.str().c_str());
    std::printf("setup_per_cpu_pageset() runs while deferred init has only initialised the first 128 MiB\n"
                "section of each node's highest zone, so it sizes batch/high from a zone that looks tiny.\n\n");

    boot_result r[2];
    for (int on = 0; on < 2; ++on) {
        std::printf("Boot %d of 2: %s=%s\n", on + 1, std::string(mm::patch_name(k_fix)).c_str(), on ? "on" : "off");
        r[on] = run_boot(cfg[on], tty);
        std::puts("");
        print_zone_table(r[on].setup, r[on].booted);
        std::puts("");
    }

    std::printf("Pageset breakdown (every CPU x populated zone), as in Mel Gorman's mail:\n\n");
    std::printf("  before the fix (%s=off):\n\n%s\n", std::string(mm::patch_name(k_fix)).c_str(),
        indent(sim::pageset_summary_text(r[0].summary), "  ").c_str());
    std::printf("  after the fix (%s=on):\n\n%s\n", std::string(mm::patch_name(k_fix)).c_str(),
        indent(sim::pageset_summary_text(r[1].summary), "  ").c_str());

    int changed = 0;
    for (std::size_t i = 0; i < r[0].booted.size() && i < r[1].booted.size(); ++i)
        if (r[0].booted[i].batch != r[1].booted[i].batch || r[0].booted[i].high != r[1].booted[i].high)
            changed += r[0].booted[i].pagesets;
    std::printf("%d of %d pagesets keep undersized limits without the fix: every one of them goes to\n"
                "zone->lock more often, which is the contention Mel Gorman's profile showed.\n\n",
        changed, r[0].summary.pagesets);

    std::printf("/proc/buddyinfo after boot 2:\n%s", r[1].buddyinfo.c_str());
    std::printf("\nMore: pcplab-cli pagesets --preset epyc2-256 --era 5.4.0-rc3   (the seed's own machine)\n"
                "      pcplab-cli help\n");
    std::fflush(stdout);
    return 0;
}

} // namespace pcplab::cli
