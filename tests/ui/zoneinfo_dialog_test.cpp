// File > Open /proc/zoneinfo...: the dialog checks a capture with the explanation, reads "this computer"
// (with its CPUs per node from sysfs), writes a preset the ordinary loader takes, and boots it in the window.
#include "window_test_support.hpp"

#include "ui/window/zoneinfo_dialog.hpp"

#include "sim/preset.hpp"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QPushButton>
#include <QStringList>
#include <QTemporaryDir>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

namespace
{

QString fixture(const char* name)
{
    return QStringLiteral(PCPLAB_TEST_FIXTURES "/zoneinfo/") + QString::fromLatin1(name);
}

QPushButton* button(QWidget& w, const QString& text)
{
    for (auto* b : w.findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

bool write(const QString& path, const QByteArray& text)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(text) == text.size();
}

} // namespace

TEST_CASE("the zoneinfo dialog shows a capture's check with its explanation", "[ui][zoneinfo]")
{
    zoneinfo_dialog d;
    REQUIRE(d.open_file(fixture("linux-6.18-kvm-1node-2cpu.txt")));
    const QString t = d.report_text();
    INFO(t.toStdString());
    CHECK(t.contains(QStringLiteral("6 of 6 pagesets match")));
    CHECK(t.contains(QStringLiteral("formulas: high auto-tuned")));
    CHECK(t.contains(QStringLiteral("rounddown_pow_of_two(64 + 32 = 96) - 1 = 63"))); // the explanation
    CHECK(d.has_machine());
    CHECK(button(d, QStringLiteral("Boot this machine"))->isEnabled());

    // Not a capture: one line saying why, and nothing to boot.
    CHECK_FALSE(d.open_file(QStringLiteral(PCPLAB_RESOURCE_DIR "/presets/classroom.json")));
    CHECK(d.report_text().contains(QStringLiteral("Cannot read it:")));
    CHECK(d.report_text().contains(QStringLiteral("not a /proc/zoneinfo file")));
    CHECK_FALSE(d.has_machine());
    CHECK_FALSE(button(d, QStringLiteral("Boot this machine"))->isEnabled());
}

TEST_CASE("'This computer' reads /proc/zoneinfo and the CPUs of each node from sysfs", "[ui][zoneinfo]")
{
    QTemporaryDir dir;
    // A two-node machine: its zoneinfo, and sysfs saying node 0 has CPUs 0-1 and node 1 CPUs 2-3.
    QFile src(fixture("linux-6.6-rc1-next-20230913-x86_64-2node-4cpu.txt"));
    REQUIRE(src.open(QIODevice::ReadOnly));
    REQUIRE(write(dir.filePath(QStringLiteral("proc/zoneinfo")), src.readAll()));
    REQUIRE(write(dir.filePath(QStringLiteral("sys/devices/system/node/node0/cpulist")), "0-1\n"));
    REQUIRE(write(dir.filePath(QStringLiteral("sys/devices/system/node/node1/cpulist")), "2,3\n"));
    zoneinfo_dialog d;
    REQUIRE(d.open_this_computer(dir.filePath(QStringLiteral("proc/zoneinfo")), dir.filePath(QStringLiteral("sys"))));
    const QString t = d.report_text();
    INFO(t.toStdString());
    CHECK(t.contains(QStringLiteral("this-computer: 16 of 16 pagesets match")));
    CHECK_FALSE(t.contains(QStringLiteral("divided evenly"))); // the counts came from sysfs

    // The real one, where there is one: it reads.
    if (QFile::exists(QStringLiteral("/proc/zoneinfo"))) {
        zoneinfo_dialog here;
        CHECK(here.open_this_computer());
        INFO(here.report_text().toStdString());
        CHECK(here.has_machine());
    }
}

TEST_CASE("'Boot this machine' writes a preset the loader takes and asks the window to boot it", "[ui][zoneinfo]")
{
    QTemporaryDir dir;
    zoneinfo_dialog d;
    d.set_preset_dir(dir.filePath(QStringLiteral("machines")));
    REQUIRE(d.open_file(fixture("linux-next-20181217-s390x-8cpu.txt")));
    QStringList requested; // counted by hand: the UI tests do not link Qt Test (QSignalSpy)
    QObject::connect(&d, &zoneinfo_dialog::boot_requested, [&](const QString& p) { requested << p; });
    button(d, QStringLiteral("Boot this machine"))->click();
    REQUIRE(requested.size() == 1);
    const QString path = requested.front();
    CHECK(path == dir.filePath(QStringLiteral("machines/linux-next-20181217-s390x-8cpu.json")));
    auto loaded = sim::load_preset(path.toStdString());
    if (auto* e = std::get_if<pcplab::error>(&loaded)) FAIL(e->str());
    const auto& spec = std::get<mm::machine_spec>(loaded);
    CHECK(spec.nr_cpus() == 8);
    CHECK(spec.pages_per_section == 65536); // s390's 256 MiB sections
}

TEST_CASE("File > Open /proc/zoneinfo... boots the capture's machine in the window", "[ui][zoneinfo][window]")
{
    test::running_window rw;
    REQUIRE(rw.started);
    main_window& w = *rw.w;
    QAction* open = nullptr;
    for (auto* a : w.menuBar()->actions().front()->menu()->actions())
        if (a->text() == QStringLiteral("Open /proc/zoneinfo...")) open = a;
    REQUIRE(open);
    open->trigger();
    auto dialogs = w.findChildren<zoneinfo_dialog*>();
    REQUIRE(dialogs.size() == 1);
    zoneinfo_dialog* d = dialogs.front();
    CHECK(d->isVisible());
    d->set_preset_dir(rw.box.dir.filePath(QStringLiteral("machines")));
    REQUIRE(d->open_file(fixture("linux-4.11-rc5-ppc64-64k-hotplug-1cpu.txt")));
    button(*d, QStringLiteral("Boot this machine"))->click();
    const std::string preset
        = rw.box.dir.filePath(QStringLiteral("machines/linux-4.11-rc5-ppc64-64k-hotplug-1cpu.json")).toStdString();
    CHECK(w.setup().preset == preset);
    // The new machine boots and runs: one CPU, the capture's two nodes.
    REQUIRE(test::wait_until([&] {
        auto s = test::shown_a(w);
        // The snapshot names a preset loaded from a path by its file name without the extension.
        return s && s->preset == "linux-4.11-rc5-ppc64-64k-hotplug-1cpu" && s->state == sim::run_state::running;
    }));
    CHECK(test::shown_a(w)->deferred_init.size() == 2);
    CHECK(test::shown_a(w)->cpu_node.size() == 1);
}
