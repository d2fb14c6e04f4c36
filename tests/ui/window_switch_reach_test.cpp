// A switch that cannot act on the machine is greyed with the reason; one that acts only at the next boot says
// so and offers the reboot (sim::reach_of_flip is the one answer the table shows).
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"
#include "ui/window/switch_table.hpp"
#include "ui/window/window_status.hpp"

#include <QCheckBox>
#include <QLabel>
#include <QPushButton>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{
QLabel* note_of(main_window& w, mm::patch p)
{
    return w.controls()->switches()->findChild<QLabel*>(
        QStringLiteral("switch-note-%1").arg(QString::fromLatin1(mm::patch_name(p).data())));
}

// Some label of the table links the lesson file (its tooltip names the path).
bool links_lesson(switch_table* t, const char* lesson_path)
{
    for (QLabel* l : t->findChildren<QLabel*>())
        if (l->toolTip().contains(QString::fromLatin1(lesson_path))) return true;
    return false;
}
// On era `era` the switch is off and greyed, its tooltip naming `why`.
void check_greyed_off(mm::patch p, const char* era, const char* why)
{
    test::running_window rw([era](window_options& o) { o.era = era; });
    REQUIRE(rw.started);
    QCheckBox* b = rw.w->controls()->switches()->box(sim::command_target::a, p);
    CHECK_FALSE(b->isChecked());
    CHECK_FALSE(b->isEnabled());
    CHECK_THAT(b->toolTip().toStdString(), Catch::Contains(why));
}
} // namespace

TEST_CASE("on the classroom machine parallel-deferred-init is greyed with the reason, and 000 offers a reboot",
    "[ui][window][switches]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    switch_table* t = w.controls()->switches();
    // 4 CPUs per node on v5.4: one init thread with the switch on as without it.
    QCheckBox* pdi = t->box(sim::command_target::a, mm::patch::parallel_deferred_init);
    CHECK_FALSE(pdi->isEnabled());
    CHECK_THAT(pdi->toolTip().toStdString(), Catch::Contains("4 CPUs per node"));
    QLabel* note = note_of(w, mm::patch::parallel_deferred_init);
    REQUIRE(note);
    CHECK_THAT(note->text().toStdString(), Catch::Contains("Cannot act here"));
    // Auto-tuning cannot be turned on before v5.14.
    CHECK_FALSE(t->box(sim::command_target::a, mm::patch::pcp_high_autotune)->isEnabled());
    // The free_high threshold has nothing to change before v6.7's free_count.
    QCheckBox* fh = t->box(sim::command_target::a, mm::patch::free_high_batch_plus_high_min);
    CHECK_FALSE(fh->isEnabled());
    CHECK_THAT(fh->toolTip().toStdString(), Catch::Contains("v6.7"));
    // The bulk-free switches act at once.
    CHECK(t->box(sim::command_target::a, mm::patch::bulk_free_pick_outside_lock)->isEnabled());
    CHECK(t->box(sim::command_target::a, mm::patch::batched_bulk_free)->isEnabled());
    // Seed 000's fix is on (v5.4) and init is over: turning it off shows only after a reboot, which is offered.
    QCheckBox* fix = t->box(sim::command_target::a, mm::patch::pcp_update_after_deferred_init);
    CHECK(fix->isEnabled());
    CHECK(t->reach(sim::command_target::a, mm::patch::pcp_update_after_deferred_init).when
        == sim::switch_reach::next_boot);
    QLabel* fix_note = note_of(w, mm::patch::pcp_update_after_deferred_init);
    REQUIRE(fix_note);
    CHECK_THAT(fix_note->text().toStdString(), Catch::Contains("href=\"reboot\""));
    // Following the link reboots the machine.
    const std::uint64_t generation = test::shown_a(w)->run.generation;
    emit fix_note->linkActivated(QStringLiteral("reboot"));
    CHECK(test::wait_until([&] {
        const auto a = test::shown_a(w);
        return a && a->run.generation > generation;
    }));
}

TEST_CASE("on v6.12 the free_high threshold switch is off, acts at once, and its row links its lesson",
    "[ui][window][switches]")
{
    test::running_window rw([](window_options& o) { o.era = "v6.12"; });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    switch_table* t = w.controls()->switches();
    const auto p = mm::patch::free_high_batch_plus_high_min;
    CHECK_FALSE(t->state(sim::command_target::a, p)); // merged in v6.16
    CHECK(t->box(sim::command_target::a, p)->isEnabled());
    CHECK(t->reach(sim::command_target::a, p).when == sim::switch_reach::now);
    QLabel* note = note_of(w, p);
    REQUIRE(note);
    CHECK_THAT(note->text().toStdString(), Catch::Contains("batch + high_min/2"));
    // Its lesson link, as the table declares it.
    bool linked = false;
    for (QLabel* l : t->findChildren<QLabel*>())
        if (l->toolTip().contains(QStringLiteral("lessons/09-free-high-threshold.md"))) {
            linked = true;
            CHECK_THAT(l->text().toStdString(), Catch::Contains("lesson:5"));
        }
    CHECK(linked);
}

TEST_CASE("on v6.7 seed 000's switch is greyed, and A/B starts with a switch that can act", "[ui][window][switches]")
{
    test::running_window rw([](window_options& o) { o.era = "v6.7"; });
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    switch_table* t = w.controls()->switches();
    CHECK_FALSE(t->box(sim::command_target::a, mm::patch::pcp_update_after_deferred_init)->isEnabled());
    CHECK_THAT(t->box(sim::command_target::a, mm::patch::pcp_update_after_deferred_init)->toolTip().toStdString(),
        Catch::Contains("v5.14"));
    w.machine()->set_ab(true);
    int differ = 0;
    for (unsigned i = 0; i < mm::NR_PATCHES; ++i) {
        const auto p = static_cast<mm::patch>(i);
        if (t->state(sim::command_target::a, p) == t->state(sim::command_target::b, p)) continue;
        ++differ;
        CHECK(t->box(sim::command_target::b, p)->isEnabled());
    }
    CHECK(differ == 1);
}

TEST_CASE("a flip the era has no use for is set, and the status line shows the engine's reason from its result",
    "[ui][window][switches]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    // Auto-tuning cannot be turned on before v5.14: its box is greyed, but a lesson step's flip goes through.
    const auto p = mm::patch::pcp_high_autotune;
    const std::string why = mm::patch_not_applicable(p, true, w.machine()->resolved().machine.era);
    REQUIRE_FALSE(why.empty());
    w.machine()->flip_switch(sim::command_target::a, p, true);
    // A sentence, not the engine's log line ("set_patch pcp-high-autotune=on [A]: ...").
    const std::string shown
        = "Switch pcp-high-autotune on: " + why + " (the switch is set, but it changes nothing here).";
    CHECK(test::wait_until([&] {
        const auto a = test::shown_a(w);
        return a && a->patches[p] && w.status()->last_message().toStdString().find(shown) != std::string::npos;
    }));
}

TEST_CASE("the remote-drain switch is on and acts at once on v6.6 with its lesson linked and is greyed on v5.4",
    "[ui][window][switches]")
{
    const auto p = mm::patch::remote_drain_under_pcp_lock;
    {
        test::running_window rw([](window_options& o) { o.era = "v6.6"; });
        REQUIRE(rw.started);
        main_window& w = *rw.w;
        switch_table* t = w.controls()->switches();
        CHECK(t->state(sim::command_target::a, p)); // merged in v6.0; v6.6 is the first modelled era with pcp->lock
        CHECK(t->box(sim::command_target::a, p)->isEnabled());
        CHECK(t->reach(sim::command_target::a, p).when == sim::switch_reach::now);
        QLabel* note = note_of(w, p);
        REQUIRE(note);
        CHECK_THAT(note->text().toStdString(), Catch::Contains("pcp-&gt;lock") /* rich text, escaped */);
        bool linked = false;
        for (QLabel* l : t->findChildren<QLabel*>())
            if (l->toolTip().contains(QStringLiteral("lessons/10-remote-drain.md"))) {
                linked = true;
                CHECK_THAT(l->text().toStdString(), Catch::Contains("lesson:6"));
            }
        CHECK(linked);
    }
    test::running_window rw; // the classroom machine, v5.4: no pcp->lock to take
    REQUIRE(rw.started);
    QCheckBox* b = rw.w->controls()->switches()->box(sim::command_target::a, p);
    CHECK_FALSE(b->isChecked());
    CHECK_FALSE(b->isEnabled());
    CHECK_THAT(b->toolTip().toStdString(), Catch::Contains("v6.0"));
}

TEST_CASE("on v6.18 the fallback-mode switch is on and links its lesson, on v6.13 it is greyed and names v6.15",
    "[ui][window][switches]")
{
    const auto p = mm::patch::rmqueue_bulk_fallback_mode;
    {
        test::running_window rw([](window_options& o) { o.era = "v6.18"; });
        REQUIRE(rw.started);
        switch_table* t = rw.w->controls()->switches();
        CHECK(t->state(sim::command_target::a, p));
        CHECK(t->box(sim::command_target::a, p)->isEnabled());
        CHECK(links_lesson(t, "lessons/11-rmqueue-bulk-fallback-mode.md"));
    }
    test::running_window rw([](window_options& o) { o.era = "v6.13"; });
    REQUIRE(rw.started);
    QCheckBox* b = rw.w->controls()->switches()->box(sim::command_target::a, p);
    CHECK_FALSE(b->isChecked());
    CHECK_FALSE(b->isEnabled());
    CHECK_THAT(b->toolTip().toStdString(), Catch::Contains("v6.15"));
}

TEST_CASE("the alloc-pages-nolock switch is on with its lesson linked on v6.18 and off but settable on v6.6 and "
          "greyed naming v6.0 on v5.14",
    "[ui][window][switches]")
{
    const auto p = mm::patch::alloc_pages_nolock;
    {
        test::running_window rw([](window_options& o) { o.era = "v6.18"; });
        REQUIRE(rw.started);
        switch_table* t = rw.w->controls()->switches();
        CHECK(t->state(sim::command_target::a, p));
        CHECK(t->box(sim::command_target::a, p)->isEnabled());
        CHECK(links_lesson(t, "lessons/12-alloc-pages-nolock.md"));
    }
    {
        test::running_window rw([](window_options& o) { o.era = "v6.6"; });
        REQUIRE(rw.started);
        QCheckBox* b = rw.w->controls()->switches()->box(sim::command_target::a, p);
        CHECK_FALSE(b->isChecked());
        CHECK(b->isEnabled()); // pcp->lock exists: the v6.15 entry points can be tried on it
    }
    check_greyed_off(p, "v5.14", "(v6.0)");
}

TEST_CASE("the pcp-buddy switch, an RFC, is off on v6.18 but settable, labelled not merged, with its lesson "
          "linked, and greyed naming v6.0 on v5.14",
    "[ui][window][switches]")
{
    const auto p = mm::patch::pcp_buddy;
    {
        test::running_window rw([](window_options& o) { o.era = "v6.18"; });
        REQUIRE(rw.started);
        switch_table* t = rw.w->controls()->switches();
        CHECK_FALSE(t->state(sim::command_target::a, p));
        CHECK(t->box(sim::command_target::a, p)->isEnabled());
        CHECK(links_lesson(t, "lessons/13-pcp-buddy.md"));
        bool labelled = false; // the name's tooltip: "RFC, not merged: ... (origin; kernels: not merged)"
        for (QLabel* l : t->findChildren<QLabel*>())
            if (l->toolTip().startsWith(QStringLiteral("RFC, not merged"))
                && l->toolTip().contains(QStringLiteral("kernels: not merged")))
                labelled = true;
        CHECK(labelled);
    }
    check_greyed_off(p, "v5.14", "(v6.0)");
}

TEST_CASE("the pcp-lock-irqs-enabled switch is on with its lesson linked on v6.6 and greyed naming v6.0 on v5.14",
    "[ui][window][switches]")
{
    const auto p = mm::patch::pcp_lock_irqs_enabled;
    {
        test::running_window rw([](window_options& o) { o.era = "v6.6"; });
        REQUIRE(rw.started);
        switch_table* t = rw.w->controls()->switches();
        CHECK(t->state(sim::command_target::a, p)); // merged for v6.2; v6.6 is the first modelled era with pcp->lock
        CHECK(t->box(sim::command_target::a, p)->isEnabled());
        CHECK(links_lesson(t, "lessons/15-pcp-lock-irqs-enabled.md"));
    }
    check_greyed_off(p, "v5.14", "(v6.0)");
}
