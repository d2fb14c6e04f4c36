// The lesson panel offscreen, on the real lessons and real engines: a small harness plays the window's part
// (boot on setup_requested, run on run_requested, flips, and every snapshot back to on_snapshot).
#include "ui/lessons/lesson_panel.hpp"

#include "lessons/lesson_parser.hpp"

#include "sim/engine.hpp"
#include "sim/snapshot_builder.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QImage>
#include <QListWidget>
#include <QScrollBar>
#include <QStyle>

#include <cstdlib>

using namespace pcplab;

namespace
{

std::string picture_dir()
{
    const char* d = std::getenv("PCPLAB_TEST_PICTURES");
    return d && *d ? d : "/tmp";
}

// The window's part, on the test's thread: one engine at a time, snapshots built as the engine thread does.
class window_stand_in
{
public:
    explicit window_stand_in(ui::lesson_panel& p)
        : m_panel(p)
    {
        QObject::connect(&p, &ui::lesson_panel::setup_requested,
            [this](std::shared_ptr<const lessons::engine_setup> s) { setup(*s); });
        QObject::connect(&p, &ui::lesson_panel::run_requested, [this](qint64 d) { run(d); });
        QObject::connect(&p, &ui::lesson_panel::flip_requested, [this](mm::patch sw, bool on) {
            m_engine->set_patch(sw, on);
            publish();
        });
        QObject::connect(&p, &ui::lesson_panel::highlight_requested, [this](const QString& v) { highlighted = v; });
    }
    QString highlighted;
    int setups = 0;
    std::shared_ptr<const sim::snapshot> last;

private:
    void setup(const lessons::engine_setup& s)
    {
        ++setups;
        m_engine = std::make_unique<sim::engine>(s.config, s.make_load);
        m_cursor = {};
        ++m_generation;
        m_engine->boot();
        publish();
    }
    void run(qint64 d)
    {
        m_engine->run_until(m_engine->now() + (d < 0 ? lessons::RUN_FINISH_CAP_NS : static_cast<sim::vtime_ns>(d)));
        publish();
    }
    void publish()
    {
        sim::snapshot_context ctx;
        ctx.state = m_engine->finished() ? sim::run_state::finished : sim::run_state::paused;
        ctx.run.generation = m_generation;
        last = sim::build_snapshot(*m_engine, m_cursor, ctx, sim::snapshot_options{});
        m_panel.on_snapshot(last);
    }
    ui::lesson_panel& m_panel;
    std::unique_ptr<sim::engine> m_engine;
    sim::snapshot_cursor m_cursor;
    std::uint64_t m_generation = 0;
};

int lesson_index(const ui::lesson_panel& p, const std::string& prefix)
{
    const auto& ls = p.lesson_set().lessons;
    for (std::size_t i = 0; i < ls.size(); ++i)
        if (ls[i].id.rfind(prefix, 0) == 0) return static_cast<int>(i);
    FAIL("no lesson " << prefix);
    return -1;
}

int choice_index(const lessons::step& s, const std::string& text)
{
    for (std::size_t i = 0; i < s.predict->choices.size(); ++i)
        if (s.predict->choices[i] == text) return static_cast<int>(i);
    FAIL("no choice " << text);
    return -1;
}

} // namespace

TEST_CASE("the lesson panel lists the lessons and navigates the steps")
{
    ui::lesson_panel panel(lessons::load_lessons(lessons::default_lessons_dir()));
    REQUIRE(panel.lesson_set().lessons.size() >= 8);
    CHECK(panel.current_lesson() == 0);
    CHECK(panel.current_step() == 0);
    QString highlighted;
    QObject::connect(&panel, &ui::lesson_panel::highlight_requested, [&](const QString& v) { highlighted = v; });

    const int three = lesson_index(panel, "03");
    panel.select_lesson(three);
    CHECK(panel.current_lesson() == three);
    panel.next_step(); // the reading step "The machine" counts as done
    CHECK(panel.current_step() == 1);
    CHECK(panel.steps_done(three) == 1);
    CHECK(highlighted == "limits");
    panel.previous_step();
    CHECK(panel.current_step() == 0);
    panel.go_to_step(99);
    CHECK(panel.current_step() == static_cast<int>(panel.lesson_set().lessons[three].steps.size()) - 1);
    // Nothing to reveal before the step's machine has run.
    panel.go_to_step(1);
    CHECK(panel.status() == ui::lesson_panel::check_status::none);
    CHECK_FALSE(panel.can_reveal());
    panel.reveal();
    CHECK_FALSE(panel.revealed());
}

TEST_CASE("the answer box follows the answer's kind: no decimals for a whole number, the lesson's for a decimal")
{
    auto parsed = lessons::parse_lesson("---\ntitle: T\nsummary: S\n---\n"
                                        "## Batch\n```step\nask: What batch?\nanswer: 63\n```\n"
                                        "## Share\n```step\nask: What share?\nanswer: 0.125\n```\n"
                                        "## Pick\n```step\nask: Which?\nchoices: 7 | 63\nanswer: 7\n```\n",
        "kinds.md");
    REQUIRE(std::holds_alternative<lessons::lesson>(parsed));
    lessons::lesson_set set;
    set.lessons.push_back(std::get<lessons::lesson>(std::move(parsed)));
    ui::lesson_panel panel(std::move(set));
    QDoubleSpinBox* box = panel.number_box();
    panel.go_to_step(0);
    CHECK(box->decimals() == 0);
    CHECK(box->text() == box->specialValueText()); // empty until typed, not "0"
    panel.go_to_step(1);
    CHECK(box->decimals() == 3);
    CHECK(box->text() == box->specialValueText());
    panel.enter_number(0.125);
    CHECK(box->text() == QStringLiteral("0.125"));
    panel.submit_prediction();
    CHECK(panel.prediction_given());
    CHECK(panel.prediction_right());
    panel.go_to_step(2);
    CHECK(box->isHidden()); // a choice is picked, not typed
}

TEST_CASE("lesson 3 in the panel: predict, set up, check against the live machine, reveal beside the paper")
{
    ui::lesson_panel panel(lessons::load_lessons(lessons::default_lessons_dir()));
    panel.resize(1280, 900);
    window_stand_in window(panel);
    const int three = lesson_index(panel, "03");
    panel.select_lesson(three);
    panel.go_to_step(1);
    const auto& boot_off = panel.lesson_set().lessons[three].steps[1];
    REQUIRE(boot_off.predict);

    // A wrong prediction first is possible only once: the panel locks it in.
    panel.choose(choice_index(boot_off, "63"));
    panel.submit_prediction();
    CHECK(panel.prediction_given());
    CHECK_FALSE(panel.prediction_right());
    panel.choose(choice_index(boot_off, "7"));
    CHECK_FALSE(panel.prediction_right());

    panel.go_to_step(1); // start the step again
    panel.choose(choice_index(boot_off, "7"));
    panel.submit_prediction();
    CHECK(panel.prediction_right());

    panel.run_step();
    CHECK(window.setups == 1);
    CHECK(window.highlighted == "limits");
    CHECK(panel.status() == ui::lesson_panel::check_status::passed);
    CHECK(panel.check_text().contains("all: 512 of 512 pagesets"));
    REQUIRE(panel.can_reveal());
    panel.reveal();
    CHECK(panel.revealed());
    CHECK(panel.reveal_text().contains("512 Normal pagesets"));
    const auto rows = panel.figure_rows();
    REQUIRE(rows.size() == 2);
    CHECK(rows[0][1] == "512");
    CHECK(rows[0][2] == "512");
    CHECK(rows[1][1] == "7");
    CHECK(rows[1][2] == "7");
    CHECK(panel.steps_done(three) == 1);
    QImage shot = panel.grab().toImage();
    CHECK(shot.width() == 1280);
    shot.save(QString::fromStdString(picture_dir() + "/pcplab-lesson-panel.png"));

    // Step 2 continues on the same machine; step 3 builds the kernel and keeps the state as "off".
    panel.next_step();
    panel.run_step();
    CHECK(window.setups == 1);
    CHECK(panel.status() == ui::lesson_panel::check_status::passed);
    panel.next_step();
    panel.run_step();
    CHECK(panel.status() == ui::lesson_panel::check_status::passed);
    CHECK(window.last->state == sim::run_state::finished);

    // Step 4 reboots with the fix: batch 63, and the limits_change events of the boot reach the check.
    panel.next_step();
    panel.submit_prediction(); // nothing entered yet: a number prediction of 0 is still a prediction
    panel.run_step();
    CHECK(window.setups == 2);
    CHECK(panel.status() == ui::lesson_panel::check_status::passed);
    CHECK(panel.check_text().contains("2 == 2"));

    // Step 5 compares with the kept "off" run.
    panel.next_step();
    panel.run_step();
    CHECK(panel.status() == ui::lesson_panel::check_status::passed);
    panel.reveal();
    CHECK(panel.reveal_text().contains("paper: -69.16%"));
    CHECK_FALSE(panel.reveal_text().contains("[?"));

    panel.set_presenter_mode(true);
    CHECK(panel.font().pointSizeF() > QWidget().font().pointSizeF() * 1.5);
    panel.grab().save(QString::fromStdString(picture_dir() + "/pcplab-lesson-panel-presenter.png"));
}

TEST_CASE("a snapshot that breaks the claim fails the live check, with the values")
{
    ui::lesson_panel panel(lessons::load_lessons(lessons::default_lessons_dir()));
    window_stand_in window(panel);
    panel.select_lesson(lesson_index(panel, "03"));
    panel.go_to_step(1);
    panel.run_step();
    REQUIRE(panel.status() == ui::lesson_panel::check_status::passed);

    // The same machine state with one Normal pageset's batch changed, fed to a fresh run of the step.
    auto broken = std::make_shared<sim::snapshot>(*window.last);
    const int normal = broken->zone_index(1, mm::ZONE_NORMAL);
    REQUIRE(normal >= 0);
    broken->pcp[static_cast<std::size_t>(normal) * broken->nr_cpus].batch = 63;
    broken->seq += 1;
    broken->run.generation += 10; // a new run of the same configuration
    panel.go_to_step(2);
    panel.go_to_step(1);
    // The step boots: this time the "window" answers with the broken state.
    QObject::disconnect(&panel, &ui::lesson_panel::setup_requested, nullptr, nullptr);
    QObject::connect(&panel, &ui::lesson_panel::setup_requested, [&](auto) { panel.on_snapshot(broken); });
    panel.run_step();
    CHECK(panel.status() == ui::lesson_panel::check_status::failed);
    CHECK(panel.check_text().contains("all: 511 of 512 pagesets"));
}

TEST_CASE("a lesson folder with a malformed file still opens, listing what did not load")
{
    ui::lesson_panel panel(lessons::load_lessons(std::string(PCPLAB_TEST_FIXTURES) + "/lessons/mixed"));
    CHECK(panel.lesson_set().lessons.size() == 1);
    CHECK(panel.lesson_set().errors.size() == 7);
    CHECK(panel.current_lesson() == 0);
    window_stand_in window(panel);
    panel.go_to_step(0);
    panel.enter_number(3);
    panel.submit_prediction();
    CHECK(panel.prediction_right());
    panel.run_step();
    CHECK(panel.status() == ui::lesson_panel::check_status::passed);
}

TEST_CASE("every lesson title is read whole in the lessons list, normal and presenter, without a horizontal bar")
{
    // The lessons dock at 1280 px is 520 wide (lesson_control): lesson 12's title was clipped under the list's
    // vertical bar ("12. 008 - allocatin") with a horizontal bar under it.
    ui::lesson_panel panel(lessons::load_lessons(lessons::default_lessons_dir()));
    auto* list = panel.findChild<QListWidget*>();
    REQUIRE(list);
    for (const bool presenter : {false, true}) {
        INFO((presenter ? "presenter mode" : "normal"));
        panel.set_presenter_mode(presenter);
        panel.resize(presenter ? 810 : 520, 700);
        panel.show();
        for (int i = 0; i < 20; ++i) QApplication::processEvents(); // the list's delayed layout
        CHECK_FALSE(list->horizontalScrollBar()->isVisible());
        const int room = list->viewport()->width();
        const QFontMetrics fm(list->font());
        for (int r = 0; r < list->count(); ++r) {
            const QListWidgetItem* item = list->item(r);
            INFO(item->text().toStdString());
            const QRect box = list->visualItemRect(item);
            CHECK(box.width() <= room);
            // The wrapped text fits its item: no line runs past the right edge, no line is cut off below.
            // The delegate's text margin (QCommonStyle: the focus frame's margin and one pixel, each side).
            const int margin = 2 * (list->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, list) + 1);
            const QRect text
                = fm.boundingRect(QRect(0, 0, box.width() - margin, 10000), Qt::TextWordWrap, item->text());
            CHECK(text.width() <= box.width());
            CHECK(text.height() <= box.height());
        }
    }
}
