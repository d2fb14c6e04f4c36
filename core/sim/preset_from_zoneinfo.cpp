// preset_from_zoneinfo: the capture's nodes, zones and CPUs become a preset given by zones (no x86 memory
// map), the family check-zoneinfo found picks the era, and the watermarks worked backwards give the sysctls.
// Whether deferred init's early sizing (seed 000) is to be seen decides the switch that recomputes after it.
#include "preset_from_zoneinfo.hpp"

#include "mm/kernel_version.hpp"
#include "mm/patch_switches.hpp"
#include "procfs/zoneinfo_watermarks.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <sstream>

namespace pcplab::sim
{

namespace
{

using json = nlohmann::ordered_json;
using mm::kernel_version;

// The model's zone slot of a zoneinfo zone name (HighMem in the Movable slot), or -1 (Device, unknown).
int zone_slot(const std::string& name)
{
    if (name == "DMA") return mm::ZONE_DMA;
    if (name == "DMA32") return mm::ZONE_DMA32;
    if (name == "Normal") return mm::ZONE_NORMAL;
    if (name == "HighMem" || name == "Movable") return mm::ZONE_MOVABLE;
    return -1;
}

// The kernel era whose formulas a preset era string gives (as build_machine makes it).
mm::kernel_era era_of(const std::string& text)
{
    auto c = mm::choose_era(text);
    return mm::kernel_era{c->era, mm::formulas_of(c->requested, c->era)};
}

struct era_pick {
    std::string text; // what the preset's "era" says
    std::string why;
};

// The versions the capture can come from (window and family together); of those, the newest modelled era
// when one is inside; else a modelled era with the family's formulas; else (a family older than every
// modelled era) the newest version of it, or v4.5 where that reproduces more watermarks (the v4.6 change of
// the watermark gaps falls inside the v3.8 .. v4.18 family).
era_pick pick_era(const procfs::zoneinfo_doc& doc, const procfs::check_report& rep)
{
    const procfs::formula_family& fam = *rep.family;
    kernel_version lo = fam.from, hi = fam.to;
    if (!rep.window.conflict) {
        if (rep.window.from.compare(lo) > 0) lo = rep.window.from;
        if (rep.window.to.compare(hi) < 0) hi = rep.window.to;
        if (lo.compare(hi) > 0) lo = fam.from, hi = fam.to;
    }
    if (hi.major >= 9) hi = {6, 19, 0, 0};
    era_pick pick;
    const auto& eras = mm::modelled_eras();
    for (auto it = eras.rbegin(); it != eras.rend() && pick.text.empty(); ++it)
        if (it->compare(lo) >= 0 && it->compare(hi) <= 0) pick.text = it->str();
    if (pick.text.empty() && fam.from.compare(eras.front()) >= 0) pick.text = fam.preset_era.str();
    if (pick.text.empty()) {
        mm::kernel_version used;
        (void)procfs::fit_watermarks_for(doc, rep, &used);
        pick.text = (used.before(4, 6) && hi.at_least(4, 6) ? used : hi).str();
    }
    auto choice = mm::choose_era(pick.text);
    pick.why = "the capture is " + (lo == hi ? lo.str() : lo.str() + " .. " + hi.str()) + " (layout and formulas)";
    if (!(choice->era == choice->requested))
        pick.why += "; " + choice->requested.str() + " runs as " + choice->era.str() + " with its own pageset and "
            + "watermark formulas";
    else
        pick.why += "; " + pick.text + " has the same formulas";
    return pick;
}

} // namespace

zoneinfo_preset preset_from_zoneinfo(const procfs::zoneinfo_doc& doc, const procfs::check_report& rep,
    const std::vector<int>& cpus_per_node, const std::string& source)
{
    zoneinfo_preset out;
    const unsigned shift = rep.page_shift;
    era_pick era = pick_era(doc, rep);
    const mm::kernel_era kera = era_of(era.text);
    const procfs::watermark_fit wm = procfs::fit_watermarks(doc, kera, shift);

    // Nodes in id order, with their populated zones.
    std::vector<int> ids;
    for (const auto& z : doc.zones)
        if (std::find(ids.begin(), ids.end(), z.node) == ids.end()) ids.push_back(z.node);
    std::sort(ids.begin(), ids.end());
    json nodes = json::array();
    unsigned long total_pages = 0;
    int total_cpus = 0;
    for (int id : ids) {
        json zones = json::array();
        for (const auto& z : doc.zones) {
            if (z.node != id || !z.populated()) continue;
            if (zone_slot(z.name) < 0) {
                out.notes.push_back(
                    "Node " + std::to_string(id) + ", zone " + z.name + ": no such zone in the model, left out");
                continue;
            }
            json j;
            j["zone"] = z.name;
            j["present_pages"] = z.present;
            j["managed_pages"] = z.has_managed ? z.managed : z.present;
            zones.push_back(j);
            total_pages += static_cast<unsigned long>(z.present);
        }
        if (zones.empty()) {
            out.notes.push_back("node " + std::to_string(id) + " has no populated zone in the capture: left out");
            continue;
        }
        const int cpus
            = static_cast<std::size_t>(id) < cpus_per_node.size() ? cpus_per_node[static_cast<std::size_t>(id)] : 0;
        total_cpus += cpus;
        json n;
        n["cpus"] = cpus;
        n["zones"] = zones;
        nodes.push_back(n);
        out.capture_node.push_back(id);
    }

    // Seed 000's early sizing is there (the switch that recomputes after deferred init stays off), or it is not.
    bool early = false;
    unsigned long section_bytes = 0;
    for (const auto& zc : rep.zones)
        if (zc.explained_by == procfs::explanation::early_sizing) {
            early = true;
            if (zc.early_section_bytes)
                section_bytes = zc.early_section_bytes;
            else
                out.notes.push_back("node " + std::to_string(zc.node) + " " + zc.zone + ": sized early from "
                    + std::to_string(zc.early_pages) + " pages, which is no memory section size the model knows");
        }
    for (const auto& zc : rep.zones)
        if (zc.explained_by == procfs::explanation::late_memory)
            out.notes.push_back("node " + std::to_string(zc.node) + " " + zc.zone + ": " + zc.explained_reason
                + "; the model boots with all of it, so its high_max is the current one");
    if (rep.family->high == procfs::high_form::hot_cold)
        out.notes.push_back("the cold lists of v2.6.24 and earlier are not modelled: each CPU gets the hot list");
    for (const auto& w : wm.zones)
        if (w.pages && !w.matches() && !(wm.vendor_extra && w.extra > 0))
            out.notes.push_back("node " + std::to_string(w.node) + " " + w.zone + ": watermarks "
                + std::to_string(w.min) + "/" + std::to_string(w.low) + "/" + std::to_string(w.high)
                + ", which no vm.min_free_kbytes and vm.watermark_scale_factor give with the zones' sizes now (they "
                  "changed after the watermarks were set); the model boots to "
                + std::to_string(w.want_min) + "/" + std::to_string(w.want_low) + "/" + std::to_string(w.want_high));
    if (wm.vendor_extra)
        out.notes.push_back("low and high include a vendor kernel's vm.extra_free_kbytes (Android), not modelled");

    const double mib = static_cast<double>(total_pages) * static_cast<double>(1UL << shift) / double(1UL << 20);
    std::ostringstream summary;
    summary << source << ": " << out.capture_node.size() << " node" << (out.capture_node.size() == 1 ? "" : "s") << ", "
            << total_cpus << " CPUs, " << static_cast<long>(mib) << " MiB in " << ((1UL << shift) >> 10)
            << " KiB pages, read by pcplab-cli preset-from-zoneinfo";
    out.era = era.text + ": " + era.why;
    json desc = json::array();
    desc.push_back(summary.str());
    desc.push_back("Kernel: " + era.why + ". Pageset formulas: " + std::string(rep.family->name) + ".");
    desc.push_back("Zones: each zone's present and managed pages as in the capture, laid out one after another "
                   "from frame 0 (each node on a memory section); present - managed pages are reserved at the top "
                   "of each zone. The capture's start pfns and holes are not kept.");
    desc.push_back("vm.min_free_kbytes " + wm.min_free_kbytes_text() + "; vm.watermark_scale_factor "
        + std::to_string(wm.wsf) + ".");
    for (const auto& a : rep.assumptions) desc.push_back("Assumed: " + a + ".");
    for (const auto& n : out.notes) desc.push_back("Not reproduced: " + n + ".");

    json p;
    p["description"] = desc;
    p["era"] = era.text;
    p["sockets"] = std::max<std::size_t>(1, out.capture_node.size());
    if (shift != mm::PAGE_SHIFT) p["page_size_kib"] = (1UL << shift) >> 10;
    if (early && section_bytes && (section_bytes >> shift) != mm::PAGES_PER_SECTION)
        p["section_mib"] = section_bytes >> 20;
    p["nodes"] = nodes;
    json sysctl = json::object();
    if (wm.pages_min) sysctl["min_free_kbytes"] = wm.min_free_kbytes;
    if (wm.scale_factor_form && wm.gaps_fit && wm.wsf != 10) sysctl["watermark_scale_factor"] = wm.wsf;
    if (!sysctl.empty()) p["sysctl"] = sysctl;
    // Before v5.14 a switch says whether the pagesets are recomputed once deferred init is done.
    if (kera.version.before(5, 14))
        p["patches"] = json{{std::string(mm::patch_name(mm::patch::pcp_update_after_deferred_init)), !early}};
    out.json = p.dump(2) + "\n";
    return out;
}

std::string round_trip::text() const
{
    std::ostringstream o;
    o << "round trip: " << zones << " zones, " << values
      << " values compared: " << (differences.empty() ? "all equal" : std::to_string(differences.size()) + " differ")
      << "\n";
    for (const auto& d : differences) o << "  differs: " << d << "\n";
    for (const auto& n : not_modelled) o << "  not modelled: " << n << "\n";
    return o.str();
}

round_trip compare_with_capture(const procfs::zoneinfo_doc& doc, const procfs::check_report& rep,
    const zoneinfo_preset& preset, const mm::machine& booted)
{
    round_trip rt;
    const procfs::watermark_fit wm = procfs::fit_watermarks(doc, booted.era, booted.page_shift);
    bool cold_noted = false;
    for (const auto& z : doc.zones) {
        if (!z.populated() || zone_slot(z.name) < 0) continue;
        auto at = std::find(preset.capture_node.begin(), preset.capture_node.end(), z.node);
        if (at == preset.capture_node.end()) continue;
        const mm::zone& bz = booted.nodes[static_cast<std::size_t>(at - preset.capture_node.begin())]->z(
            static_cast<mm::zone_type>(zone_slot(z.name)));
        const std::string where = "node " + std::to_string(z.node) + " " + z.name + ": ";
        ++rt.zones;
        auto compare = [&](const char* what, long want, long got) {
            ++rt.values;
            if (want != got)
                rt.differences.push_back(
                    where + what + " " + std::to_string(got) + " (capture " + std::to_string(want) + ")");
        };
        compare("managed", z.has_managed ? z.managed : z.present, static_cast<long>(bz.managed()));

        const long boost = z.boost.value_or(0);
        const auto w = std::find_if(wm.zones.begin(), wm.zones.end(),
            [&](const procfs::watermark_zone& x) { return x.node == z.node && x.zone == z.name; });
        // Watermarks no sysctl gives with today's zone sizes cannot come back; what follows from them neither.
        const bool stale_wmarks = w != wm.zones.end() && !w->matches() && !(wm.vendor_extra && w->extra > 0);
        if (stale_wmarks) {
            rt.not_modelled.push_back(where + "watermarks " + std::to_string(w->min) + "/" + std::to_string(w->low)
                + "/" + std::to_string(w->high) + " were set when the zones had other sizes; booted "
                + std::to_string(bz._watermark[mm::WMARK_MIN]) + "/" + std::to_string(bz._watermark[mm::WMARK_LOW])
                + "/" + std::to_string(bz._watermark[mm::WMARK_HIGH]));
        } else {
            compare("min watermark", z.min - boost, static_cast<long>(bz._watermark[mm::WMARK_MIN]));
            if (wm.vendor_extra && w != wm.zones.end() && w->extra > 0) {
                rt.not_modelled.push_back(where + "low and high are " + std::to_string(w->extra)
                    + " above the formula (vendor extra_free_kbytes)");
            } else {
                compare("low watermark", z.low - boost, static_cast<long>(bz._watermark[mm::WMARK_LOW]));
                compare("high watermark", z.high - boost, static_cast<long>(bz._watermark[mm::WMARK_HIGH]));
            }
        }
        // v5.14+: high (high_min) is the low watermark split over the node's CPUs.
        const bool high_follows_low
            = rep.family->high == procfs::high_form::low_watermark || rep.family->high == procfs::high_form::autotune;

        auto first = std::find_if(z.pagesets.begin(), z.pagesets.end(),
            [](const procfs::zoneinfo_pageset& p) { return !p.pcp || *p.pcp == 0; });
        if (first == z.pagesets.end() || bz.per_cpu_pageset.empty()) continue;
        if (!cold_noted
            && std::any_of(z.pagesets.begin(), z.pagesets.end(), [](const auto& p) { return p.pcp == 1; })) {
            rt.not_modelled.push_back("the cold lists (v2.6.24 and earlier): the model has one list per CPU");
            cold_noted = true;
        }
        const auto zc = std::find_if(rep.zones.begin(), rep.zones.end(),
            [&](const procfs::zone_check& c) { return c.node == z.node && c.zone == z.name; });
        const mm::per_cpu_pages& pcp = bz.per_cpu_pageset[0];
        compare("batch", first->batch, pcp.batch);
        if (stale_wmarks && high_follows_low) {
            rt.not_modelled.push_back(where + "high " + std::to_string(first->high_min.value_or(first->high))
                + " follows that low watermark; booted " + std::to_string(first->high_min ? pcp.high_min : pcp.high));
            if (first->high_max && !(zc != rep.zones.end() && zc->explained_by == procfs::explanation::late_memory))
                compare("high_max", *first->high_max, pcp.high_max);
        } else if (first->high_min) {
            compare("high_min", *first->high_min, pcp.high_min);
            if (zc != rep.zones.end() && zc->explained_by == procfs::explanation::late_memory)
                rt.not_modelled.push_back(where + "high_max " + std::to_string(*first->high_max)
                    + " was computed before memory joined the zone; booted whole it is "
                    + std::to_string(pcp.high_max));
            else
                compare("high_max", *first->high_max, pcp.high_max);
        } else if (rep.family->high != procfs::high_form::autotune) {
            compare("high", first->high, pcp.high);
        }
    }
    return rt;
}

} // namespace pcplab::sim
