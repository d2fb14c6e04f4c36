// pcplab-cli lessons check|list [DIR]: load the lesson files, and run every step's setup, run and checks
// without a window. Malformed lessons are reported on stderr (FILE:LINE:COL: message) and the others still run.
#include "args.hpp"
#include "commands.hpp"

#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_runner.hpp"

#include <cmath>
#include <cstdio>

namespace pcplab::cli
{

namespace
{

// Wall seconds, to a tenth: "0.8 s".
std::string seconds(double ms)
{
    return lessons::format_number(std::round(ms / 100) / 10) + " s";
}

std::string indented(const std::string& text, const std::string& pad)
{
    std::string s;
    for (char c : text) s += c == '\n' ? "\n" + pad : std::string(1, c);
    return s;
}

std::string figure_line(const lessons::figure_outcome& f)
{
    auto with_unit
        = [](double v, const std::string& u) { return lessons::format_number(v) + (u.empty() ? "" : " " + u); };
    std::string s = "    figure  " + f.label + ": paper " + (f.paper ? with_unit(*f.paper, f.paper_unit) : "-");
    s += ", simulated " + (f.simulated ? with_unit(*f.simulated, f.unit) : "[" + f.error + "]");
    return s + "\n";
}

std::string step_text(const lessons::step_outcome& o, bool verbose)
{
    std::string s = "  step " + std::to_string(o.index + 1) + "  " + o.title + " (line " + std::to_string(o.line) + ")";
    if (!o.used_machine) return s + "  - reading\n";
    s += o.passed() ? "  ok" : "  FAILED";
    s += "\n";
    if (o.booted || verbose) s += "    machine " + o.machine + "\n";
    if (!o.run.empty()) s += "    " + o.run + "\n";
    if (!o.error.empty()) s += "    ERROR  " + o.error + "\n";
    for (const auto& c : o.eval.checks)
        s += std::string("    ") + (c.passed ? "PASS" : "FAIL") + "  " + c.expr + "\n          " + c.detail + "\n";
    for (const auto& f : o.eval.figures) s += figure_line(f);
    if (!o.eval.reveal_complete || verbose) s += "    reveal  " + indented(o.eval.reveal, "            ") + "\n";
    return s;
}

bool selected(const lessons::lesson& l, const std::vector<std::string>& only)
{
    if (only.empty()) return true;
    for (const auto& o : only)
        if (l.id.rfind(o, 0) == 0) return true;
    return false;
}

void print_errors(const lessons::lesson_set& set)
{
    for (const auto& e : set.errors) std::fprintf(stderr, "%s\n", e.str().c_str());
}

// The lessons of `dir` (a folder, or one lesson file). A folder that cannot be read, or holds no lesson file,
// is a usage error: checking nothing must not pass.
lessons::lesson_set load_or_throw(const std::string& dir)
{
    auto set = lessons::load_lessons(dir);
    if (set.lessons.empty() && set.failed_files.empty()) {
        if (!set.errors.empty()) throw cli_error(set.errors.front().str());
        throw cli_error(dir + ": no lesson files (*.md) in this folder");
    }
    return set;
}

int lessons_check(const std::string& dir, const std::vector<std::string>& only, bool verbose)
{
    const auto set = load_or_throw(dir);
    std::string out = "lessons in " + dir + ": " + std::to_string(set.lessons.size()) + " loaded, "
        + std::to_string(set.failed_files.size()) + " malformed\n";
    std::size_t checks = 0, failed_checks = 0, failed_lessons = 0, run = 0;
    double wall = 0;
    for (const auto& l : set.lessons) {
        if (!selected(l, only)) continue;
        ++run;
        const auto r = lessons::run_lesson(l);
        wall += r.wall_ms;
        out += "\n" + l.id + "  " + l.title + "\n";
        for (const auto& st : r.steps) {
            out += step_text(st, verbose);
            for (const auto& c : st.eval.checks) {
                ++checks;
                failed_checks += c.passed ? 0 : 1;
            }
        }
        out += std::string("  ") + (r.passed() ? "PASS" : "FAIL") + " (" + std::to_string(r.steps.size()) + " steps, "
            + seconds(r.wall_ms) + ")\n";
        failed_lessons += r.passed() ? 0 : 1;
    }
    if (!only.empty() && run == 0) throw cli_error("lessons check: no lesson matches --only");
    out += "\n" + std::to_string(run) + " lesson(s), " + std::to_string(checks)
        + " checks: " + std::to_string(checks - failed_checks) + " passed, " + std::to_string(failed_checks)
        + " failed; " + std::to_string(failed_lessons) + " lesson(s) failed, " + std::to_string(set.failed_files.size())
        + " malformed file(s) (" + seconds(wall) + ")\n";
    write_stdout(out);
    print_errors(set);
    if (!set.errors.empty()) return 2;
    return failed_lessons ? 1 : 0;
}

int lessons_list(const std::string& dir)
{
    const auto set = load_or_throw(dir);
    std::string out;
    for (const auto& l : set.lessons) {
        std::size_t checks = 0;
        for (const auto& s : l.steps) checks += s.checks.size();
        char buf[512];
        std::snprintf(buf, sizeof buf, "%-22s %-4s %2zu steps %2zu checks  %s\n", l.id.c_str(),
            l.seed.empty() ? "-" : l.seed.c_str(), l.steps.size(), checks, l.title.c_str());
        out += buf;
    }
    write_stdout(out);
    print_errors(set);
    return set.errors.empty() ? 0 : 2;
}

} // namespace

std::string lessons_help()
{
    return "Usage: pcplab-cli lessons check [DIR|FILE] [--only ID,...] [--verbose]\n"
           "       pcplab-cli lessons list [DIR|FILE]\n\n"
           "The lesson files (Markdown with ```step blocks; see lessons/README.md) of DIR, or the one lesson FILE.\n"
           "DIR defaults to the installed lessons (share/pcplab/lessons), or the source tree's lessons/ in a\n"
           "build tree ($PCPLAB_LESSONS overrides it); a folder without lesson files is an error.\n\n"
           "  check          set up, run and check every step of every lesson without a window: each check\n"
           "                 with its values (PASS/FAIL), each figure beside the paper's number\n"
           "  list           one line per lesson: id, seed, steps, checks, title\n"
           "  --only ID,...  only the lessons whose file name starts with one of these (03, 08-capstone)\n"
           "  --verbose      every step's machine and rendered reveal text\n\n"
           "A malformed lesson is reported on stderr as FILE:LINE:COLUMN: message; the others still load.\n"
           "Exit status: 0 every check passed, 1 a check failed, 2 a malformed lesson or a usage error.\n";
}

int cmd_lessons(const std::vector<std::string>& args)
{
    if (args.empty()) throw cli_error("lessons: say check or list (see pcplab-cli help lessons)");
    const std::string& sub = args.front();
    std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "check") {
        auto a = parse_args("lessons check", rest, {{"--only", true, true}, {"--verbose", false}}, 1);
        std::vector<std::string> only;
        for (const auto& v : a.all("--only")) {
            std::size_t at = 0;
            while (at <= v.size()) {
                std::size_t comma = v.find(',', at);
                std::string id = v.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
                if (!id.empty()) only.push_back(id);
                if (comma == std::string::npos) break;
                at = comma + 1;
            }
        }
        return lessons_check(
            a.positional.empty() ? lessons::default_lessons_dir() : a.positional.front(), only, a.has("--verbose"));
    }
    if (sub == "list") {
        auto a = parse_args("lessons list", rest, {}, 1);
        return lessons_list(a.positional.empty() ? lessons::default_lessons_dir() : a.positional.front());
    }
    throw cli_error("lessons: unknown subcommand '" + sub + "' (check, list)");
}

} // namespace pcplab::cli
