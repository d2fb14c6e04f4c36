// The key figures' verdicts: a change is better or worse per unit of work, and neither where that is not
// defined. In classroom A/B, B without seed 000's fix did more work with less sys time in total; its longest
// hold was shorter. Neither may paint the fix as harmful.
#include "ui/window/delta_panel.hpp"
#include "ui/window/key_figures.hpp"

#include <QApplication>
#include <QLabel>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
sim::snapshot machine(double sys_ms, double user_ms, double work, double longest_hold_us, double contention)
{
    sim::snapshot s;
    s.sim_time_ns = 1'000'000'000;
    s.cpus.resize(1);
    s.cpus[0].sys_ns = static_cast<std::uint64_t>(sys_ms * 1e6);
    s.cpus[0].user_ns = static_cast<std::uint64_t>(user_ms * 1e6);
    s.score.work_units = work;
    s.zones.resize(1);
    s.zones[0].lock.m.hold_ns_max = static_cast<std::uint64_t>(longest_hold_us * 1e3);
    s.zones[0].lock.contention_pct = contention;
    return s;
}

const figure_change& row(const std::vector<figure_change>& f, const char* label)
{
    for (const auto& c : f)
        if (c.label == QLatin1String(label)) return c;
    FAIL("no figure " << label);
    return f.front();
}
// A row of a temporary list would dangle (ASan caught one in CI): hold the list first.
const figure_change& row(std::vector<figure_change>&&, const char*) = delete;
} // namespace

TEST_CASE("B is judged per unit of work: more total sys time for much more work is better, not worse")
{
    // B: 10% more sys time in total, but 47% more work: less sys time per unit of work.
    const sim::snapshot a = machine(100, 1000, 100, 400, 5);
    const sim::snapshot b = machine(110, 1470, 147, 80, 3);
    const auto f = compare_figures(a, &b);
    CHECK(row(f, "sys time / work").verdict == 1);
    CHECK(row(f, "work done").verdict == 1);
    CHECK(row(f, "contention %").verdict == 1);
    // Neither better nor worse: user time follows the work, a shorter longest hold may mean more holds.
    CHECK(row(f, "user time").verdict == 0);
    CHECK(row(f, "longest hold").verdict == 0);
    CHECK(row(f, "longest hold").change.startsWith(QLatin1Char('-'))); // the change is still shown

    // The other way round: worse per unit of work is red even when the total is lower.
    const sim::snapshot c = machine(90, 500, 50, 400, 5);
    const auto g = compare_figures(a, &c);
    CHECK(row(g, "sys time / work").verdict == -1);
    CHECK(row(g, "work done").verdict == -1);
}

TEST_CASE("figures per unit of work wait for the first work unit")
{
    const sim::snapshot a = machine(100, 0, 0, 10, 0);
    const auto f = compare_figures(a, &a);
    CHECK(row(f, "sys time / work").a == QStringLiteral("-"));
    CHECK(row(f, "sys time / work").verdict == 0);
}

TEST_CASE("the key-figures legend keeps every line of its text in a narrow dock", "[ui][window]")
{
    // The dock's width at 1280x800 (the controls' width), and only as high as the panel's minimum: a wrapped
    // legend got one line there, its other lines cut off.
    ui::delta_panel panel;
    panel.resize(330, 200);
    panel.show();
    panel.resize(330, panel.minimumSizeHint().height());
    QApplication::processEvents();
    QLabel* legend = panel.legend();
    REQUIRE(legend);
    const int needed
        = legend->hasHeightForWidth() ? legend->heightForWidth(legend->width()) : legend->sizeHint().height();
    INFO("legend " << legend->width() << "x" << legend->height() << ", its text needs " << needed << " px");
    CHECK(needed > QFontMetrics(legend->font()).height()); // more than a line
    CHECK(legend->height() >= needed);
    CHECK(legend->width() >= legend->sizeHint().width());
}

TEST_CASE("before any work is done, the per-work figures and 0 vs 0 tell nothing (the presenter strip leaves them out)")
{
    const sim::snapshot a = machine(10, 100, 0, 2.4, 77);
    const sim::snapshot b = machine(12, 105, 0, 9.9, 47);
    const auto f = compare_figures(a, &b);
    CHECK_FALSE(row(f, "sys time / work").telling);
    CHECK_FALSE(row(f, "work done").telling);
    CHECK(row(f, "contention %").telling);
    CHECK(row(f, "longest hold").telling);
    const auto alone = compare_figures(a, nullptr);
    CHECK_FALSE(row(alone, "sys time / work").telling);
    CHECK(row(alone, "work done").telling); // A alone: its 0 is a value
    // Once both did work, every headline figure tells.
    const sim::snapshot a2 = machine(10, 100, 5, 2.4, 77), b2 = machine(12, 105, 6, 9.9, 47);
    for (const auto& c : compare_figures(a2, &b2))
        if (c.headline) CHECK(c.telling);
}

TEST_CASE("deferred init is a key figure where a machine has one, and a headline only where A and B differ")
{
    // Story 004's presenter strip read "+0.0 %" four times: its workload is the boot, and the figure that differs
    // (the modelled deferred init, 167.8 ms against 19.3 ms) was not among the key figures.
    sim::snapshot a = machine(10, 100, 5, 2.4, 7), b = machine(10, 100, 5, 2.4, 7);
    const sim::snapshot none = a;
    a.deferred_init.push_back({});
    a.deferred_init.back().modelled_ms = 167.8;
    a.deferred_init.push_back({});
    a.deferred_init.back().modelled_ms = 150.0;
    b.deferred_init.push_back({});
    b.deferred_init.back().modelled_ms = 19.3;
    const auto f = compare_figures(a, &b);
    const figure_change& d = row(f, "deferred init");
    CHECK(d.a == QStringLiteral("167.8 ms")); // the slowest node
    CHECK(d.verdict == 1);
    CHECK(d.headline);
    CHECK(d.telling);
    // Both sides alike (stories 000-003): not in the strip.
    const auto alike = compare_figures(a, &a);
    CHECK_FALSE(row(alike, "deferred init").headline);
    // No deferred init at all: no value, nothing told.
    const auto neither = compare_figures(none, &none);
    const figure_change& n = row(neither, "deferred init");
    CHECK(n.a == QStringLiteral("-"));
    CHECK_FALSE(n.telling);
}
