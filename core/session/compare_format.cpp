// The compare table as text (mmtests compare-kernels layout), markdown, CSV and JSON.
#include "session/compare.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace pcplab::session
{

namespace
{

// mmtests' column widths: a value is %12.2f, its comparison " (%7.2f%%)", so a column is 12 + 11 wide and its
// header (era, tag) is right-aligned over it; the row label is the statistic (padded to the width of mmtests'
// longest statistic name, "BAmean-99") and the metric.
constexpr int FIELD_W = 12;
constexpr int COMPARE_W = 7;
constexpr int COLUMN_W = FIELD_W + COMPARE_W + 4;
constexpr int STAT_W = 9;
constexpr int DURATION_LABEL_W = 16; // "Duration Elapsed"

std::string fmt(const char* f, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string pad_left(const std::string& s, int w)
{
    return static_cast<int>(s.size()) >= w ? s : std::string(static_cast<std::size_t>(w) - s.size(), ' ') + s;
}

std::string pad_right(const std::string& s, int w)
{
    return static_cast<int>(s.size()) >= w ? s : s + std::string(static_cast<std::size_t>(w) - s.size(), ' ');
}

// "(  -1.23%)" or, when significant, "*  -1.23%*".
std::string pct_text(const compare_cell& c)
{
    char buf[48];
    std::snprintf(buf, sizeof buf, c.significant ? "*%*.2f%%*" : "(%*.2f%%)", COMPARE_W, c.pct);
    return buf;
}

std::string text(const compare_table& t)
{
    std::size_t metric_w = 0;
    for (const auto& r : t.rows) metric_w = std::max(metric_w, r.metric.size());
    std::size_t stat_w = STAT_W;
    for (const auto& r : t.rows) stat_w = std::max(stat_w, r.stat.size());
    const int label_w = static_cast<int>(stat_w + 1 + metric_w);

    std::string out;
    if (!t.title.empty()) out += t.title + "\n";
    for (const auto* line : {&t.era, &t.tag}) {
        out += std::string(static_cast<std::size_t>(label_w), ' ');
        for (const auto& h : *line) out += pad_left(h, COLUMN_W);
        out += "\n";
    }
    for (const auto& r : t.rows) {
        out += pad_right(r.stat, static_cast<int>(stat_w)) + " " + pad_right(r.metric, static_cast<int>(metric_w));
        for (const auto& c : r.cells) out += fmt("%12.2f", c.value) + " " + pct_text(c);
        out += "\n";
    }
    out += "\n";
    // The Duration block has its own, narrower header: era and tag over bare %12.2f values (mmtests glues a
    // tag longer than 12 characters to its neighbour; so do we, to stay diffable against its output).
    for (const auto* line : {&t.era, &t.tag}) {
        out += std::string(DURATION_LABEL_W, ' ');
        for (const auto& h : *line) out += pad_left(h, FIELD_W);
        out += "\n";
    }
    for (std::size_t d = 0; d < t.duration_names.size(); ++d) {
        out += pad_right("Duration " + t.duration_names[d], DURATION_LABEL_W);
        for (double v : t.duration[d]) out += fmt("%12.2f", v);
        out += "\n";
    }
    for (const auto& n : t.notes) out += "\nNote: " + n + "\n";
    return out;
}

std::string markdown(const compare_table& t)
{
    std::string out;
    if (!t.title.empty()) out += "**" + t.title + "**\n\n";
    out += "| |";
    for (std::size_t c = 0; c < t.era.size(); ++c) out += " " + t.era[c] + "<br>" + t.tag[c] + " |";
    out += "\n|---|";
    for (std::size_t c = 0; c < t.era.size(); ++c) out += "---:|";
    out += "\n";
    for (const auto& r : t.rows) {
        out += "| " + r.stat + " " + r.metric + " |";
        for (const auto& c : r.cells) {
            std::string p = pct_text(c);
            if (c.significant) p = "\\*" + p.substr(1, p.size() - 2) + "\\*"; // literal asterisks, not emphasis
            out += " " + fmt("%.2f", c.value) + " " + p + " |";
        }
        out += "\n";
    }
    out += "\n| |";
    for (std::size_t c = 0; c < t.era.size(); ++c) out += " " + t.era[c] + "<br>" + t.tag[c] + " |";
    out += "\n|---|";
    for (std::size_t c = 0; c < t.era.size(); ++c) out += "---:|";
    out += "\n";
    for (std::size_t d = 0; d < t.duration_names.size(); ++d) {
        out += "| Duration " + t.duration_names[d] + " |";
        for (double v : t.duration[d]) out += " " + fmt("%.2f", v) + " |";
        out += "\n";
    }
    for (const auto& n : t.notes) out += "\n_Note: " + n + "_\n";
    return out;
}

std::string csv_field(const std::string& s)
{
    if (s.find_first_of(",\"\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
}

std::string csv(const compare_table& t)
{
    std::string out = "stat,metric,column,era,tag,value,pct,significant\n";
    for (const auto& r : t.rows)
        for (std::size_t c = 0; c < r.cells.size(); ++c)
            out += csv_field(r.stat) + "," + csv_field(r.metric) + "," + std::to_string(c) + "," + csv_field(t.era[c])
                + "," + csv_field(t.tag[c]) + "," + fmt("%.6g", r.cells[c].value) + "," + fmt("%.4f", r.cells[c].pct)
                + "," + (r.cells[c].significant ? "1" : "0") + "\n";
    for (std::size_t d = 0; d < t.duration_names.size(); ++d)
        for (std::size_t c = 0; c < t.duration[d].size(); ++c)
            out += "Duration," + t.duration_names[d] + "," + std::to_string(c) + "," + csv_field(t.era[c]) + ","
                + csv_field(t.tag[c]) + "," + fmt("%.6g", t.duration[d][c]) + ",,\n";
    return out;
}

std::string json(const compare_table& t)
{
    nlohmann::json j;
    j["title"] = t.title;
    j["columns"] = nlohmann::json::array();
    for (std::size_t c = 0; c < t.era.size(); ++c)
        j["columns"].push_back({{"era", t.era[c]}, {"tag", t.tag[c]}, {"runs", t.repeats[c]}});
    j["rows"] = nlohmann::json::array();
    for (const auto& r : t.rows) {
        nlohmann::json cells = nlohmann::json::array();
        for (const auto& c : r.cells)
            cells.push_back({{"value", c.value}, {"pct", c.pct}, {"significant", c.significant}});
        j["rows"].push_back(
            {{"stat", r.stat}, {"metric", r.metric}, {"higher_is_better", r.higher_is_better}, {"cells", cells}});
    }
    j["duration"] = nlohmann::json::object();
    for (std::size_t d = 0; d < t.duration_names.size(); ++d) j["duration"][t.duration_names[d]] = t.duration[d];
    j["notes"] = t.notes;
    return j.dump(2) + "\n";
}

} // namespace

std::string format_compare(const compare_table& t, compare_format f)
{
    switch (f) {
    case compare_format::text:
        return text(t);
    case compare_format::markdown:
        return markdown(t);
    case compare_format::csv:
        return csv(t);
    case compare_format::json:
        return json(t);
    }
    return {};
}

} // namespace pcplab::session
