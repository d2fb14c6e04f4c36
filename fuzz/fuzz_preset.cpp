// libFuzzer target: a machine preset's JSON through the preset loader and, when it loads, the
// configuration step every front end runs next (era, switch defaults and overrides, engine config).
// Building and booting the machine is left out: that is the allocator, not a parser of outside input.
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <variant>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    auto loaded = pcplab::sim::parse_preset(text, "fuzz.json");
    if (auto* err = std::get_if<pcplab::error>(&loaded)) {
        (void)err->str();
        return 0;
    }
    const auto& spec = std::get<pcplab::mm::machine_spec>(loaded);
    auto cfg = pcplab::sim::make_machine_config(spec, {});
    if (auto* c = std::get_if<pcplab::sim::machine_config>(&cfg)) (void)pcplab::sim::engine_config_for(*c);
    return 0;
}
