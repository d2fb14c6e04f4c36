// Parsing `pcplab`'s flags with QCommandLineParser; every error names the flag and says what was expected.
#include "ui/window/command_line.hpp"

#include "ui/window/lessons.hpp"
#include "ui/window/qt_text.hpp"

#include "lessons/lesson.hpp"
#include "lessons/lesson_parser.hpp"
#include "lessons/seed_stories.hpp"
#include "mm/kernel_version.hpp"
#include "mm/patch_switches.hpp"
#include "program/version.hpp"
#include "sim/preset.hpp"
#include "sim/workload.hpp"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QRegularExpression>

#include <cmath>
#include <string_view>

namespace pcplab::ui
{

namespace
{
// Qt's own options that take a value (QGuiApplication / QApplication).
const QStringList k_qt_value_options = {QStringLiteral("-platform"), QStringLiteral("-platformpluginpath"),
    QStringLiteral("-platformtheme"), QStringLiteral("-plugin"), QStringLiteral("-qwindowgeometry"),
    QStringLiteral("-qwindowicon"), QStringLiteral("-qwindowtitle"), QStringLiteral("-style"),
    QStringLiteral("-stylesheet"), QStringLiteral("-display"), QStringLiteral("-geometry"), QStringLiteral("-session")};

std::string join(const std::vector<std::string>& v)
{
    std::string out;
    for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}
} // namespace

QStringList known_view_ids()
{
    QStringList out;
    for (const auto& id : lessons::view_ids()) out << QString::fromStdString(id);
    return out;
}

std::optional<std::uint64_t> parse_duration(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(ns|us|ms|s)?$"));
    const auto m = re.match(text.trimmed());
    if (!m.hasMatch()) return std::nullopt;
    const QString unit = m.captured(2);
    const double scale = unit == QLatin1String("ns") ? 1
        : unit == QLatin1String("us")                ? 1e3
        : unit == QLatin1String("ms")                ? 1e6
                                                     : 1e9;
    const double ns = m.captured(1).toDouble() * scale;
    if (!(ns >= 1) || ns > 1e18) return std::nullopt;
    return static_cast<std::uint64_t>(std::llround(ns));
}

namespace
{
// The flags and whether each takes a value; QCommandLineParser does the splitting (--flag v, --flag=v), the
// "needs a value" / "takes no value" errors and --help/--version, so only the meaning of each value is ours.
void add_options(QCommandLineParser& p)
{
    p.addHelpOption(); // -h, --help, -?
    p.addVersionOption(); // -v, --version
    for (const char* flag : {"ab", "presenter"}) p.addOption(QCommandLineOption(QString::fromLatin1(flag), QString()));
    for (const char* flag : {"preset", "era", "patch", "patch-b", "workload", "seed", "speed", "theme", "view",
             "screenshot", "run-for", "timeout", "size", "replay", "lesson", "story"})
        p.addOption(QCommandLineOption(QString::fromLatin1(flag), QString(), QStringLiteral("value")));
}

// Qt's own one-dash options (and their values) are QApplication's to read, not ours.
QStringList without_qt_options(const QStringList& args)
{
    QStringList out{QStringLiteral("pcplab")}; // QCommandLineParser::parse skips the program name
    for (int i = 0; i < args.size(); ++i) {
        const QString& a = args[i];
        static const QStringList ours = {QStringLiteral("-h"), QStringLiteral("-?"), QStringLiteral("-v")};
        if (a.startsWith(QLatin1Char('-')) && !a.startsWith(QLatin1String("--")) && a.size() > 1 && !ours.contains(a)) {
            if (k_qt_value_options.contains(a)) ++i;
            continue;
        }
        out << a;
    }
    return out;
}

// QCommandLineParser's error as one line in the same form as ours, naming the flag as the user typed it.
std::string parse_error(const QCommandLineParser& p)
{
    const QStringList unknown = p.unknownOptionNames();
    if (!unknown.isEmpty()) return "unknown option '--" + unknown.first().toStdString() + "' (see pcplab --help)";
    // Qt says "Missing value after '--seed'." / "Unexpected value after '--ab'."; ours read "FLAG: problem".
    static const QRegularExpression re(QStringLiteral("^(Missing|Unexpected) value after '([^']+)'"));
    const QString text = p.errorText().simplified();
    const auto m = re.match(text);
    if (!m.hasMatch()) return text.toStdString();
    return m.captured(2).toStdString()
        + (m.captured(1) == QLatin1String("Missing") ? ": needs a value" : ": takes no value");
}
} // namespace

std::variant<command_line, std::string> parse_command_line(const QStringList& args)
{
    QCommandLineParser p;
    add_options(p);
    if (!p.parse(without_qt_options(args))) return parse_error(p);
    if (!p.positionalArguments().isEmpty())
        return "unexpected argument '" + p.positionalArguments().first().toStdString() + "' (see pcplab --help)";
    command_line cl;
    if (p.isSet(QStringLiteral("help"))) {
        cl.action = cli_action::help;
        return cl;
    }
    if (p.isSet(QStringLiteral("version"))) {
        cl.action = cli_action::version;
        return cl;
    }
    cl.win.ab = p.isSet(QStringLiteral("ab"));
    cl.win.presenter = p.isSet(QStringLiteral("presenter"));
    const auto given = [&](const char* name) { return p.isSet(QString::fromLatin1(name)); };
    // The last of a repeated flag wins, as before.
    const auto value = [&](const char* name) { return p.value(QString::fromLatin1(name)); };

    if (given("preset")) {
        const std::string sv = value("preset").toStdString();
        auto loaded = sim::load_preset(sv);
        if (auto* err = std::get_if<pcplab::error>(&loaded))
            return "--preset " + sv + ": " + err->message + " (presets: " + join(sim::list_presets()) + ")";
        cl.win.preset = sv;
    }
    if (given("era")) {
        const std::string sv = value("era").toStdString();
        if (!mm::choose_era(sv)) return "--era: '" + sv + "' is not a kernel version (try v5.4, 6.7, 5.4.0-rc3)";
        cl.win.era = sv;
    }
    for (const char* flag : {"patch", "patch-b"}) {
        for (const QString& v : p.values(QString::fromLatin1(flag))) {
            const std::string sv = v.toStdString();
            auto s = sim::parse_switch_setting(sv);
            if (auto* msg = std::get_if<pcplab::error>(&s))
                return "--" + std::string(flag) + " " + sv + ": " + msg->message;
            (std::string_view(flag) == "patch" ? cl.win.patches : cl.win.patches_b)
                .push_back(std::get<sim::switch_setting>(s));
        }
    }
    if (given("workload")) {
        const std::string sv = value("workload").toStdString();
        if (!sim::make_workload(sv))
            return "--workload: unknown workload '" + sv + "' (one of: " + join(sim::workload_names()) + ")";
        cl.win.workload = sv;
    }
    if (given("seed")) {
        bool ok = false;
        const qulonglong n = value("seed").toULongLong(&ok);
        if (!ok) return "--seed: '" + value("seed").toStdString() + "' is not a whole number";
        cl.win.seed = n;
    }
    if (given("speed")) {
        const QString v = value("speed");
        bool ok = false;
        const double x = v.toDouble(&ok);
        if (v == QLatin1String("max"))
            cl.win.speed = 0;
        else if (!ok || !std::isfinite(x) || x <= 0 || x > 1000)
            return "--speed: '" + v.toStdString() + "' is not a speed (a factor of real time in (0, 1000], or max)";
        else
            cl.win.speed = x * 1e9;
    }
    if (given("theme")) {
        auto t = parse_theme(value("theme"));
        if (!t) return "--theme: '" + value("theme").toStdString() + "' is not a theme (dark or light)";
        cl.win.theme = t;
    }
    if (given("view")) {
        const QString v = value("view");
        if (!known_view_ids().contains(v))
            return "--view: unknown view '" + v.toStdString()
                + "' (one of: " + known_view_ids().join(QStringLiteral(", ")).toStdString() + ")";
        cl.win.view = v;
    }
    if (given("replay")) {
        const QString v = value("replay");
        if (!QFileInfo(v).isFile()) return "--replay: no such file '" + v.toStdString() + "'";
        cl.win.replay = v;
    }
    if (given("lesson")) {
        const QString v = value("lesson");
        const auto set = lessons::load_lessons(lessons::default_lessons_dir());
        if (find_lesson(set, v) < 0) {
            std::string ids;
            for (const auto& l : set.lessons) ids += (ids.empty() ? "" : ", ") + l.id;
            return "--lesson: no lesson '" + v.toStdString() + "' (" + ids + ")";
        }
        cl.win.lesson = v;
    }
    if (given("story")) {
        const std::string sv = value("story").toStdString();
        if (!lessons::find_story(sv)) {
            std::string ids;
            for (const auto& s : lessons::seed_stories()) ids += (ids.empty() ? "" : ", ") + s.seed->id;
            return "--story: no story '" + sv + "' (" + ids + ")";
        }
        cl.win.story = value("story");
    }
    if (given("screenshot")) {
        if (value("screenshot").isEmpty()) return "--screenshot: needs a file name";
        cl.action = cli_action::screenshot;
        cl.screenshot_file = value("screenshot");
    }
    for (const char* flag : {"run-for", "timeout"}) {
        if (!given(flag)) continue;
        const std::string f = "--" + std::string(flag);
        if (cl.action != cli_action::screenshot) return f + ": only with --screenshot FILE";
        auto d = parse_duration(value(flag));
        if (!d)
            return f + ": '" + value(flag).toStdString()
                + "' is not a duration (a number with ns, us, ms or s, e.g. 5s)";
        if (std::string_view(flag) == "run-for")
            cl.run_for_ns = *d;
        else
            cl.timeout = std::chrono::milliseconds(std::max<std::uint64_t>(1, *d / 1'000'000));
    }
    if (given("size")) {
        if (cl.action != cli_action::screenshot) return "--size: only with --screenshot FILE";
        static const QRegularExpression re(QStringLiteral("^([0-9]{2,5})x([0-9]{2,5})$"));
        const auto m = re.match(value("size"));
        const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
        if (w < 320 || h < 240 || w > 8192 || h > 8192)
            return "--size: '" + value("size").toStdString()
                + "' is not a window size (WIDTHxHEIGHT, 320x240 .. 8192x8192)";
        cl.size = QSize(w, h);
    }
    if (!cl.win.patches_b.empty() && !cl.win.ab) return "--patch-b: only with --ab";
    if (cl.action == cli_action::screenshot) cl.win.use_settings = false;
    return cl;
}

namespace
{
// "a, b, c" laid out from `first` on, continuation lines indented to the help's description column, within
// the help's width. The lists come from the tables (patch switches, workloads), so the help cannot fall
// behind them.
QString wrapped_list(const QString& first, const QStringList& items)
{
    constexpr int k_width = 110;
    const QString indent(26, QLatin1Char(' '));
    QString out = first;
    int line = static_cast<int>(first.size() - first.lastIndexOf(QLatin1Char('\n')) - 1);
    for (int i = 0; i < items.size(); ++i) {
        const QString word = items[i] + (i + 1 < items.size() ? QStringLiteral(",") : QString());
        if (line + 1 + word.size() > k_width) {
            out += QLatin1Char('\n') + indent;
            line = static_cast<int>(indent.size());
        } else {
            out += QLatin1Char(' ');
            ++line;
        }
        out += word;
        line += static_cast<int>(word.size());
    }
    return out + QLatin1Char('\n');
}
} // namespace

QString usage_text()
{
    QStringList switches;
    for (const auto& d : mm::patch_table()) switches << qs(d.name);
    QStringList workloads;
    for (const std::string& w : sim::workload_names()) workloads << qs(w);
    const auto& stories = lessons::seed_stories();
    const QString story_range = stories.empty()
        ? QString()
        : qs(stories.front().seed->id) + QStringLiteral(" .. ") + qs(stories.back().seed->id);
    return QStringLiteral(
               "Usage: pcplab [options]\n"
               "\n"
               "The live window: a simulated machine's per-CPU page lists, zone->lock and batch/high, with the seed\n"
               "patches and later per-CPU allocator changes as switches. Opens on the last preset used (first time:\n"
               "the first story), already booting.\n"
               "\n"
               "  --preset NAME           machine preset (pcplab-cli presets lists them), or a preset file\n"
               "  --era VERSION           kernel version, e.g. v5.4, 5.4.0-rc3, 6.7\n")
        + wrapped_list(QStringLiteral("  --patch NAME=on|off     set a switch (repeatable):"), switches)
        + QStringLiteral(
            "  --ab                    run machines A and B side by side in lockstep\n"
            "  --patch-b NAME=on|off   B's switch (repeatable; default: B flips one switch that matters on the era)\n")
        + wrapped_list(QStringLiteral("  --workload NAME        "), workloads)
        + QStringLiteral(
            "  --seed N                workload seed\n"
            "  --speed X|max           virtual time per wall second as a factor of real time (default 1)\n"
            "  --theme dark|light      colour theme\n"
            "  --presenter             presenter mode: full screen, large fonts, high contrast\n"
            "  --view NAME             focus one view: pcp, locks, limits, rates, heat, buddy, deferred,\n"
            "                          events, proc, model\n"
            "  --replay FILE           replay a recording (pcplab-cli run --record, or File > Record in the window)\n"
            "  --lesson ID             open a lesson in the lessons dock: 03, 03-seed-000-..., or a seed such as 000\n"
            "  --story ID              play a story (%1): its machine in A/B, pausing where the patch\n"
            "                          shows (the first start plays the first)\n"
            "  --screenshot FILE       run, save a PNG of the window, exit (no display needed)\n"
            "    --run-for DURATION    virtual time to run before the picture (default 2s; ns, us, ms, s)\n"
            "    --timeout DURATION    wall-clock limit on getting there (default 180s)\n"
            "    --size WxH            window size (default 1600x1000)\n"
            "  -h, --help, -v, --version\n"
            "\n"
            "Exit status: 0 success; 1 the screenshot could not be taken; 2 a bad option (the message names it).\n")
              .arg(story_range);
}

QString version_text()
{
    return QStringLiteral("pcplab ") + QString::fromStdString(program::version_line());
}

} // namespace pcplab::ui
