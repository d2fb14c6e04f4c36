// pcplab: the live window (ui/window), or a screenshot of it. Flags are checked before any display is touched,
// so --help and a bad flag work everywhere; a screenshot without a display runs offscreen.
#include "sim/host_malloc.hpp"
#include "ui/live/frame_source.hpp"
#include "ui/window/app_icon.hpp"
#include "ui/window/command_line.hpp"
#include "ui/window/main_window.hpp"
#include "ui/window/screenshot.hpp"

#include <QApplication>

#include <cstdio>
#include <cstdlib>
#include <variant>

int main(int argc, char** argv)
{
    pcplab::sim::keep_freed_memory_for_reuse();
    using namespace pcplab::ui;
    QStringList args;
    for (int i = 1; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
    auto parsed = parse_command_line(args);
    if (auto* err = std::get_if<std::string>(&parsed)) {
        std::fprintf(stderr, "pcplab: %s\n", err->c_str());
        return 2;
    }
    const command_line cl = std::get<command_line>(parsed);
    if (cl.action == cli_action::help) {
        std::fputs(usage_text().toLocal8Bit().constData(), stdout);
        return 0;
    }
    if (cl.action == cli_action::version) {
        std::printf("%s\n", version_text().toLocal8Bit().constData());
        return 0;
    }
    const bool no_display = !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY");
    if (cl.action == cli_action::screenshot && no_display && !std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);

    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("pcplab"));
    QApplication::setOrganizationName(QStringLiteral("pcplab"));
    QApplication::setWindowIcon(app_icon());
    QGuiApplication::setDesktopFileName(desktop_file_name());

    main_window w(cl.win);
    if (cl.action == cli_action::screenshot) {
        if (!cl.win.replay.isEmpty() && !(w.source() && w.source()->is_replay())) {
            std::fprintf(stderr, "pcplab: --replay %s\n", w.last_message().toLocal8Bit().constData());
            return 1;
        }
        screenshot_request r;
        r.file = cl.screenshot_file;
        r.run_for_ns = cl.run_for_ns;
        r.timeout = cl.timeout;
        r.size = cl.size;
        const QString err = take_screenshot(w, r);
        if (!err.isEmpty()) {
            std::fprintf(stderr, "pcplab: %s\n", err.toLocal8Bit().constData());
            return 1;
        }
        std::fprintf(stderr, "pcplab: saved %s\n", r.file.toLocal8Bit().constData());
        return 0;
    }
    w.show();
    return app.exec();
}
