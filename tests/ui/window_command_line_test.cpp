// `pcplab` flags: the screenshot options parse, a bad flag is refused with a message naming it, and a screenshot
// of a running machine is written.
#include "window_test_support.hpp"

#include "ui/window/command_line.hpp"
#include "ui/window/screenshot.hpp"
#include "ui/window/view_area.hpp"

#include "lessons/seed_stories.hpp"
#include "mm/patch_switches.hpp"
#include "sim/seed_reference.hpp"
#include "sim/workload.hpp"

#include <QImage>

#include <catch2/catch.hpp>

#include <set>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
std::string error_of(const QStringList& args)
{
    auto r = parse_command_line(args);
    auto* e = std::get_if<std::string>(&r);
    return e ? *e : std::string();
}

command_line parsed(const QStringList& args)
{
    auto r = parse_command_line(args);
    if (auto* e = std::get_if<std::string>(&r)) FAIL("unexpected error: " << *e);
    return std::get<command_line>(r);
}
} // namespace

TEST_CASE("the screenshot options parse into a screenshot request", "[ui][window][cli]")
{
    const command_line cl = parsed({"--screenshot", "/tmp/x.png", "--preset", "epyc2-256", "--era", "v5.4", "--run-for",
        "250ms", "--view", "limits", "--ab", "--patch", "batched-bulk-free=on", "--patch-b",
        "pcp-update-after-deferred-init=off", "--timeout=30s", "--size", "1280x800", "--theme", "dark", "--presenter"});
    CHECK(cl.action == cli_action::screenshot);
    CHECK(cl.screenshot_file == QStringLiteral("/tmp/x.png"));
    CHECK(cl.run_for_ns == 250'000'000);
    CHECK(cl.timeout == std::chrono::milliseconds(30'000));
    CHECK(cl.size == QSize(1280, 800));
    CHECK(cl.win.preset == std::optional<std::string>("epyc2-256"));
    CHECK(cl.win.era == std::optional<std::string>("v5.4"));
    CHECK(cl.win.view == QStringLiteral("limits"));
    CHECK(cl.win.ab);
    CHECK(cl.win.presenter);
    CHECK(cl.win.theme == theme_kind::dark);
    REQUIRE(cl.win.patches.size() == 1);
    CHECK(cl.win.patches[0].p == mm::patch::batched_bulk_free);
    CHECK(cl.win.patches[0].on);
    REQUIRE(cl.win.patches_b.size() == 1);
    CHECK_FALSE(cl.win.patches_b[0].on);
    CHECK_FALSE(cl.win.use_settings); // screenshots never read or write the user's settings

    CHECK(parsed({}).action == cli_action::run);
    CHECK(parsed({"--help"}).action == cli_action::help);
    CHECK(parsed({"--version"}).action == cli_action::version);
    CHECK(parsed({"-h"}).action == cli_action::help);
    CHECK(parsed({"-v"}).action == cli_action::version);
    CHECK(parsed({"-platform", "offscreen", "--preset", "classroom"}).win.preset
        == std::optional<std::string>("classroom"));
    CHECK(parse_duration(QStringLiteral("5s")) == std::optional<std::uint64_t>(5'000'000'000));
    CHECK(parse_duration(QStringLiteral("1.5ms")) == std::optional<std::uint64_t>(1'500'000));
    CHECK(parse_duration(QStringLiteral("2")) == std::optional<std::uint64_t>(2'000'000'000));
    CHECK_FALSE(parse_duration(QStringLiteral("0s")));
    CHECK_FALSE(parse_duration(QStringLiteral("5x")));
}

TEST_CASE("a bad pcplab flag is refused with one line that names it", "[ui][window][cli]")
{
    struct bad {
        QStringList args;
        std::string names;
    };
    const std::vector<bad> cases = {
        {{"--screenshot", "x.png", "--bogus"}, "--bogus"},
        {{"--screenshot"}, "--screenshot"},
        {{"--screenshot", "x.png", "--run-for", "5x"}, "--run-for"},
        {{"--screenshot", "x.png", "--run-for", "0s"}, "--run-for"},
        {{"--screenshot", "x.png", "--timeout", "soon"}, "--timeout"},
        {{"--screenshot", "x.png", "--size", "10x10"}, "--size"},
        {{"--preset", "no-such-machine"}, "--preset"},
        {{"--era", "banana"}, "--era"},
        {{"--patch", "no-such-switch=on"}, "--patch"},
        {{"--patch", "batched-bulk-free=maybe"}, "--patch"},
        {{"--view", "nope"}, "--view"},
        {{"--theme", "purple"}, "--theme"},
        {{"--workload", "chess"}, "--workload"},
        {{"--seed", "-3"}, "--seed"},
        {{"--speed", "fast"}, "--speed"},
        {{"--run-for", "5s"}, "--run-for"}, // only with --screenshot
        {{"--patch-b", "batched-bulk-free=on"}, "--patch-b"}, // only with --ab
        {{"--ab=yes"}, "--ab"},
        {{"--preset", "classroom", "--seed"}, "--seed"},
        {{"--preset", "classroom", "stray"}, "stray"},
    };
    for (const auto& c : cases) {
        INFO(c.args.join(QLatin1Char(' ')).toStdString());
        const std::string e = error_of(c.args);
        CHECK(e.find(c.names) != std::string::npos);
        CHECK(e.find('\n') == std::string::npos);
    }
}

TEST_CASE("a screenshot is taken at the virtual time asked for", "[ui][window][cli]")
{
    test::sandbox box;
    window_options o = box.options();
    o.use_settings = false;
    main_window w(o);
    screenshot_request r;
    r.file = box.dir.filePath(QStringLiteral("shot.png"));
    r.run_for_ns = 30'000'000;
    r.size = QSize(1200, 800);
    REQUIRE(take_screenshot(w, r).isEmpty());
    // Paused exactly at the first quantum boundary at or after 30 ms.
    const auto a = w.source()->latest_a();
    CHECK(a->state == sim::run_state::paused);
    CHECK(a->boundary_ns == 30'000'000);
    QImage img(r.file);
    REQUIRE(!img.isNull());
    CHECK(img.width() >= 1200);
    std::set<QRgb> colours;
    for (int y = 0; y < img.height(); y += 7)
        for (int x = 0; x < img.width(); x += 7) colours.insert(img.pixel(x, y));
    CHECK(colours.size() > 20); // a drawn window, not a blank surface

    screenshot_request late = r;
    late.run_for_ns = 3600ULL * 1'000'000'000ULL;
    late.timeout = std::chrono::milliseconds(300);
    const QString err = take_screenshot(w, late);
    CHECK(err.contains(QStringLiteral("--run-for")));
    CHECK(err.contains(QStringLiteral("timeout")));
}

TEST_CASE("the --view option keeps that one view filling the window through the boot and into the screenshot",
    "[ui][window][cli]")
{
    test::sandbox box;
    window_options o = box.options();
    o.use_settings = false;
    o.view = QStringLiteral("limits");
    main_window w(o);
    screenshot_request r;
    r.file = box.dir.filePath(QStringLiteral("limits.png"));
    r.run_for_ns = 5'000'000;
    REQUIRE(take_screenshot(w, r).isEmpty());
    CHECK(w.views()->focus_view() == QStringLiteral("limits"));
    CHECK(w.views()->find(QStringLiteral("limits"))->isVisible());
    CHECK_FALSE(w.views()->find(QStringLiteral("pcp"))->isVisible());
    CHECK_FALSE(w.views()->find(QStringLiteral("deferred"))->isVisible());
}

TEST_CASE("pcplab --help names every switch, workload and story the program knows", "[window][cli]")
{
    // The help was once a literal list that fell behind when a switch and a workload were added.
    const QString help = usage_text();
    for (const auto& d : mm::patch_table())
        CHECK(help.contains(QString::fromUtf8(d.name.data(), qsizetype(d.name.size()))));
    for (const std::string& w : sim::workload_names()) CHECK(help.contains(QString::fromStdString(w)));
    CHECK(help.contains(QString::fromStdString(lessons::seed_stories().back().seed->id)));
    for (const QString& line : help.split(QLatin1Char('\n'))) CHECK(line.size() <= 110);
}
