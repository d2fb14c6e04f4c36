#include "preset.hpp"

#include "cost_model.hpp"
#include "io/text_file.hpp"
#include "mm/kernel_version.hpp"
#include "mm/page.hpp"
#include "mm/patch_switches.hpp"
#include "preset_json.hpp"
#include "preset_layout.hpp"
#include "preset_zones.hpp"
#include "program/data_dirs.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

namespace pcplab::sim
{

namespace
{

using json = nlohmann::json;
using detail::field_error;
using detail::object_reader;

constexpr int MAX_CPUS = 8192; // NR_CPUS of distribution kernels
constexpr double MAX_TOTAL_GIB = 16384.0; // pfn_t is 32-bit: 2^32 frames = 16 TiB
constexpr double MIN_NODE_GIB = 0.125; // one 128 MiB memory section
constexpr unsigned long PAGES_PER_GIB = (1UL << 30) >> mm::PAGE_SHIFT;

std::string index_path(const std::string& base, std::size_t i)
{
    return base + "[" + std::to_string(i) + "]";
}

// "description": one string, or an array of lines (easier to read in the file); the first line is the
// one-line summary front ends list.
std::string read_description(const json& v, const std::string& path)
{
    std::string text;
    if (v.is_string()) {
        text = v.get<std::string>();
    } else if (v.is_array()) {
        for (std::size_t i = 0; i < v.size(); ++i)
            text += (i ? "\n" : "") + detail::get_string(v[i], index_path(path, i));
    } else {
        throw field_error{path, std::string("must be a string or an array of strings, not ") + v.type_name()};
    }
    if (text.find_first_not_of(" \t\n") == std::string::npos)
        throw field_error{path, "must not be empty: say where the machine's numbers come from"};
    return text;
}

struct node_input {
    int socket = 0;
    int cpus = 0;
    node_memory_request mem;
    std::vector<zone_request> zones; // given outright instead of memory_gib
};

node_input read_node(
    const json& v, const std::string& path, std::size_t idx, std::size_t nr_nodes, int sockets, int tpc)
{
    object_reader r(v, path, {"socket", "cpus", "memory_gib", "reserved_mb", "zones"});
    node_input n;
    // Default: nodes spread evenly over the sockets in order (one per socket, or NPS/SNC sub-nodes).
    n.socket = static_cast<int>(idx * static_cast<std::size_t>(sockets) / nr_nodes);
    if (const json* s = r.get("socket"))
        n.socket = static_cast<int>(detail::get_int(*s, r.path("socket"), 0, sockets - 1));
    n.cpus = static_cast<int>(detail::get_int(r.require("cpus"), r.path("cpus"), 0, MAX_CPUS));
    if (n.cpus % tpc != 0)
        throw field_error{r.path("cpus"),
            "must be a multiple of threads_per_core (" + std::to_string(tpc) + "), not " + std::to_string(n.cpus)};
    if (const json* z = r.get("zones")) {
        // A machine read from a /proc/zoneinfo: its zones' sizes replace the x86 memory map.
        for (const char* other : {"memory_gib", "reserved_mb"})
            if (r.get(other))
                throw field_error{
                    r.path(other), "cannot be given with \"zones\" (the zones say how much memory there is)"};
        n.zones = detail::read_zones(*z, r.path("zones"));
        return n;
    }
    double gib = detail::get_number(r.require("memory_gib"), r.path("memory_gib"), MIN_NODE_GIB, MAX_TOTAL_GIB);
    n.mem.pages = static_cast<unsigned long>(std::floor(gib * PAGES_PER_GIB));
    if (const json* res = r.get("reserved_mb")) {
        // At most half the node: the rest must stay managed, or the node is not worth simulating.
        double max_mb = gib * 1024.0 / 2;
        double mb = detail::get_number(*res, r.path("reserved_mb"), 0, max_mb);
        n.mem.reserved_pages = static_cast<unsigned long>(std::ceil(mb * 256.0));
    }
    return n;
}

void read_sysctl(const json& v, const std::string& path, const mm::kernel_version& ver, unsigned long total_pages,
    unsigned page_shift, mm::sysctl_values& out)
{
    object_reader r(v, path,
        {"min_free_kbytes", "watermark_scale_factor", "percpu_pagelist_fraction", "percpu_pagelist_high_fraction"});
    if (const json* m = r.get("min_free_kbytes")) {
        // The sysctl accepts any int >= 0; a min watermark above a quarter of memory leaves nothing to simulate.
        const long max_kb = static_cast<long>(total_pages * ((1UL << page_shift) / 1024) / 4);
        long kb = detail::get_int(*m, r.path("min_free_kbytes"), 0, std::numeric_limits<int>::max());
        if (kb > max_kb)
            throw field_error{r.path("min_free_kbytes"),
                std::to_string(kb) + " is more than a quarter of the machine's memory (" + std::to_string(max_kb)
                    + " KiB)"};
        out.min_free_kbytes = kb;
    }
    if (const json* w = r.get("watermark_scale_factor")) {
        // proc_dointvec_minmax bounds: 1..1000 (v4.6 .. v5.x), 1..3000 (v6.x)
        long hi = ver.at_least(6, 0) ? 3000 : 1000;
        out.watermark_scale_factor = static_cast<int>(detail::get_int(*w, r.path("watermark_scale_factor"), 1, hi));
    }
    // Both fraction sysctls: 0 (default) or at least MIN_PERCPU_PAGELIST_(HIGH_)FRACTION = 8, else -EINVAL.
    auto fraction = [&](const char* key, bool exists, const char* why_not) {
        const json* f = r.get(key);
        if (!f) return 0;
        long val = detail::get_int(*f, r.path(key), 0, 1L << 30);
        if (val != 0 && val < 8)
            throw field_error{
                r.path(key), "must be 0 or at least 8 (the kernel refuses smaller), not " + std::to_string(val)};
        if (val != 0 && !exists) throw field_error{r.path(key), std::string(why_not) + " (era " + ver.str() + ")"};
        return static_cast<int>(val);
    };
    out.percpu_pagelist_fraction = fraction(
        "percpu_pagelist_fraction", ver.before(5, 14), "was removed in v5.14; use percpu_pagelist_high_fraction");
    out.percpu_pagelist_high_fraction
        = fraction("percpu_pagelist_high_fraction", ver.at_least(5, 14), "exists from v5.14 on");
}

mm::machine_spec build_spec(const json& root, const std::string& path)
{
    if (!root.is_object())
        throw field_error{"", std::string("a preset must be a JSON object, not ") + root.type_name()};
    object_reader top(root, "",
        {"description", "era", "patches", "init_threads", "sockets", "threads_per_core", "nodes", "sysctl",
            "movable_pages_per_node", "cost_model", "page_size_kib", "section_mib"});
    mm::machine_spec spec;
    spec.source_file = path;
    spec.name = std::filesystem::path(path).stem().string();
    if (spec.name.empty()) spec.name = "preset";
    spec.description = read_description(top.require("description"), "description");

    spec.era = detail::get_string(top.require("era"), "era");
    auto choice = mm::choose_era(spec.era);
    if (!choice)
        throw field_error{"era", "'" + spec.era + "' is not a kernel version (examples: \"v5.4\", \"5.4.0-rc3\")"};

    spec.sockets = static_cast<int>(detail::get_int(top.require("sockets"), "sockets", 1, mm::MAX_NUMNODES));
    spec.threads_per_core = 1;
    if (const json* t = top.get("threads_per_core"))
        spec.threads_per_core = static_cast<int>(detail::get_int(*t, "threads_per_core", 1, 8));

    // Nodes: sockets, CPU counts and memory sizes first; CPU numbers and pfn ranges are derived below.
    const json& nodes = top.require("nodes");
    if (!nodes.is_array())
        throw field_error{"nodes", std::string("must be an array of node objects, not ") + nodes.type_name()};
    if (nodes.empty() || nodes.size() > mm::MAX_NUMNODES)
        throw field_error{"nodes",
            "must list between 1 and " + std::to_string(mm::MAX_NUMNODES) + " nodes (MAX_NUMNODES), not "
                + std::to_string(nodes.size())};
    std::vector<node_input> in;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        in.push_back(read_node(nodes[i], index_path("nodes", i), i, nodes.size(), spec.sockets, spec.threads_per_core));

    // Zones given outright: every node, and then the page and section sizes may differ from x86-64's.
    const bool by_zones = !in.front().zones.empty();
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i].zones.empty() == by_zones)
            throw field_error{index_path("nodes", i),
                by_zones ? "has no \"zones\" while nodes[0] has: give every node its zones"
                         : "has \"zones\" while nodes[0] has memory_gib: give every node the same kind"};
    if (const json* p = top.get("page_size_kib")) {
        spec.page_shift = detail::read_page_shift(*p, "page_size_kib");
        if (!by_zones && spec.page_shift != mm::PAGE_SHIFT)
            throw field_error{
                "page_size_kib", "needs nodes given by \"zones\" (the x86 memory map is in 4 KiB frames)"};
    }
    if (const json* sec = top.get("section_mib"))
        spec.pages_per_section = detail::read_section_pages(*sec, "section_mib", spec.page_shift);

    std::vector<int> socket_of, cpus_of;
    std::vector<node_memory_request> mem;
    std::vector<std::vector<zone_request>> zones;
    long total_cpus = 0;
    double total_gib = 0;
    for (const auto& n : in) {
        socket_of.push_back(n.socket);
        cpus_of.push_back(n.cpus);
        mem.push_back(n.mem);
        zones.push_back(n.zones);
        total_cpus += n.cpus;
        unsigned long pages = n.mem.pages;
        for (const auto& z : n.zones) pages += z.present;
        total_gib += static_cast<double>(pages) * static_cast<double>(1UL << spec.page_shift) / double(1UL << 30);
    }
    if (total_cpus == 0) throw field_error{"nodes", "no node has CPUs: at least one node needs \"cpus\" > 0"};
    if (total_cpus > MAX_CPUS)
        throw field_error{"nodes", std::to_string(total_cpus) + " CPUs in all; at most " + std::to_string(MAX_CPUS)};
    for (int s = 0; s < spec.sockets; ++s)
        if (std::find(socket_of.begin(), socket_of.end(), s) == socket_of.end())
            throw field_error{"sockets",
                "socket " + std::to_string(s) + " of " + std::to_string(spec.sockets)
                    + " has no node (give each node its \"socket\")"};
    if (total_gib > MAX_TOTAL_GIB)
        throw field_error{"nodes",
            "total memory " + std::to_string(static_cast<long>(total_gib))
                + " GiB is more than 16 TiB (the model's 32-bit pfn limit)"};

    spec.nodes.resize(in.size());
    auto cpus = enumerate_cpus(socket_of, cpus_of, spec.threads_per_core);
    for (std::size_t i = 0; i < in.size(); ++i) {
        spec.nodes[i].socket = in[i].socket;
        spec.nodes[i].cpus = std::move(cpus[i]);
    }
    if (by_zones) {
        if (layout_zones(spec.nodes, zones, spec.pages_per_section) >= mm::NO_PFN)
            throw field_error{"nodes", "the zones end above frame 2^32, the model's 32-bit pfn limit"};
    } else if (layout_x86_memory(spec.nodes, mem, choice->requested) >= mm::NO_PFN) {
        throw field_error{index_path("nodes", in.size() - 1) + ".memory_gib",
            "the memory map (with the 1 GiB PCI hole below 4 GiB) ends above 16 TiB, the model's "
            "32-bit pfn limit"};
    }
    unsigned long total_pages = 0, smallest_node = ~0UL;
    for (const auto& n : spec.nodes) {
        unsigned long p = 0;
        for (const auto& r : n.memory) p += r.pages();
        total_pages += p;
        smallest_node = std::min(smallest_node, p);
    }

    if (const json* p = top.get("patches")) {
        object_reader pr(*p, "patches", {});
        for (auto it = p->begin(); it != p->end(); ++it) {
            const std::string field = pr.path(it.key());
            auto which = mm::patch_from_name(it.key());
            if (!which) throw field_error{field, "unknown patch switch (known: " + mm::patch_names_list() + ")"};
            bool on = detail::get_bool(it.value(), field);
            if (auto why = mm::patch_not_applicable(*which, on, choice->era); !why.empty())
                throw field_error{field, why};
            spec.patches[it.key()] = on;
        }
    }
    if (const json* t = top.get("init_threads"))
        spec.init_threads = static_cast<int>(detail::get_int(*t, "init_threads", 0, MAX_CPUS));
    if (const json* s = top.get("sysctl"))
        read_sysctl(*s, "sysctl", choice->requested, total_pages, spec.page_shift, spec.sysctl);
    if (const json* m = top.get("movable_pages_per_node")) {
        if (by_zones) throw field_error{"movable_pages_per_node", "cannot be given with zones (list a Movable zone)"};
        spec.movable_pages_per_node = static_cast<unsigned long>(
            detail::get_int(*m, "movable_pages_per_node", 0, static_cast<long>(smallest_node) - 1));
    }
    if (const json* c = top.get("cost_model")) {
        object_reader cr(*c, "cost_model", {});
        for (auto it = c->begin(); it != c->end(); ++it) {
            if (!is_cost_model_key(it.key()))
                throw field_error{cr.path(it.key()),
                    "unknown cost-model key: no machine class defines it and no rate reads it (the keys: "
                    "pcplab-cli costs --class CLASS)"};
            spec.cost_model[it.key()] = detail::get_number(it.value(), cr.path(it.key()), 0, 1e12);
        }
    }
    return spec;
}

} // namespace

preset_result parse_preset(const std::string& json_text, const std::string& path)
{
    detail::duplicate_key_finder dups;
    json root;
    try {
        root = json::parse(json_text, dups.callback());
    } catch (const json::parse_error& e) {
        return pcplab::error::in(path, detail::parse_error_message(e.what()))
            .at(detail::line_of_byte(json_text, e.byte));
    } catch (const json::exception& e) {
        // A number beyond a double (1e400) is out_of_range.406, "number overflow parsing '1e400'", with no
        // position: point at the first occurrence of the number.
        std::string what = e.what();
        what = what.substr(what.find("] ") == std::string::npos ? 0 : what.find("] ") + 2);
        auto q = what.find('\'');
        auto number = q == std::string::npos ? std::string() : what.substr(q + 1, what.rfind('\'') - q - 1);
        auto at = number.empty() ? std::string::npos : json_text.find(number);
        return pcplab::error::in(path, what).at(at == std::string::npos ? 0 : detail::line_of_byte(json_text, at + 1));
    }
    if (dups.found())
        return pcplab::error::in(path, "appears twice in the same object (a typo or a leftover?)")
            .in_field(dups.path());
    try {
        return build_spec(root, path);
    } catch (const field_error& e) {
        return pcplab::error::in(path, e.message).in_field(e.field);
    }
}

preset_result load_preset_file(const std::string& path)
{
    // The largest shipped preset is a few KiB; a megabyte is already a mistake.
    auto text = io::read_text_file(path, 1u << 20);
    if (auto* err = std::get_if<pcplab::error>(&text))
        return pcplab::error::in(path, "cannot read the preset: " + err->message);
    return parse_preset(std::get<std::string>(text), path);
}

std::string presets_dir()
{
    return program::find_data_dirs().presets.string();
}

std::vector<std::string> list_presets()
{
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(presets_dir(), ec))
        if (entry.is_regular_file(ec) && entry.path().extension() == ".json")
            names.push_back(entry.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

preset_result load_preset(const std::string& name_or_path)
{
    const bool is_path
        = name_or_path.find('/') != std::string::npos || (name_or_path.size() > 5 && name_or_path.ends_with(".json"));
    if (is_path) return load_preset_file(name_or_path);
    std::filesystem::path file = std::filesystem::path(presets_dir()) / (name_or_path + ".json");
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec)) {
        std::string known;
        for (const auto& n : list_presets()) known += (known.empty() ? "" : ", ") + n;
        return pcplab::error::in(file.string(),
            "no preset named '" + name_or_path + "' in " + presets_dir()
                + (known.empty() ? " (the directory has none)" : " (available: " + known + ")"));
    }
    return load_preset_file(file.string());
}

} // namespace pcplab::sim
