#include "session/sweep_table.hpp"

#include "session/recording_reader.hpp"

namespace pcplab::session
{

sweep_columns gather_sweep(const sweep_grid& g, const std::vector<sweep_point>& points,
    const std::function<std::optional<std::string>(const sweep_point&)>& recording_of)
{
    sweep_columns out;
    std::optional<std::size_t> open_configuration; // the configuration of out.columns.back()
    for (const auto& p : points) {
        const auto path = recording_of(p);
        if (!path) {
            out.missing.push_back(p.id + " (" + p.label(g, true) + ")");
            continue;
        }
        recording rec(*path);
        auto sides = compare_inputs_from(rec);
        compare_input& got = sides.front(); // a sweep point is one machine, side 0
        if (open_configuration != p.configuration) {
            got.tag = p.label(g);
            got.label = p.id;
            out.columns.push_back(std::move(got));
            open_configuration = p.configuration;
        } else {
            auto& runs = out.columns.back().runs;
            runs.insert(runs.end(), got.runs.begin(), got.runs.end());
        }
    }
    return out;
}

} // namespace pcplab::session
