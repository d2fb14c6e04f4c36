// The small parts of the lesson model: error text, the known view ids and sysctls, judging a prediction.
#include "lessons/lesson.hpp"

#include <cmath>

namespace pcplab::lessons
{

const std::vector<std::string>& view_ids()
{
    // ui/views/view.hpp: view::view_id() of every view, the one list of them (the window's --view takes these
    // too; tests/ui/views_test.cpp checks it against the views the window makes).
    static const std::vector<std::string> ids
        = {"pcp", "locks", "limits", "rates", "heat", "buddy", "deferred", "events", "proc", "model"};
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
