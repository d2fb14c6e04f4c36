// The zone each per-zone view shows is chosen in the view's own header: by default the Normal zones of every node
// (so that a two-node machine's second node is seen), kept through the snapshots of a boot, which carry no zones
// yet (the limits and rates views used to switch to an empty "node 0 DMA" chart there), and through a reboot.
#include "views_harness.hpp"

#include "ui/views/limits_view.hpp"
#include "ui/views/locks_view.hpp"
#include "ui/views/pcp_view.hpp"
#include "ui/views/rates_view.hpp"

#include "support/small_machine.hpp"

#include "sim/snapshot_builder.hpp"

#include "mm/mm_types.hpp"

#include <catch2/catch.hpp>

#include <QApplication>

using namespace pcplab;
using test::stepped_machine;

namespace
{

constexpr sim::vtime_ns ms = 1'000'000;

void draw(ui::view* v, const ui::frame& f)
{
    v->show_frame(f);
    QApplication::processEvents();
    v->grab();
}

// A frame as the window has it while a machine boots: a snapshot without zones (sim::build_boot_snapshot).
ui::frame boot_frame(stepped_machine& m, const ui::history& h)
{
    sim::snapshot_cursor cur;
    sim::snapshot_context ctx;
    ctx.state = sim::run_state::booting;
    ui::frame f;
    f.a = sim::build_boot_snapshot(m.engine(), sim::boot_frame{}, cur, ctx);
    f.ha = &h;
    return f;
}

} // namespace

TEST_CASE("each per-zone view shows every node's Normal zone by default and keeps its zone through a boot",
    "[ui][views][zones]")
{
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(2, 4, 6);
    stepped_machine m(cfg);
    m.advance(ms);
    m.advance(ms);
    const ui::frame f = test::make_frame(m);

    ui::limits_view limits;
    ui::rates_view rates;
    ui::pcp_view pcp;
    ui::locks_view locks;
    for (ui::view* v : std::initializer_list<ui::view*>{&limits, &rates, &pcp, &locks}) {
        v->resize(900, 600);
        v->show();
        draw(v, f);
    }
    const ui::zone_choice all_normal{-1, mm::ZONE_NORMAL};
    CHECK(limits.picker()->choice() == all_normal);
    CHECK(rates.picker()->choice() == all_normal);
    CHECK(pcp.picker()->choice() == all_normal);
    CHECK(locks.picker()->choice() == all_normal);
    REQUIRE(limits.zone_plots() == 2);
    CHECK(limits.zone_plot_label(0) == QStringLiteral("node 0 Normal"));
    CHECK(limits.zone_plot_label(1) == QStringLiteral("node 1 Normal"));

    // A reboot: the window hands the views the boot's snapshots (no zones), then the new machine's.
    ui::history booting;
    const ui::frame bf = boot_frame(m, booting);
    REQUIRE(bf.a->zones.empty());
    for (ui::view* v : std::initializer_list<ui::view*>{&limits, &rates, &pcp, &locks}) {
        v->reset();
        draw(v, bf);
    }
    CHECK(limits.picker()->choice() == all_normal);
    m.reboot();
    m.advance(ms);
    m.advance(ms);
    const ui::frame f2 = test::make_frame(m);
    for (ui::view* v : std::initializer_list<ui::view*>{&limits, &rates, &pcp, &locks}) draw(v, f2);
    REQUIRE(limits.zone_plots() == 2);
    CHECK(limits.zone_plot_label(0) == QStringLiteral("node 0 Normal"));
    CHECK(rates.picker()->choice() == all_normal);

    // The user's choice (node 1 only) stays through the next boot.
    limits.picker()->choose({1, mm::ZONE_NORMAL});
    REQUIRE(limits.zone_plots() == 1);
    CHECK(limits.zone_plot_label(0) == QStringLiteral("node 1 Normal"));
    limits.reset();
    draw(&limits, bf);
    m.reboot();
    m.advance(ms);
    m.advance(ms);
    draw(&limits, test::make_frame(m));
    REQUIRE(limits.zone_plots() == 1);
    CHECK(limits.zone_plot_label(0) == QStringLiteral("node 1 Normal"));
}

TEST_CASE("the rates view's contention is a share of time: at most 100 %, the whole run's figure on average",
    "[ui][views][zones]")
{
    // One node of 32 CPUs: a zone->lock that many CPUs queue for at once.
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(1, 32, 6);
    stepped_machine m(cfg);
    for (int i = 0; i < 400; ++i) m.advance(ms / 40);
    ui::rates_view v;
    v.resize(900, 600);
    v.show();
    draw(&v, test::make_frame(m));
    const sim::snapshot& s = *m.last();
    const int zi = s.zone_index(0, mm::ZONE_NORMAL);
    REQUIRE(zi >= 0);
    REQUIRE(s.zone_at(zi).lock.contention_pct > 1.0);
    CHECK(v.contention_max() <= 100.0);
    CHECK(v.contention_max() >= s.zone_at(zi).lock.contention_pct);
    // The header's figure is the same quantity over the whole run.
    CHECK(v.header_text().contains(
        QStringLiteral("zone->lock contention %1 %").arg(s.zone_at(zi).lock.contention_pct, 0, 'f', 1)));
}

TEST_CASE("B's lines appear when B's engine publishes its zones after A's (the pair boots on two threads)",
    "[ui][views][zones]")
{
    // Seen at 1280x800 on a loaded host: the limits view drew B's markers and header values but none of B's
    // lines, because its layout was built while B's snapshot had no zones yet and was never rebuilt.
    auto cfg = test::preset_engine_config("classroom");
    cfg.spec = test::small_spec(2, 4, 6);
    stepped_machine a(cfg);
    stepped_machine b(cfg, 1);
    for (int i = 0; i < 4; ++i) a.advance(ms);

    ui::history b_booting;
    ui::frame early = test::make_frame(a);
    const ui::frame bf = boot_frame(b, b_booting);
    early.b = bf.a;
    early.hb = &b_booting;
    REQUIRE(early.b->zones.empty());

    ui::limits_view limits;
    ui::rates_view rates;
    for (ui::view* v : std::initializer_list<ui::view*>{&limits, &rates}) {
        v->resize(900, 600);
        v->show();
        draw(v, early);
    }
    REQUIRE(limits.zone_plots() == 2);
    CHECK(limits.high_points(0, 1) == 0);

    for (int i = 0; i < 4; ++i) b.advance(ms);
    a.advance(ms);
    const ui::frame both = test::make_frame(a, &b);
    for (ui::view* v : std::initializer_list<ui::view*>{&limits, &rates}) draw(v, both);
    REQUIRE(limits.zone_plots() == 2);
    for (int i = 0; i < 2; ++i) {
        CHECK(limits.high_points(i, 0) > 0);
        CHECK(limits.high_points(i, 1) > 0);
    }
    CHECK(rates.contention_points(0) > 0);
    CHECK(rates.contention_points(1) > 0);
}
