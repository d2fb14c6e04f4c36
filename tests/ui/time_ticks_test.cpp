// The painted time axes' labels (views/time_ticks): a time is written in a unit that keeps it under a thousand,
// with the decimals its step needs, so that the lock lanes' end label late in a run reads "at 100.0 ms", not
// "at 100000 us", and ticks never overlap.
#include "ui/views/time_ticks.hpp"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QFontMetrics>

using namespace pcplab;

TEST_CASE("a time label keeps its number under a thousand and the decimals its step needs", "[ui][views][ticks]")
{
    CHECK(ui::time_label(100e6, 300e3).toStdString() == "100.0 ms");
    CHECK(ui::time_label(99.2e6, 200e3).toStdString() == "99.2 ms");
    CHECK(ui::time_label(2.0005e9, 0.5e6).toStdString() == "2.0005 s");
    CHECK(ui::time_label(3e9, 1e9).toStdString() == "3 s");
    CHECK(ui::time_label(750, 10).toStdString() == "750 ns");
    CHECK(ui::time_label(1500, 500).toStdString() == "1.5 us");
    CHECK(ui::time_label(-2e6, 1e6) == QStringLiteral("\u22122 ms"));
    CHECK(ui::time_label(0, 1e6).toStdString() == "0 ms");
}

TEST_CASE("time ticks late in a run stay short and apart", "[ui][views][ticks]")
{
    const QFontMetrics fm(QApplication::font());
    for (const bool relative : {false, true}) {
        const auto ticks = ui::time_ticks(99e6, 100e6, 300, fm, relative);
        REQUIRE(ticks.size() >= 2);
        double right = -1e9;
        for (const auto& t : ticks) {
            INFO(t.label.toStdString());
            // "−2.5 ms", "99.5 ms", never "99500 us": the number is under a thousand.
            const QString number = t.label.section(QLatin1Char(' '), 0, 0).remove(QChar(0x2212));
            CHECK(number.toDouble() < 1000);
            const double w = fm.horizontalAdvance(t.label);
            const double left = std::clamp(t.x - w / 2, 0.0, 300 - w);
            CHECK(left > right);
            right = left + w;
        }
    }
}
