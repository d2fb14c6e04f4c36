// A step's checks, figures and reveal evaluated on one state.
#include "lessons/step_eval.hpp"

namespace pcplab::lessons
{

bool step_evaluation::passed() const
{
    for (const auto& c : checks)
        if (!c.passed) return false;
    for (const auto& f : figures)
        if (!f.simulated) return false;
    return reveal_complete;
}

step_evaluation evaluate_step(const step& s, const eval_context& ctx)
{
    step_evaluation out;
    for (const auto& c : s.checks) {
        auto x = c.expr.explain(ctx);
        check_outcome o;
        o.line = c.line;
        o.expr = c.expr.text();
        o.detail = x.detail;
        if (const auto* v = std::get_if<value>(&x.result)) o.passed = v->boolean;
        out.checks.push_back(std::move(o));
    }
    for (const auto& f : s.figures) {
        figure_outcome o{
            f.label, f.paper, f.paper_text, f.paper_unit.empty() ? f.unit : f.paper_unit, std::nullopt, {}, f.unit};
        auto v = f.simulated.evaluate(ctx);
        if (const auto* val = std::get_if<value>(&v))
            o.simulated = val->number;
        else
            o.error = v.error().message;
        out.figures.push_back(std::move(o));
    }
    for (const auto* p : s.reveal.placeholders())
        if (!p->evaluate(ctx).ok()) out.reveal_complete = false;
    out.reveal = s.reveal.render(ctx);
    return out;
}

} // namespace pcplab::lessons
