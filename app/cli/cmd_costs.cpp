// pcplab-cli costs: the cost model's assumptions for a preset (or a machine class): every parameter with
// what it prices and where its value comes from, then the rates the engine derives from them.
#include "args.hpp"
#include "commands.hpp"

#include "sim/cost_model.hpp"
#include "sim/preset.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <variant>

namespace pcplab::cli
{

namespace
{

// Integers as integers, other values to three decimals without trailing zeros.
std::string value_text(double v)
{
    char buf[40];
    if (std::fabs(v - std::round(v)) < 1e-9) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    std::snprintf(buf, sizeof buf, "%.3f", v);
    std::string s = buf;
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s;
}

std::string json_string(const std::string& s)
{
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out += buf;
        } else {
            out += static_cast<char>(c); // UTF-8 passes through
        }
    }
    return out + "\"";
}

std::string json_number(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

std::string text_report(
    const std::string& subject, const sim::cost_model& m, const std::vector<sim::derived_rate>& rates)
{
    std::string out = "Cost model of " + subject + "\n";
    out += "class: " + m.machine_class + " - " + m.class_title + "\n";
    if (!m.class_reason.empty()) out += "chosen because: " + m.class_reason + "\n";
    out += "\nParameters (E = estimate; the row IDs are those of shared/reference/cost-model-sources.md):\n";
    std::size_t wk = 3;
    for (const auto& p : m.params) wk = std::max(wk, p.key.size());
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %-*s  %9s  %s\n", int(wk), "KEY", "VALUE", "WHAT / SOURCE");
    out += buf;
    for (const auto& p : m.params) {
        std::snprintf(buf, sizeof buf, "  %-*s  %9s  ", int(wk), p.key.c_str(), value_text(p.value).c_str());
        out += buf + p.what + "\n";
        out += std::string(wk + 15, ' ') + "source: " + p.source + "\n";
    }
    out += "\nRates the engine charges (ns, except cache_lines_per_cpu):\n";
    std::size_t wr = 4;
    for (const auto& r : rates) wr = std::max(wr, r.name.size());
    for (const auto& r : rates) {
        std::snprintf(buf, sizeof buf, "  %-*s  %9s  = ", int(wr), r.name.c_str(), value_text(r.value).c_str());
        out += buf + r.formula + "\n";
    }
    return out;
}

std::string json_report(
    const std::string& preset, const sim::cost_model& m, const std::vector<sim::derived_rate>& rates)
{
    std::string out = "{";
    out += "\"preset\": " + (preset.empty() ? std::string("null") : json_string(preset));
    out += ", \"class\": " + json_string(m.machine_class) + ", \"class_title\": " + json_string(m.class_title);
    out += ", \"class_reason\": " + json_string(m.class_reason) + ", \"params\": [";
    for (std::size_t i = 0; i < m.params.size(); ++i) {
        const auto& p = m.params[i];
        out += (i ? ", " : "") + std::string("{\"key\": ") + json_string(p.key) + ", \"value\": " + json_number(p.value)
            + ", \"what\": " + json_string(p.what) + ", \"source\": " + json_string(p.source) + "}";
    }
    out += "], \"rates\": [";
    for (std::size_t i = 0; i < rates.size(); ++i)
        out += (i ? ", " : "") + std::string("{\"name\": ") + json_string(rates[i].name)
            + ", \"value\": " + json_number(rates[i].value) + ", \"formula\": " + json_string(rates[i].formula) + "}";
    return out + "]}\n";
}

} // namespace

std::string costs_help()
{
    return "Usage: pcplab-cli costs --preset NAME [--json]\n"
           "       pcplab-cli costs --class CLASS [--json]\n\n"
           "Prints the cost model's assumptions: every parameter of the preset's machine class (key, value,\n"
           "what it prices, its source in shared/reference/cost-model-sources.md, or \"preset\" where the\n"
           "preset overrides it), then the rates the engine derives from them, with their formulas.\n\n"
           "  --preset NAME   a preset (see `pcplab-cli presets`) or a path to a preset .json\n"
           "  --class CLASS   a machine class's defaults, without a preset\n"
           "  --json          one object: preset, class, class_title, class_reason, params[{key, value, what,\n"
           "                  source}], rates[{name, value, formula}]\n";
}

int cmd_costs(const std::vector<std::string>& args)
{
    auto a
        = parse_args("costs", args, {{"--preset", true, false}, {"--class", true, false}, {"--json", false, false}}, 0);
    auto preset = a.get("--preset");
    auto cls = a.get("--class");
    std::string classes;
    for (const auto& c : sim::cost_class_names()) classes += (classes.empty() ? "" : ", ") + c;
    if (preset && cls) throw cli_error("--class: give --preset or --class, not both");
    if (!preset && !cls) throw cli_error("--preset: required (or --class, one of: " + classes + ")");

    sim::cost_model m;
    std::string subject;
    if (preset) {
        auto loaded = sim::load_preset(*preset);
        if (auto* err = std::get_if<pcplab::error>(&loaded)) throw cli_error("--preset " + *preset + ": " + err->str());
        const auto& spec = std::get<mm::machine_spec>(loaded);
        m = sim::cost_model_for(spec);
        subject = "preset " + spec.name;
    } else {
        try {
            m = sim::class_defaults(*cls);
        } catch (const std::out_of_range&) {
            throw cli_error("--class: unknown class '" + *cls + "' (one of: " + classes + ")");
        }
        subject = "class " + *cls + " (defaults, no preset)";
    }
    std::vector<sim::derived_rate> rates;
    try {
        rates = sim::explain_rates(m);
    } catch (const std::out_of_range& e) {
        throw cli_error(std::string(preset ? "--preset " + *preset : "--class " + *cls) + ": " + e.what());
    }
    write_stdout(a.has("--json") ? json_report(preset ? *preset : "", m, rates) : text_report(subject, m, rates));
    return 0;
}

} // namespace pcplab::cli
