#include "session/export.hpp"
#include "session/series.hpp"

#include <cstdio>
#include <map>

namespace pcplab::session
{

namespace
{

std::string number(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

} // namespace

std::int64_t pick_run(const recording& rec, std::int64_t wanted)
{
    if (wanted > 0) {
        rec.run(wanted); // throws for an unknown run
        return wanted;
    }
    for (const auto& r : rec.runs())
        if (!rec.index(r.run).empty()) return r.run;
    rec.fail("no run with snapshots in this recording");
}

std::string export_csv(const recording& rec, const std::string& series)
{
    std::vector<const series_info*> chosen;
    if (series.empty()) {
        for (const auto& s : all_series()) chosen.push_back(&s);
    } else {
        const series_info* s = find_series(series);
        if (!s) throw std::invalid_argument("unknown series '" + series + "' (one of: " + series_names_text() + ")");
        chosen.push_back(s);
    }

    std::string header = "run,t_ns";
    bool header_done = false;
    std::string body;
    for (const auto& r : rec.runs()) {
        const auto idx = rec.index(r.run);
        if (idx.empty()) continue;
        // columns[c][seq] = value; a zone missing from a snapshot (while booting) leaves its cell empty.
        std::vector<std::map<std::uint64_t, double>> columns;
        std::string names;
        for (const series_info* s : chosen)
            for (auto& line : read_series(rec, r.run, *s)) {
                std::map<std::uint64_t, double> col;
                for (std::size_t i = 0; i < line.seq.size(); ++i) col[line.seq[i]] = line.v[i];
                columns.push_back(std::move(col));
                names += ",";
                names += s->per_zone ? (chosen.size() == 1 ? line.label : std::string(s->name) + "[" + line.label + "]")
                                     : std::string(s->name);
            }
        if (!header_done) {
            header += names;
            header_done = true;
        }
        for (const auto& ref : idx) {
            body += std::to_string(r.run) + "," + std::to_string(ref.t_ns);
            for (const auto& col : columns) {
                auto it = col.find(ref.seq);
                body += "," + (it == col.end() ? std::string() : number(it->second));
            }
            body += "\n";
        }
    }
    if (!header_done) rec.fail("no run with snapshots in this recording");
    return header + "\n" + body;
}

} // namespace pcplab::session
