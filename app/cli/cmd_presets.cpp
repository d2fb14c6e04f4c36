// pcplab-cli presets: one line per preset.
#include "args.hpp"
#include "commands.hpp"

#include "sim/preset.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <variant>

namespace pcplab::cli
{

namespace
{

// "256 GiB", "15.9 GiB", "1 TiB": to a tenth (two hundredths for TiB), trailing zeros dropped. Presets list
// usable ranges (holes and firmware areas left out), so a "128 GiB" machine may hold 127.98 GiB of them.
std::string memory_text(unsigned long pages)
{
    double gib = static_cast<double>(pages) * static_cast<double>(mm::PAGE_SIZE) / double(1UL << 30);
    const char* unit = "GiB";
    double value = std::round(gib * 10) / 10;
    int decimals = 1;
    if (value >= 1024.0) {
        unit = "TiB";
        value = std::round(gib / 1024.0 * 100) / 100;
        decimals = 2;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    std::string s = buf;
    while (s.find('.') != std::string::npos && (s.back() == '0' || s.back() == '.')) s.pop_back();
    return s + " " + unit;
}

unsigned long spec_pages(const mm::machine_spec& s)
{
    unsigned long pages = 0;
    for (const auto& n : s.nodes)
        for (const auto& r : n.memory) pages += r.pages();
    return pages;
}

std::string first_line(const std::string& s)
{
    return s.substr(0, s.find('\n'));
}

} // namespace

int cmd_presets(const std::vector<std::string>& args)
{
    parse_args("presets", args, {}, 0);
    struct row {
        std::string name, cpus, nodes, memory, era, description;
    };
    std::vector<row> rows;
    for (const auto& name : sim::list_presets()) {
        auto loaded = sim::load_preset(name);
        if (auto* err = std::get_if<pcplab::error>(&loaded)) throw cli_error("preset " + name + ": " + err->str());
        const auto& s = std::get<mm::machine_spec>(loaded);
        rows.push_back({name, std::to_string(s.nr_cpus()), std::to_string(s.nodes.size()), memory_text(spec_pages(s)),
            s.era, first_line(s.description)});
    }
    if (rows.empty()) throw cli_error("no presets found in " + sim::presets_dir());

    std::size_t wn = 4, wm = 6, we = 3;
    for (const auto& r : rows) {
        wn = std::max(wn, r.name.size());
        wm = std::max(wm, r.memory.size());
        we = std::max(we, r.era.size());
    }
    std::string out;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%-*s  %5s  %5s  %*s  %-*s  %s\n", int(wn), "NAME", "CPUS", "NODES", int(wm),
        "MEMORY", int(we), "ERA", "DESCRIPTION");
    out += buf;
    for (const auto& r : rows) {
        std::snprintf(buf, sizeof buf, "%-*s  %5s  %5s  %*s  %-*s  ", int(wn), r.name.c_str(), r.cpus.c_str(),
            r.nodes.c_str(), int(wm), r.memory.c_str(), int(we), r.era.c_str());
        out += buf + r.description + "\n";
    }
    write_stdout(out);
    return 0;
}

} // namespace pcplab::cli
