#include "window_test_support.hpp"
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QScrollArea>
#include <catch2/catch.hpp>
#include <iostream>
using namespace pcplab; using namespace pcplab::ui;
TEST_CASE("zz debug presenter", "[zzdebug]")
{
    test::running_window rw([](window_options& o) { o.ab = true; });
    main_window& w = *rw.w;
    auto dump = [&](const char* when) {
        std::cerr << when << " win " << w.width() << "x" << w.height() << "\n";
        for (QDockWidget* d : w.findChildren<QDockWidget*>()) {
            std::cerr << "  " << d->objectName().toStdString() << " " << d->width() << "x" << d->height() << " minhint " << d->minimumSizeHint().width() << " min " << d->minimumWidth() << " widgetmin " << d->widget()->minimumWidth() << " widgetminhint " << d->widget()->minimumSizeHint().width() << "\n";
        }
    };
    dump("start");
    w.look()->set_presenter(true);
    QCoreApplication::processEvents();
    dump("presenter");
    w.look()->set_presenter(false);
    dump("left-immediately");
    test::wait_until([&] { return false; }, 400);
    dump("left");
}
