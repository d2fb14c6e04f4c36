// The keys of a ```step block. Setup keys (preset ... speed) change the machine and make the step boot a new
// one; action keys (flip, write, run, highlight, keep) act on the running one; ask/choices/answer/tolerance
// are the prediction; check, figure and reveal judge and explain the result.
#include "lessons/step_block.hpp"

#include "lessons/lesson_setup.hpp"

#include "sim/boot_sysctl.hpp"
#include "sim/preset.hpp"

#include "mm/kernel_version.hpp"
#include "mm/sysctl_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

namespace pcplab::lessons
{

namespace
{

const std::vector<std::string> k_setup_keys = {"preset", "node_gib", "era", "switch", "init_threads", "workload",
    "param", "intensity", "seed", "sysctl", "hold_threshold", "drain_hz", "speed"};
const std::vector<std::string> k_other_keys = {
    "flip", "write", "run", "highlight", "keep", "ask", "choices", "answer", "tolerance", "check", "figure", "reveal"};
// More decimals than a class would type, and more than the answer box shows.
constexpr int k_max_decimals = 6;
const std::vector<std::string> k_repeatable = {"switch", "param", "sysctl", "flip", "write", "check", "figure"};

bool contains(const std::vector<std::string>& v, const std::string& s)
{
    return std::find(v.begin(), v.end(), s) != v.end();
}

std::string known_switches()
{
    return mm::patch_names_list();
}

class block_reader
{
public:
    block_reader(step& s, lesson_state& st)
        : m_step(s)
        , m_st(st)
    {
    }

    void apply(const std::vector<block_entry>& entries)
    {
        std::map<std::string, int> seen;
        for (const auto& e : entries) {
            if (!contains(k_setup_keys, e.key) && !contains(k_other_keys, e.key)) {
                m_st.error(e.line, 1,
                    "unknown key '" + e.key
                        + "' (setup: preset, node_gib, era, switch, init_threads, workload, param, "
                          "intensity, seed, sysctl, hold_threshold, drain_hz, speed; actions: flip, write, run, "
                          "highlight, keep; "
                          "prediction: ask, choices, answer, tolerance; check, figure, reveal)");
                continue;
            }
            if (!contains(k_repeatable, e.key) && seen.count(e.key)) {
                m_st.error(
                    e.line, 1, "'" + e.key + "' given twice (first at line " + std::to_string(seen[e.key]) + ")");
                continue;
            }
            seen.emplace(e.key, e.line);
            if (contains(k_setup_keys, e.key)) m_step.boots = true;
        }
        // Setup first (the era decides which sysctls exist), then the rest in file order.
        const std::size_t errors_before = m_st.errors->size();
        for (const auto& e : entries)
            if (contains(k_setup_keys, e.key)) setup_key(e);
        if (m_step.boots && m_st.errors->size() == errors_before) validate_setup();
        m_step.setup = m_st.setup;
        for (const auto& e : entries)
            if (contains(k_other_keys, e.key)) other_key(e);
        finish_prediction();
        if (!m_step.boots && !m_st.booted && m_step.needs_machine()) m_step.boots = true; // boot the defaults
        if (m_step.boots) m_st.booted = true;
        if (!m_step.keep.empty()) m_st.kept.insert(m_step.keep);
    }

private:
    step& m_step;
    lesson_state& m_st;
    const block_entry* m_ask = nullptr;
    const block_entry* m_choices = nullptr;
    const block_entry* m_answer = nullptr;
    const block_entry* m_tolerance = nullptr;
    int m_first_setup_line = 0;

    // The value with its continuation lines joined by spaces.
    static std::string joined(const block_entry& e)
    {
        std::string s = e.value;
        for (const auto& [more, line] : e.more) s += (s.empty() ? "" : " ") + more;
        return s;
    }

    void bad(const block_entry& e, const std::string& message) const
    {
        m_st.error(e.line, e.value_column, e.key + ": " + message);
    }

    std::optional<double> number(const block_entry& e, double lo, double hi)
    {
        auto v = parse_number(joined(e));
        if (!v) {
            bad(e, "'" + joined(e) + "' is not a number");
            return std::nullopt;
        }
        if (*v < lo || *v > hi) {
            bad(e, "must be between " + format_number(lo) + " and " + format_number(hi) + ", not " + format_number(*v));
            return std::nullopt;
        }
        return v;
    }

    // NAME=VALUE
    bool name_value(const block_entry& e, std::string& name, std::string& val)
    {
        const std::string t = joined(e);
        std::size_t eq = t.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == t.size()) {
            bad(e, "expected NAME=VALUE, not '" + t + "'");
            return false;
        }
        name = trim(t.substr(0, eq));
        val = trim(t.substr(eq + 1));
        return true;
    }

    std::optional<std::pair<mm::patch, bool>> switch_value(const block_entry& e)
    {
        std::string name, val;
        if (!name_value(e, name, val)) return std::nullopt;
        auto p = mm::patch_from_name(name);
        if (!p) {
            bad(e, "unknown switch '" + name + "' (" + known_switches() + ")");
            return std::nullopt;
        }
        if (val != "on" && val != "off") {
            bad(e, "a switch is on or off, not '" + val + "'");
            return std::nullopt;
        }
        return std::make_pair(*p, val == "on");
    }

    std::optional<std::pair<std::string, long>> sysctl_value(const block_entry& e)
    {
        std::string name, val;
        if (!name_value(e, name, val)) return std::nullopt;
        if (name.rfind("vm.", 0) != 0) name = "vm." + name;
        if (!mm::vm_sysctl_from_name(name)) {
            bad(e, mm::unknown_vm_sysctl(name));
            return std::nullopt;
        }
        auto v = parse_number(val);
        if (!v || *v != std::floor(*v)) {
            bad(e, name + " takes a whole number, not '" + val + "'");
            return std::nullopt;
        }
        // Far beyond any sysctl's int, and kept from the conversion below, which could not hold it.
        if (std::fabs(*v) > 1e15) {
            bad(e, name + ": " + val + " is out of range");
            return std::nullopt;
        }
        return std::make_pair(name, static_cast<long>(*v));
    }

    void setup_key(const block_entry& e)
    {
        auto& s = m_st.setup;
        if (!m_first_setup_line || e.line < m_first_setup_line) m_first_setup_line = e.line;
        const std::string v = joined(e);
        if (e.key == "preset") {
            auto loaded = sim::load_preset(v);
            if (auto* err = std::get_if<pcplab::error>(&loaded))
                bad(e, err->message);
            else
                s.preset = v;
        } else if (e.key == "node_gib") {
            if (auto n = number(e, 0.25, 1 << 14)) s.node_gib = *n;
        } else if (e.key == "era") {
            if (!mm::choose_era(v))
                bad(e, "'" + v + "' is not a kernel version (v5.4, 6.7, 5.4.0-rc3)");
            else
                s.era = v;
        } else if (e.key == "switch") {
            if (auto sw = switch_value(e)) s.switches.push_back(*sw);
        } else if (e.key == "init_threads") {
            if (auto n = number(e, 1, 4096)) s.init_threads = static_cast<int>(*n);
        } else if (e.key == "workload") {
            if (!sim::make_workload(v)) {
                std::string known;
                for (const auto& n : sim::workload_names()) known += (known.empty() ? "" : ", ") + n;
                bad(e, "unknown workload '" + v + "' (" + known + ")");
            } else {
                if (v != s.workload) s.params.clear(); // tunables belong to the workload they were set for
                s.workload = v;
            }
        } else if (e.key == "param") {
            std::string name, val;
            if (!name_value(e, name, val)) return;
            auto n = parse_number(val);
            if (!n)
                bad(e, name + " takes a number, not '" + val + "'");
            else
                s.params.emplace_back(name, *n);
        } else if (e.key == "intensity") {
            if (auto n = number(e, 0.001, 64)) s.intensity = *n;
        } else if (e.key == "seed") {
            if (auto n = number(e, 0, 1e15)) s.seed = static_cast<std::uint64_t>(*n);
        } else if (e.key == "sysctl") {
            if (auto sc = sysctl_value(e)) s.sysctls.push_back(*sc);
        } else if (e.key == "hold_threshold") {
            if (auto d = parse_duration(v))
                s.hold_threshold_ns = *d;
            else
                bad(e, "'" + v + "' is not a duration (500ms, 2s, 100us)");
        } else if (e.key == "drain_hz") {
            if (auto n = number(e, 0, 1e4)) s.drain_hz = *n;
        } else if (e.key == "speed") {
            if (auto n = number(e, 0, 1e3)) s.speed = *n;
        }
    }

    // The accumulated setup must resolve to a machine (preset exists, era and switches agree ...).
    void validate_setup()
    {
        auto r = resolve_setup(m_st.setup);
        if (auto* why = std::get_if<pcplab::error>(&r)) m_st.error(m_first_setup_line, 1, "setup: " + why->message);
    }

    void other_key(const block_entry& e)
    {
        const std::string v = joined(e);
        if (e.key == "flip") {
            if (auto sw = switch_value(e)) {
                // As the CLI and the engine refuse it: a switch the machine's era cannot honour.
                auto r = resolve_setup(m_st.setup);
                if (auto* es = std::get_if<engine_setup>(&r))
                    if (auto why = mm::patch_not_applicable(sw->first, sw->second, es->machine.era); !why.empty())
                        bad(e, why);
                m_step.flips.push_back(*sw);
            }
        } else if (e.key == "write") {
            if (auto sc = sysctl_value(e)) {
                auto r = resolve_setup(m_st.setup);
                if (auto* es = std::get_if<engine_setup>(&r))
                    if (auto why = sim::check_sysctl(sc->first, sc->second, es->machine.era); !why)
                        bad(e, why.message());
                // sysctl_value took only a known name: it becomes the typed sysctl here, at the lesson file's edge.
                if (auto which = mm::vm_sysctl_from_name(sc->first)) m_step.writes.emplace_back(*which, sc->second);
            }
        } else if (e.key == "run") {
            if (v == "finish") {
                m_step.run_to_finish = true;
                if (!workload_finishes(m_st.setup.workload))
                    bad(e,
                        "'finish' needs a workload that ends by itself (kernbench, boot), not " + m_st.setup.workload);
            } else if (auto d = parse_duration(v)) {
                m_step.run_ns = *d;
            } else {
                bad(e, "'" + v + "' is not a duration (500ms, 2s, 100us) or 'finish'");
            }
        } else if (e.key == "highlight") {
            if (!contains(view_ids(), v)) {
                std::string known;
                for (const auto& n : view_ids()) known += (known.empty() ? "" : ", ") + n;
                bad(e, "unknown view '" + v + "' (" + known + ")");
            }
            m_step.highlight = v;
        } else if (e.key == "keep") {
            if (v.empty() || v.find_first_of(" \t\"'") != std::string::npos)
                bad(e, "a kept state needs a one-word name");
            m_step.keep = v;
        } else if (e.key == "ask") {
            m_ask = &e;
        } else if (e.key == "choices") {
            m_choices = &e;
        } else if (e.key == "answer") {
            m_answer = &e;
        } else if (e.key == "tolerance") {
            m_tolerance = &e;
        } else if (e.key == "check") {
            if (auto c = compile(e, v, vtype::boolean)) m_step.checks.push_back({std::move(*c), e.line});
        } else if (e.key == "figure") {
            add_figure(e, v);
        } else if (e.key == "reveal") {
            add_reveal(e);
        }
    }

    std::optional<compiled_expr> compile(
        const block_entry& e, const std::string& text, std::optional<vtype> want, int column_offset = 0)
    {
        auto r = compile_expr(text, want);
        if (auto* err = std::get_if<pcplab::error>(&r)) {
            // Columns are exact for one-line values; a continued value reports its first line.
            m_st.error(e.line, e.more.empty() ? e.value_column + column_offset + err->column - 1 : e.value_column,
                e.key + ": " + err->message);
            return std::nullopt;
        }
        auto c = std::get<compiled_expr>(std::move(r));
        for (const auto& name : c.kept_names())
            if (!m_st.kept.count(name) && name != m_step.keep)
                bad(e, "from(\"" + name + "\", ...) reads a state no earlier step keeps (add `keep: " + name + "`)");
        return c;
    }

    // figure: LABEL | PAPER | EXPRESSION [| UNIT]
    void add_figure(const block_entry& e, const std::string& v)
    {
        auto parts = split(v, '|');
        if (parts.size() < 3 || parts.size() > 4) {
            bad(e, "expected LABEL | PAPER NUMBER (or -) | EXPRESSION [| UNIT]");
            return;
        }
        figure f;
        f.label = parts[0];
        f.paper_text = parts[1];
        f.line = e.line;
        if (parts[1] != "-") {
            // "14760.30 s": the number, then the paper's own unit.
            const std::size_t space = parts[1].find(' ');
            f.paper = parse_number(parts[1].substr(0, space));
            if (space != std::string::npos) f.paper_unit = trim(parts[1].substr(space));
            if (!f.paper) {
                bad(e, "the paper's number '" + parts[1] + "' is not a number (write - when the paper has none)");
                return;
            }
        }
        const std::size_t expr_at = v.find(parts[2], v.find('|', v.find('|') + 1));
        auto c = compile(e, parts[2], vtype::number, static_cast<int>(expr_at));
        if (!c) return;
        f.simulated = std::move(*c);
        if (parts.size() == 4) f.unit = parts[3];
        m_step.figures.push_back(std::move(f));
    }

    void add_reveal(const block_entry& e)
    {
        std::vector<std::pair<std::string, int>> lines;
        if (!e.value.empty()) lines.emplace_back(e.value, e.line);
        lines.insert(lines.end(), e.more.begin(), e.more.end());
        for (const auto& [text, line] : lines) {
            const status added = m_step.reveal.append_line(text);
            if (!added) {
                const pcplab::error& err = added.error();
                m_st.error(line, (line == e.line ? e.value_column : 1) + err.column - 1, "reveal: " + err.message);
                continue;
            }
        }
        for (const auto* p : m_step.reveal.placeholders())
            for (const auto& name : p->kept_names())
                if (!m_st.kept.count(name) && name != m_step.keep)
                    bad(e, "from(\"" + name + "\", ...) reads a state no earlier step keeps");
    }

    void finish_prediction()
    {
        if (!m_ask) {
            for (const block_entry* e : {m_choices, m_answer, m_tolerance})
                if (e) bad(*e, "there is no question: add `ask:` to this step");
            return;
        }
        if (!m_answer) {
            m_st.error(m_ask->line, 1, "ask: the question has no answer: add `answer:`");
            return;
        }
        prediction p;
        p.line = m_ask->line;
        p.question = m_ask->value;
        for (const auto& [more, line] : m_ask->more) p.question += "\n" + more;
        p.answer = joined(*m_answer);
        if (m_choices) {
            p.kind = answer_kind::choice;
            p.choices = split(joined(*m_choices), '|');
            if (p.choices.size() < 2
                || std::any_of(p.choices.begin(), p.choices.end(), [](auto& c) { return c.empty(); }))
                bad(*m_choices, "give two or more choices separated by |");
            if (std::count(p.choices.begin(), p.choices.end(), p.answer) != 1)
                bad(*m_answer, "'" + p.answer + "' is not one of the choices");
            if (m_tolerance) bad(*m_tolerance, "a tolerance applies to a number, not to choices");
        } else {
            auto n = parse_number(p.answer);
            if (!n) {
                bad(*m_answer, "without choices the answer is a number, not '" + p.answer + "'");
            } else {
                p.answer_number = *n;
                number_kind(p);
            }
            if (m_tolerance) {
                std::string t = joined(*m_tolerance);
                p.tolerance_pct = !t.empty() && t.back() == '%';
                if (p.tolerance_pct) t.pop_back();
                auto tol = parse_number(trim(t));
                if (!tol || *tol < 0)
                    bad(*m_tolerance, "expected a number or a percentage (5, 10%)");
                else
                    p.tolerance = *tol;
            }
        }
        m_step.predict = std::move(p);
    }

    // A number without a decimal point is whole ("63"); with one, a decimal with the digits written ("0.25": 2).
    // Written out, without an exponent: the box shows what the lesson wrote.
    void number_kind(prediction& p) const
    {
        if (p.answer.find_first_of("eE") != std::string::npos) {
            bad(*m_answer, "write the number out (0.001, not 1e-3): the answer box takes it as written");
            return;
        }
        const std::size_t dot = p.answer.find('.');
        if (dot == std::string::npos) {
            p.kind = answer_kind::whole_number;
            return;
        }
        p.kind = answer_kind::decimal;
        p.decimals = static_cast<int>(p.answer.size() - dot - 1);
        if (p.decimals == 0 || p.decimals > k_max_decimals)
            bad(*m_answer,
                "a decimal answer has 1 to " + std::to_string(k_max_decimals) + " digits after the point, not '"
                    + p.answer + "'");
    }
};

} // namespace

void apply_step_block(const std::vector<block_entry>& entries, step& s, lesson_state& st)
{
    block_reader(s, st).apply(entries);
}

} // namespace pcplab::lessons
