// Parsing `pcplab`'s flags; every error names the flag and says what was expected.
#include "window/command_line.hpp"

#include "window/lessons.hpp"

#include "lessons/lesson_parser.hpp"
#include "mm/kernel_version.hpp"
#include "program/version.hpp"
#include "sim/preset.hpp"
#include "sim/workload.hpp"

#include <QFileInfo>
#include <QRegularExpression>

#include <cmath>

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
    return {QStringLiteral("pcp"), QStringLiteral("locks"), QStringLiteral("limits"), QStringLiteral("rates"),
        QStringLiteral("heat"), QStringLiteral("buddy"), QStringLiteral("deferred"), QStringLiteral("events"),
        QStringLiteral("proc"), QStringLiteral("model")};
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

std::variant<command_line, std::string> parse_command_line(const QStringList& args)
{
    command_line cl;
    bool run_for_given = false, timeout_given = false, size_given = false;
    for (int i = 0; i < args.size(); ++i) {
        QString flag = args[i];
        if (flag == QLatin1String("-h")) flag = QStringLiteral("--help");
        std::optional<QString> inline_value;
        if (flag.startsWith(QLatin1String("--")) && flag.contains(QLatin1Char('='))) {
            inline_value = flag.section(QLatin1Char('='), 1);
            flag = flag.section(QLatin1Char('='), 0, 0);
        } else if (flag.startsWith(QLatin1Char('-')) && !flag.startsWith(QLatin1String("--")) && flag.size() > 1) {
            if (k_qt_value_options.contains(flag)) ++i; // Qt's option and its value
            continue;
        }
        const std::string f = flag.toStdString();
        auto value = [&]() -> std::variant<QString, std::string> {
            if (inline_value) return *inline_value;
            if (i + 1 >= args.size()) return f + ": needs a value";
            return args[++i];
        };
        auto no_value = [&]() -> std::string { return inline_value ? f + ": takes no value" : std::string(); };
        if (flag == QLatin1String("--help")) {
            cl.action = cli_action::help;
            return cl;
        }
        if (flag == QLatin1String("--version")) {
            cl.action = cli_action::version;
            return cl;
        }
        if (flag == QLatin1String("--ab") || flag == QLatin1String("--presenter")) {
            if (auto e = no_value(); !e.empty()) return e;
            (flag == QLatin1String("--ab") ? cl.win.ab : cl.win.presenter) = true;
            continue;
        }
        static const QStringList with_value = {QStringLiteral("--preset"), QStringLiteral("--era"),
            QStringLiteral("--patch"), QStringLiteral("--patch-b"), QStringLiteral("--workload"),
            QStringLiteral("--seed"), QStringLiteral("--speed"), QStringLiteral("--theme"), QStringLiteral("--view"),
            QStringLiteral("--screenshot"), QStringLiteral("--run-for"), QStringLiteral("--timeout"),
            QStringLiteral("--size"), QStringLiteral("--replay"), QStringLiteral("--lesson")};
        if (!with_value.contains(flag)) return "unknown option '" + f + "' (see pcplab --help)";
        auto got = value();
        if (auto* err = std::get_if<std::string>(&got)) return *err;
        const QString v = std::get<QString>(got);
        const std::string sv = v.toStdString();
        if (flag == QLatin1String("--preset")) {
            auto loaded = sim::load_preset(sv);
            if (auto* err = std::get_if<sim::preset_error>(&loaded))
                return "--preset " + sv + ": " + err->message + " (presets: " + join(sim::list_presets()) + ")";
            cl.win.preset = sv;
        } else if (flag == QLatin1String("--era")) {
            if (!mm::choose_era(sv)) return "--era: '" + sv + "' is not a kernel version (try v5.4, 6.7, 5.4.0-rc3)";
            cl.win.era = sv;
        } else if (flag == QLatin1String("--patch") || flag == QLatin1String("--patch-b")) {
            auto s = sim::parse_switch_setting(sv);
            if (auto* msg = std::get_if<std::string>(&s)) return f + " " + sv + ": " + *msg;
            (flag == QLatin1String("--patch") ? cl.win.patches : cl.win.patches_b)
                .push_back(std::get<sim::switch_setting>(s));
        } else if (flag == QLatin1String("--workload")) {
            if (!sim::make_workload(sv))
                return "--workload: unknown workload '" + sv + "' (one of: " + join(sim::workload_names()) + ")";
            cl.win.workload = sv;
        } else if (flag == QLatin1String("--seed")) {
            bool ok = false;
            const qulonglong n = v.toULongLong(&ok);
            if (!ok) return "--seed: '" + sv + "' is not a whole number";
            cl.win.seed = n;
        } else if (flag == QLatin1String("--speed")) {
            bool ok = false;
            const double x = v.toDouble(&ok);
            if (v == QLatin1String("max"))
                cl.win.speed = 0;
            else if (!ok || !std::isfinite(x) || x <= 0 || x > 1000)
                return "--speed: '" + sv + "' is not a speed (a factor of real time in (0, 1000], or max)";
            else
                cl.win.speed = x * 1e9;
        } else if (flag == QLatin1String("--theme")) {
            auto t = parse_theme(v);
            if (!t) return "--theme: '" + sv + "' is not a theme (dark or light)";
            cl.win.theme = t;
        } else if (flag == QLatin1String("--view")) {
            if (!known_view_ids().contains(v))
                return "--view: unknown view '" + sv
                    + "' (one of: " + known_view_ids().join(QStringLiteral(", ")).toStdString() + ")";
            cl.win.view = v;
        } else if (flag == QLatin1String("--replay")) {
            if (!QFileInfo(v).isFile()) return "--replay: no such file '" + sv + "'";
            cl.win.replay = v;
        } else if (flag == QLatin1String("--lesson")) {
            const auto set = lessons::load_lessons(lessons::default_lessons_dir());
            if (find_lesson(set, v) < 0) {
                std::string ids;
                for (const auto& l : set.lessons) ids += (ids.empty() ? "" : ", ") + l.id;
                return "--lesson: no lesson '" + sv + "' (" + ids + ")";
            }
            cl.win.lesson = v;
        } else if (flag == QLatin1String("--screenshot")) {
            if (v.isEmpty()) return "--screenshot: needs a file name";
            cl.action = cli_action::screenshot;
            cl.screenshot_file = v;
        } else if (flag == QLatin1String("--run-for") || flag == QLatin1String("--timeout")) {
            auto d = parse_duration(v);
            if (!d) return f + ": '" + sv + "' is not a duration (a number with ns, us, ms or s, e.g. 5s)";
            if (flag == QLatin1String("--run-for")) {
                cl.run_for_ns = *d;
                run_for_given = true;
            } else {
                cl.timeout = std::chrono::milliseconds(std::max<std::uint64_t>(1, *d / 1'000'000));
                timeout_given = true;
            }
        } else if (flag == QLatin1String("--size")) {
            static const QRegularExpression re(QStringLiteral("^([0-9]{2,5})x([0-9]{2,5})$"));
            const auto m = re.match(v);
            const int w = m.hasMatch() ? m.captured(1).toInt() : 0, h = m.hasMatch() ? m.captured(2).toInt() : 0;
            if (w < 320 || h < 240 || w > 8192 || h > 8192)
                return "--size: '" + sv + "' is not a window size (WIDTHxHEIGHT, 320x240 .. 8192x8192)";
            cl.size = QSize(w, h);
            size_given = true;
        }
    }
    if (cl.action != cli_action::screenshot) {
        if (run_for_given) return "--run-for: only with --screenshot FILE";
        if (timeout_given) return "--timeout: only with --screenshot FILE";
        if (size_given) return "--size: only with --screenshot FILE";
    }
    if (!cl.win.patches_b.empty() && !cl.win.ab) return "--patch-b: only with --ab";
    if (cl.action == cli_action::screenshot) cl.win.use_settings = false;
    return cl;
}

QString usage_text()
{
    return QStringLiteral(
        "Usage: pcplab [options]\n"
        "\n"
        "The live window: a simulated machine's per-CPU page lists, zone->lock and batch/high, with the five seed\n"
        "patches as switches. Opens on the last preset used (first time: classroom), already booting.\n"
        "\n"
        "  --preset NAME           machine preset (pcplab-cli presets lists them), or a preset file\n"
        "  --era VERSION           kernel version, e.g. v5.4, 5.4.0-rc3, 6.7\n"
        "  --patch NAME=on|off     set a switch (repeatable): pcp-update-after-deferred-init,\n"
        "                          bulk-free-pick-outside-lock, pcp-high-autotune, batched-bulk-free,\n"
        "                          parallel-deferred-init\n"
        "  --ab                    run machines A and B side by side in lockstep\n"
        "  --patch-b NAME=on|off   B's switch (repeatable; default: B flips one switch that matters on the era)\n"
        "  --workload NAME         kernbench, page-fault1, stress-vm, high-order, bursty, boot\n"
        "  --seed N                workload seed\n"
        "  --speed X|max           virtual time per wall second as a factor of real time (default 1)\n"
        "  --theme dark|light      colour theme\n"
        "  --presenter             presenter mode: full screen, large fonts, high contrast\n"
        "  --view NAME             focus one view: pcp, locks, limits, rates, heat, buddy, deferred, events, proc,\n"
        "                          model\n"
        "  --replay FILE           replay a recording (pcplab-cli run --record, or File > Record in the window)\n"
        "  --lesson ID             open a lesson in the lessons dock: 03, 03-seed-000-..., or a seed such as 000\n"
        "  --screenshot FILE       run, save a PNG of the window, exit (no display needed)\n"
        "    --run-for DURATION    virtual time to run before the picture (default 2s; ns, us, ms, s)\n"
        "    --timeout DURATION    wall-clock limit on getting there (default 180s)\n"
        "    --size WxH            window size (default 1600x1000)\n"
        "  --help, --version\n"
        "\n"
        "Exit status: 0 success; 1 the screenshot could not be taken; 2 a bad option (the message names it).\n");
}

QString version_text()
{
    return QStringLiteral("pcplab ") + QString::fromStdString(program::version_line());
}

} // namespace pcplab::ui
