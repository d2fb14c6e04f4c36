#include "run_seed_report.hpp"

#include "mm/patch_switches.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace pcplab::cli
{

namespace
{

std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

// A simulated value in the unit its key implies.
std::string sim_value(const std::string& key, double v)
{
    auto ends = [&](const char* s) {
        std::string suf(s);
        return key.size() >= suf.size() && key.compare(key.size() - suf.size(), suf.size(), suf) == 0;
    };
    if (ends("_ns") || key.find("_ns_") != std::string::npos) {
        if (v >= 1e9) return fmt("%.3f s", v / 1e9);
        if (v >= 1e6) return fmt("%.3f ms", v / 1e6);
        if (v >= 1e3) return fmt("%.3f us", v / 1e3);
        return fmt("%.0f ns", v);
    }
    if (ends("_ms")) return fmt("%.1f ms", v);
    if (ends("_s")) return sim_value("x_ns", v * 1e9);
    if (ends("_pct")) return fmt("%.2f%%", v);
    if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt("%.0f", v);
    return fmt("%.4g", v);
}

std::string pub_value(const sim::published_figure& f, double v, bool lower_bound)
{
    std::string s = fmt("%.6g", v);
    if (lower_bound) s += "+";
    if (f.unit == "%") return s + "%";
    return f.unit.empty() || f.unit == "pages" || f.unit == "iterations" ? s : s + " " + f.unit;
}

std::string change_text(std::optional<double> c, sim::change_form form)
{
    if (!c) return "";
    return form == sim::change_form::percent ? fmt("%+.1f%%", *c) : fmt("%.2fx", *c);
}

std::string published_cell(const sim::published_figure& f)
{
    if (!f.off && !f.on) return "-";
    return (f.off ? pub_value(f, *f.off, f.off_is_lower_bound) : "?") + " -> "
        + (f.on ? pub_value(f, *f.on, false) : "?");
}

std::string published_change(const sim::published_figure& f)
{
    if (f.change) return change_text(f.change, f.form);
    return sim::expected_change_name(f.expect);
}

std::string table(const std::vector<std::vector<std::string>>& rows)
{
    std::vector<std::size_t> w;
    for (const auto& r : rows)
        for (std::size_t i = 0; i < r.size(); ++i) {
            if (w.size() <= i) w.push_back(0);
            w[i] = std::max(w[i], r[i].size());
        }
    std::string out;
    for (const auto& r : rows) {
        std::string line = "  ";
        for (std::size_t i = 0; i < r.size(); ++i) line += r[i] + std::string(w[i] - r[i].size() + 2, ' ');
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line + "\n";
    }
    return out;
}

std::string json_str(const std::string& s)
{
    std::string out = "\"";
    for (char ch : s) {
        auto c = static_cast<unsigned char>(ch);
        if (c == '"' || c == '\\')
            out += std::string("\\") + ch;
        else if (c == '\n')
            out += "\\n";
        else if (c < 0x20)
            out += fmt("\\u%04x", c);
        else
            out += ch;
    }
    return out + "\"";
}

std::string json_num(std::optional<double> v)
{
    if (!v || !std::isfinite(*v)) return "null";
    return fmt("%.17g", *v);
}

std::string strip_newline(std::string s)
{
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
}

std::string scale_line(const seed_outcome& s)
{
    std::string line = "scaled: ";
    if (s.plan.gib_per_node > 0 && s.plan.gib_per_node < s.preset_gib_per_node)
        line += fmt("%.0f", s.plan.gib_per_node) + " GiB per node instead of " + fmt("%.0f", s.preset_gib_per_node)
            + " GiB";
    else
        line += "the preset's memory";
    if (s.ref->workload != "boot")
        line += ", intensity " + fmt("%g", s.plan.intensity) + ", hold threshold "
            + sim_value("t_ns", double(s.plan.hold_threshold_ns)) + ", at most "
            + sim_value("t_ns", double(s.plan.duration_ns)) + " virtual (stopped: " + s.off.stop_reason + " / "
            + s.on.stop_reason + ")";
    return line + " - " + s.plan.why;
}

} // namespace

std::string seeds_text(const std::vector<seed_outcome>& seeds, bool quick)
{
    std::string out;
    int agree = 0, total = 0;
    for (const auto& s : seeds) {
        const auto& r = *s.ref;
        out += "scenario " + r.id + "  " + r.title + " (" + r.author + ")\n";
        out += "  published: " + r.benchmark + "; " + r.machine + "\n";
        out += "  simulated: preset " + r.preset + ", era " + r.era
            + (s.modelled_era != r.era ? " (modelled as " + s.modelled_era + ")" : "") + ", workload " + r.workload
            + ", " + sim::sides_label(r) + "\n";
        out += "  " + scale_line(s) + "\n";
        if (r.workload == "boot")
            out += "  boot only (deferred init), wall " + sim_value("t_ns", s.off.wall_ns + s.on.wall_ns) + "\n\n";
        else
            out += "  virtual time " + sim_value("t_ns", double(s.off.sim_time_ns)) + " / "
                + sim_value("t_ns", double(s.on.sim_time_ns)) + ", wall "
                + sim_value("t_ns", s.off.wall_ns + s.on.wall_ns) + "\n\n";
        std::vector<std::vector<std::string>> rows
            = {{"figure", "published off -> on", "change", "simulated off -> on", "change", "ratio", ""}};
        std::vector<std::string> disagreements, notes;
        for (const auto& c : s.figures) {
            const auto& f = *c.fig;
            std::string simulated
                = c.sim_off && c.sim_on ? sim_value(f.key, *c.sim_off) + " -> " + sim_value(f.key, *c.sim_on) : "-";
            rows.push_back({f.label, published_cell(f), published_change(f), simulated,
                change_text(c.sim_change, f.form), c.ratio ? fmt("%.2f", *c.ratio) : "", c.agrees ? "ok" : "differs"});
            if (!c.agrees) disagreements.push_back(f.label + ": " + c.disagreement);
            if (!f.model_note.empty()) notes.push_back(f.label + ": " + f.model_note);
            agree += c.agrees ? 1 : 0;
            ++total;
        }
        out += table(rows);
        for (const auto& d : disagreements) out += "  model disagrees: " + d + "\n";
        for (const auto& n : notes) out += "  model note: " + n + "\n";
        out += "\n";
    }
    out += "ratio = simulated change / published change (1 = the same effect; exact figures: simulated / published)\n";
    out += std::to_string(seeds.size()) + " scenario(s), " + std::to_string(total)
        + " figures: " + std::to_string(agree) + " agree, " + std::to_string(total - agree) + " disagree"
        + (quick ? " (--quick: smallest scale)" : "") + "\n";
    return out;
}

std::string seeds_json(const std::vector<seed_outcome>& seeds, bool quick)
{
    int agree = 0, total = 0;
    std::string items;
    for (const auto& s : seeds) {
        const auto& r = *s.ref;
        std::string figs;
        for (const auto& c : s.figures) {
            const auto& f = *c.fig;
            std::string fj = "{\"key\":" + json_str(f.key) + ",\"label\":" + json_str(f.label)
                + ",\"unit\":" + json_str(f.unit) + ",\"expect\":" + json_str(sim::expected_change_name(f.expect))
                + ",\"form\":" + json_str(f.form == sim::change_form::percent ? "percent" : "factor")
                + ",\"published\":{\"off\":" + json_num(f.off)
                + ",\"off_is_lower_bound\":" + (f.off_is_lower_bound ? "true" : "false") + ",\"on\":" + json_num(f.on)
                + ",\"change\":" + json_num(f.change) + ",\"source\":" + json_str(f.source) + "}"
                + ",\"simulated\":{\"off\":" + json_num(c.sim_off) + ",\"on\":" + json_num(c.sim_on)
                + ",\"change\":" + json_num(c.sim_change) + "}" + ",\"ratio\":" + json_num(c.ratio)
                + ",\"agrees\":" + (c.agrees ? "true" : "false") + ",\"disagreement\":" + json_str(c.disagreement)
                + ",\"model_note\":" + json_str(f.model_note) + "}";
            figs += (figs.empty() ? "" : ",") + fj;
            agree += c.agrees ? 1 : 0;
            ++total;
        }
        std::string item = "{\"id\":" + json_str(r.id) + ",\"title\":" + json_str(r.title)
            + ",\"author\":" + json_str(r.author) + ",\"switch\":" + json_str(sim::control_name(r))
            + ",\"preset\":" + json_str(r.preset) + ",\"era\":" + json_str(r.era)
            + ",\"modelled_era\":" + json_str(s.modelled_era) + ",\"workload\":" + json_str(r.workload)
            + ",\"published_machine\":" + json_str(r.machine) + ",\"published_benchmark\":" + json_str(r.benchmark)
            + ",\"scale\":{\"gib_per_node\":" + json_num(s.plan.gib_per_node) + ",\"preset_gib_per_node\":"
            + json_num(s.preset_gib_per_node) + ",\"intensity\":" + json_num(s.plan.intensity)
            + ",\"duration_ns\":" + json_num(double(s.plan.duration_ns)) + ",\"why\":" + json_str(s.plan.why) + "}"
            + ",\"figures\":[" + figs + "]" + ",\"runs\":{\"off\":" + strip_newline(sim::run_summary_json(s.off))
            + ",\"on\":" + strip_newline(sim::run_summary_json(s.on)) + "}}";
        items += (items.empty() ? "" : ",") + item;
    }
    return "{\"quick\":" + std::string(quick ? "true" : "false") + ",\"seeds\":[" + items
        + "],\"figures\":" + std::to_string(total) + ",\"agree\":" + std::to_string(agree)
        + ",\"disagree\":" + std::to_string(total - agree) + "}\n";
}

} // namespace pcplab::cli
