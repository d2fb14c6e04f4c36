// Input files that are not files of the expected kind: a directory, a device that never ends, a file far
// too large, a missing one. Each loader answers with one line naming the file, promptly.
#include "io/text_file.hpp"
#include "procfs/zoneinfo_parse.hpp"
#include "sim/preset.hpp"

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <variant>

using namespace pcplab;

TEST_CASE("read_text_file refuses directories, missing files and endless devices, and reads /proc files")
{
    auto dir = io::read_text_file("/", 1 << 20);
    REQUIRE(std::holds_alternative<pcplab::error>(dir));
    CHECK(std::get<pcplab::error>(dir).message == "is a directory, not a file");

    auto missing = io::read_text_file("/nonexistent/pcplab", 1 << 20);
    REQUIRE(std::holds_alternative<pcplab::error>(missing));
    CHECK(std::get<pcplab::error>(missing).message.find("No such file") != std::string::npos);

    auto endless = io::read_text_file("/dev/zero", 1 << 20);
    REQUIRE(std::holds_alternative<pcplab::error>(endless));
    CHECK(std::get<pcplab::error>(endless).message.find("larger than 1 MiB") != std::string::npos);

    // /proc files report size 0 and must still be read to their end.
    auto status = io::read_text_file("/proc/self/status", 1 << 20);
    REQUIRE(std::holds_alternative<std::string>(status));
    CHECK(std::get<std::string>(status).find("VmRSS") != std::string::npos);

    auto exact = io::read_text_file("/proc/self/status", std::get<std::string>(status).size() / 2);
    CHECK(std::holds_alternative<pcplab::error>(exact));
}

TEST_CASE("the zoneinfo and preset loaders name a directory, a device and an oversized file as such")
{
    const std::string tmp = std::filesystem::temp_directory_path() / "pcplab_bad_files_test";
    std::filesystem::create_directories(tmp);
    const std::string big = tmp + "/big.json";
    {
        std::ofstream out(big);
        out << "{\"description\": \"" << std::string(2u << 20, 'x') << "\"}";
    }

    auto z_dir = procfs::load_zoneinfo_file(tmp);
    REQUIRE(std::holds_alternative<pcplab::error>(z_dir));
    CHECK(std::get<pcplab::error>(z_dir).str() == tmp + ": is a directory, not a file");
    auto z_dev = procfs::load_zoneinfo_file("/dev/zero");
    REQUIRE(std::holds_alternative<pcplab::error>(z_dev));
    CHECK(std::get<pcplab::error>(z_dev).str().rfind("/dev/zero: is larger than", 0) == 0);

    auto p_dir = sim::load_preset_file(tmp);
    REQUIRE(std::holds_alternative<pcplab::error>(p_dir));
    CHECK(std::get<pcplab::error>(p_dir).str() == tmp + ": cannot read the preset: is a directory, not a file");
    auto p_big = sim::load_preset_file(big);
    REQUIRE(std::holds_alternative<pcplab::error>(p_big));
    CHECK(std::get<pcplab::error>(p_big).str().find("is larger than 1 MiB") != std::string::npos);
    auto p_dev = sim::load_preset("/dev/zero");
    REQUIRE(std::holds_alternative<pcplab::error>(p_dev));
    CHECK(std::get<pcplab::error>(p_dev).str().find("is larger than") != std::string::npos);

    std::filesystem::remove_all(tmp);
}
