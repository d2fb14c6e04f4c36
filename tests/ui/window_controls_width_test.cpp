// The controls dock is as wide as its controls: another machine's switch names and notes (meta-1t-316's do not
// wrap where classroom's do) widen it instead of being cut at its right edge, where horizontal scrolling is off.
#include "window_test_support.hpp"

#include "ui/window/controls_panel.hpp"

#include <QScrollArea>

#include <catch2/catch.hpp>

using namespace pcplab;
using namespace pcplab::ui;

TEST_CASE("the controls dock is never narrower than its controls, on any machine", "[ui][window]")
{
    test::sandbox box;
    window_options o = box.options();
    o.preset = "classroom";
    main_window w(o);
    w.resize(1280, 770); // a 1280x800 screen less the title bar
    w.show();
    QScrollArea* scroll = nullptr;
    for (QScrollArea* s : w.findChildren<QScrollArea*>())
        if (s->widget() == w.controls()) scroll = s;
    REQUIRE(scroll);
    const auto fits = [&] { return w.controls()->minimumSizeHint().width() <= scroll->viewport()->width(); };
    for (const char* preset : {"classroom", "meta-1t-316", "epyc2-256"}) {
        w.machine()->choose_preset(QString::fromLatin1(preset));
        test::wait_until([&] { return false; }, 300); // the layouts run
        INFO(preset << ": the controls need " << w.controls()->minimumSizeHint().width() << " px, the dock shows "
                    << scroll->viewport()->width() << " px");
        CHECK(fits());
    }
}
