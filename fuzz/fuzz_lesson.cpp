// libFuzzer target: a lesson file (Markdown front block, "## " steps, ```step blocks, check/figure expressions
// and {{ }} templates) through the lesson parser, which resolves each step's setup as the runner will, and then
// through the headless runner as `pcplab-cli lessons check` runs it: every setup built into an engine and booted,
// its flips and sysctl writes applied, its checks, figures and reveal templates evaluated on the state. Bounded
// so that an execution stays short: every machine at most a quarter GiB per node, every run at most 20 virtual
// microseconds.
#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_runner.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto r = pcplab::lessons::parse_lesson(text, "fuzz.md");
    if (auto* errs = std::get_if<std::vector<pcplab::error>>(&r)) {
        for (const auto& e : *errs) (void)e.str();
        return 0;
    }
    pcplab::lessons::run_bounds bounds;
    bounds.node_gib = 0.25;
    bounds.run_ns = 20'000;
    const auto outcome = pcplab::lessons::run_lesson(std::get<pcplab::lessons::lesson>(r), bounds);
    (void)outcome.passed();
    return 0;
}
