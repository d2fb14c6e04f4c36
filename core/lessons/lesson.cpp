// The small parts of the lesson model: error text, the known view ids and sysctls, judging a prediction.
#include "lessons/lesson.hpp"

#include <cmath>

namespace pcplab::lessons
{

std::string lesson_error::str() const
{
    std::string s = file;
    if (line > 0) s += ":" + std::to_string(line);
    if (line > 0 && column > 0) s += ":" + std::to_string(column);
    return s + ": " + message;
}

const std::vector<std::string>& view_ids()
{
    // ui/views/view.hpp: view::view_id() of every view.
    static const std::vector<std::string> ids
        = {"pcp", "locks", "limits", "rates", "buddy", "deferred", "events", "proc", "model"};
    return ids;
}

bool prediction::accepts(double v) const
{
    if (is_choice()) return false;
    const double tol = tolerance_pct ? std::fabs(answer_number) * tolerance / 100.0 : tolerance;
    return std::fabs(v - answer_number) <= tol + 1e-9;
}

bool prediction::accepts_choice(std::size_t index) const
{
    return index < choices.size() && choices[index] == answer;
}

bool step::needs_machine() const
{
    return boots || run_ns || run_to_finish || !flips.empty() || !writes.empty() || !checks.empty() || !figures.empty()
        || !keep.empty() || reveal.has_placeholders();
}

} // namespace pcplab::lessons
