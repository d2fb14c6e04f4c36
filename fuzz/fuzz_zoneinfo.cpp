// libFuzzer target: /proc/zoneinfo text through the parser and, when it parses, the checker that
// `pcplab-cli check-zoneinfo` runs on it (era detection, CPU inference, the formulas, the report text).
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto parsed = pcplab::procfs::parse_zoneinfo(text, "fuzz");
    if (auto* err = std::get_if<pcplab::error>(&parsed)) {
        (void)err->str();
        return 0;
    }
    const auto& doc = std::get<pcplab::procfs::zoneinfo_doc>(parsed);
    (void)doc.nr_cpus();
    (void)doc.nr_nodes();
    pcplab::procfs::check_options opt;
    (void)pcplab::procfs::check_zoneinfo(doc, opt).text();
    return 0;
}
