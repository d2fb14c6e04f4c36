#include "base/error.hpp"

#include "io/text_file.hpp"
#include "sim/preset.hpp"

#include <catch2/catch.hpp>

using namespace pcplab;

TEST_CASE("an error names its input, then the line and column or the field, then the problem")
{
    CHECK(error("no expression").str() == "no expression");
    CHECK(error::in("--era", "'x' is not a kernel version").str() == "--era: 'x' is not a kernel version");
    CHECK(error::in("bad.md", "unknown key").at(12, 3).str() == "bad.md:12:3: unknown key");
    CHECK(error::in("zi.txt", "cut short").at(40).str() == "zi.txt:40: cut short");
    CHECK(error::in("p.json", "must be an integer").in_field("nodes[0].cpus").str()
        == "p.json: nodes[0].cpus: must be an integer");
    // A column without a line (a one-line condition) is kept for the caller, not printed as if it were a line.
    CHECK(error("unexpected character '$'").at_column(7).str() == "unexpected character '$'");
}

TEST_CASE("result holds the value or the error, status nothing or the error, failure throws the error")
{
    result<int> seven = 7;
    CHECK(seven.ok());
    CHECK(seven.value() == 7);
    result<int> none = error("no value");
    CHECK_FALSE(none);
    CHECK(none.error().message == "no value");
    CHECK(std::get_if<error>(&none) != nullptr); // still a std::variant underneath

    status done;
    CHECK(done.ok());
    CHECK(done.message().empty());
    status refused = error("vm.x: 3 is invalid");
    CHECK_FALSE(refused);
    CHECK(refused.message() == "vm.x: 3 is invalid");

    try {
        throw failure(error::in("off.db", "not a pcplab recording"));
    } catch (const std::exception& e) {
        CHECK(std::string(e.what()) == "off.db: not a pcplab recording");
        const auto* f = dynamic_cast<const failure*>(&e);
        REQUIRE(f != nullptr);
        CHECK(f->error().source == "off.db");
    }
}

TEST_CASE("input files fail with the same error type: a missing preset names its path and the problem")
{
    const auto text = io::read_text_file("/nonexistent/pcplab/x.json", 1024);
    REQUIRE_FALSE(text.ok());
    CHECK(text.error().message.rfind("cannot open: ", 0) == 0);
    const auto preset = sim::load_preset("/nonexistent/pcplab/x.json");
    REQUIRE_FALSE(preset.ok());
    CHECK(preset.error().source == "/nonexistent/pcplab/x.json");
    CHECK(preset.error().str().rfind("/nonexistent/pcplab/x.json: cannot read the preset: cannot open: ", 0) == 0);
}
