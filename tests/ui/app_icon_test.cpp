// The window icon: the compiled-in drawing of resources/icons/pcplab.svg renders at the sizes a desktop asks for.
#include "ui/window/app_icon.hpp"

#include <QFile>
#include <QImage>
#include <QPixmap>

#include <catch2/catch.hpp>

using namespace pcplab::ui;

TEST_CASE("the application icon is the project's SVG, drawn from 16 to 256 pixels")
{
    const QIcon icon = app_icon();
    REQUIRE_FALSE(icon.isNull());
    QFile compiled(QStringLiteral(":/icons/pcplab.svg")),
        source(QStringLiteral(PCPLAB_RESOURCE_DIR "/icons/pcplab.svg"));
    REQUIRE(compiled.open(QIODevice::ReadOnly));
    REQUIRE(source.open(QIODevice::ReadOnly));
    CHECK(compiled.readAll() == source.readAll());

    for (int size : {16, 32, 48, 64, 128, 256}) {
        INFO("size " << size);
        const QImage img = icon.pixmap(size, size).toImage();
        REQUIRE(img.width() == size);
        // The corners lie outside the rounded plate; its middle is the dark blue plate or a column on it.
        CHECK(qAlpha(img.pixel(0, 0)) == 0);
        CHECK(qAlpha(img.pixel(size - 1, size - 1)) == 0);
        const QRgb mid = img.pixel(size / 2, size / 2);
        CHECK(qAlpha(mid) == 255);
        CHECK(qBlue(mid) > qRed(mid));
    }
}
