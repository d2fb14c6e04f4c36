// libFuzzer target: a lesson file (Markdown front block, "## " steps, ```step blocks, check/figure
// expressions and {{ }} templates) through the lesson parser, which also resolves each step's setup
// (preset, era, switches, workload) the way the runner will. Running the steps is left out.
#include "lessons/lesson_parser.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto r = pcplab::lessons::parse_lesson(text, "fuzz.md");
    if (auto* errs = std::get_if<std::vector<pcplab::lessons::lesson_error>>(&r))
        for (const auto& e : *errs) (void)e.str();
    return 0;
}
