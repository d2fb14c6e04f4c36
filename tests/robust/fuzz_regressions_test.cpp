// Every input in tests/fixtures/fuzz-regressions/ (what the fuzzers found, and hand-made hostile inputs)
// goes through the parser it broke, and through what the CLI runs next when it parses: no crash, no
// exception, and a refused input gets a one-line message that names the file.
#include "lessons/lesson_parser.hpp"
#include "lessons/lesson_runner.hpp"
#include "procfs/zoneinfo_check.hpp"
#include "procfs/zoneinfo_parse.hpp"
#include "session/compare.hpp"
#include "session/export.hpp"
#include "session/recording_reader.hpp"
#include "session/series.hpp"
#include "sim/machine_config.hpp"
#include "sim/preset.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <variant>
#include <vector>

using namespace pcplab;
namespace fs = std::filesystem;

namespace
{

std::vector<std::string> regressions(const std::string& target)
{
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(std::string(PCPLAB_TEST_FIXTURES) + "/fuzz-regressions/" + target))
        if (e.is_regular_file()) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

void require_one_line_naming(const std::string& message, const std::string& file)
{
    INFO(message);
    CHECK(message.find(file) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
    CHECK(message.size() > file.size() + 2); // the file and a problem
}

// A copy of `f` in the temporary directory: opening a recording read-write may fold a write-ahead log into it.
std::string scratch_copy(const std::string& f)
{
    const fs::path copy
        = fs::temp_directory_path() / ("pcplab-" + std::to_string(::getpid()) + "-" + fs::path(f).filename().string());
    fs::copy_file(f, copy, fs::copy_options::overwrite_existing);
    return copy.string();
}

} // namespace

TEST_CASE("zoneinfo fuzz regressions are parsed or refused cleanly")
{
    const auto files = regressions("fuzz_zoneinfo");
    REQUIRE(files.size() >= 5);
    for (const auto& f : files) {
        INFO(f);
        procfs::zoneinfo_result r;
        REQUIRE_NOTHROW(r = procfs::load_zoneinfo_file(f));
        if (auto* err = std::get_if<pcplab::error>(&r)) {
            require_one_line_naming(err->str(), f);
            continue;
        }
        const auto& doc = std::get<procfs::zoneinfo_doc>(r);
        REQUIRE_FALSE(doc.zones.empty());
        procfs::check_report rep;
        REQUIRE_NOTHROW(rep = procfs::check_zoneinfo(doc, {}));
        CHECK(rep.total == rep.matched + rep.explained + rep.mismatched);
        CHECK_FALSE(rep.text().empty());
    }
}

TEST_CASE("preset fuzz regressions are loaded or refused cleanly")
{
    const auto files = regressions("fuzz_preset");
    REQUIRE(files.size() >= 5);
    for (const auto& f : files) {
        INFO(f);
        sim::preset_result r;
        REQUIRE_NOTHROW(r = sim::load_preset_file(f));
        if (auto* err = std::get_if<pcplab::error>(&r)) {
            require_one_line_naming(err->str(), f);
            continue;
        }
        sim::config_result cfg;
        REQUIRE_NOTHROW(cfg = sim::make_machine_config(std::get<mm::machine_spec>(r), {}));
        if (auto* err = std::get_if<pcplab::error>(&cfg)) CHECK_FALSE(err->str().empty());
    }
}

TEST_CASE("a number too large for a double is a preset error on its line, not an internal error")
{
    const std::string f = std::string(PCPLAB_TEST_FIXTURES) + "/fuzz-regressions/fuzz_preset/number_overflow_1e400";
    auto r = sim::load_preset_file(f);
    REQUIRE(std::holds_alternative<pcplab::error>(r));
    CHECK(std::get<pcplab::error>(r).str() == f + ":2: number overflow parsing '1e400'");
}

TEST_CASE("lesson fuzz regressions are loaded or refused cleanly")
{
    const auto files = regressions("fuzz_lesson");
    REQUIRE(files.size() >= 5);
    for (const auto& f : files) {
        INFO(f);
        lessons::lesson_result r;
        REQUIRE_NOTHROW(r = lessons::load_lesson_file(f));
        if (auto* errs = std::get_if<std::vector<pcplab::error>>(&r)) {
            REQUIRE_FALSE(errs->empty());
            for (const auto& e : *errs) require_one_line_naming(e.str(), f);
            continue;
        }
        // As the fuzz target runs it: set up, run (bounded) and evaluate every step.
        lessons::run_bounds bounds;
        bounds.node_gib = 0.25;
        bounds.run_ns = 20'000;
        REQUIRE_NOTHROW(lessons::run_lesson(std::get<lessons::lesson>(r), bounds));
    }
}

TEST_CASE("recording fuzz regressions are read whole or refused cleanly")
{
    const auto files = regressions("fuzz_recording");
    REQUIRE(files.size() >= 2);
    for (const auto& f : files) {
        INFO(f);
        const std::string copy = scratch_copy(f);
        try {
            session::recording rec(copy);
            for (const auto& r : rec.runs()) {
                (void)rec.load_all(r.run);
                for (const auto& s : session::all_series()) (void)session::read_series(rec, r.run, s);
                (void)session::export_trace(rec, r.run);
                (void)session::export_procfs(rec, r.run, "zoneinfo");
                (void)session::export_lockstat(rec, r.run);
            }
            (void)session::export_csv(rec, "");
            (void)session::compare_inputs_from(rec);
        } catch (const session::recording_error& e) {
            require_one_line_naming(e.what(), copy);
        }
        for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(copy + suffix);
    }
}

TEST_CASE("a recording that fails SQLite's integrity check is refused, not read with other values")
{
    const std::string f
        = std::string(PCPLAB_TEST_FIXTURES) + "/fuzz-regressions/fuzz_recording/damaged_index_exported_other_values.db";
    const std::string copy = scratch_copy(f);
    try {
        session::recording rec(copy);
        FAIL("opened a damaged recording");
    } catch (const session::recording_error& e) {
        CHECK(std::string(e.what()).find("damaged recording (SQLite's integrity check: ") != std::string::npos);
    }
    fs::remove(copy);
}
