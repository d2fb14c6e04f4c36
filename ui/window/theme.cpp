// Two palettes (light, dark) and their high-contrast variants, set on the whole application.
#include "ui/window/theme.hpp"

#include <QApplication>
#include <QFontInfo>
#include <QStyle>
#include <QStyleFactory>

#include <algorithm>

namespace pcplab::ui
{

QString theme_name(theme_kind t)
{
    return t == theme_kind::dark ? QStringLiteral("dark") : QStringLiteral("light");
}

std::optional<theme_kind> parse_theme(const QString& name)
{
    if (name == QLatin1String("dark")) return theme_kind::dark;
    if (name == QLatin1String("light")) return theme_kind::light;
    return std::nullopt;
}

QPalette theme_palette(theme_kind t, bool high_contrast)
{
    struct colours {
        QColor window, base, alt_base, text, button, mid, highlight, link, disabled;
    };
    colours c;
    if (t == theme_kind::dark) {
        // Fusion outlines frames and check boxes in a darker Window colour, invisible on black: fields and boxes
        // are told apart from the window by a lighter Base instead.
        c = high_contrast ? colours{QColor(0, 0, 0), QColor(52, 52, 52), QColor(24, 24, 24), QColor(255, 255, 255),
                QColor(40, 40, 40), QColor(130, 130, 130), QColor(0, 150, 255), QColor(110, 190, 255),
                QColor(160, 160, 160)}
                          : colours{QColor(37, 39, 43), QColor(20, 22, 25), QColor(44, 47, 52), QColor(222, 224, 228),
                              QColor(50, 53, 58), QColor(90, 94, 100), QColor(52, 120, 200), QColor(110, 170, 240),
                              QColor(128, 132, 138)};
    } else {
        c = high_contrast ? colours{QColor(255, 255, 255), QColor(255, 255, 255), QColor(238, 238, 238),
                QColor(0, 0, 0), QColor(235, 235, 235), QColor(120, 120, 120), QColor(0, 70, 200), QColor(0, 60, 190),
                QColor(90, 90, 90)}
                          : colours{QColor(240, 241, 243), QColor(255, 255, 255), QColor(246, 247, 249),
                              QColor(30, 32, 36), QColor(232, 234, 237), QColor(170, 174, 180), QColor(48, 110, 200),
                              QColor(30, 90, 190), QColor(140, 144, 150)};
    }
    QPalette p;
    p.setColor(QPalette::Window, c.window);
    p.setColor(QPalette::WindowText, c.text);
    p.setColor(QPalette::Base, c.base);
    p.setColor(QPalette::AlternateBase, c.alt_base);
    p.setColor(QPalette::ToolTipBase, c.base);
    p.setColor(QPalette::ToolTipText, c.text);
    p.setColor(QPalette::PlaceholderText, c.disabled);
    p.setColor(QPalette::Text, c.text);
    p.setColor(QPalette::Button, c.button);
    p.setColor(QPalette::ButtonText, c.text);
    p.setColor(QPalette::BrightText, QColor(255, 80, 80));
    p.setColor(QPalette::Mid, c.mid);
    p.setColor(QPalette::Dark, c.mid.darker(130));
    p.setColor(QPalette::Light, c.button.lighter(130));
    p.setColor(QPalette::Highlight, c.highlight);
    p.setColor(QPalette::HighlightedText, QColor(255, 255, 255));
    p.setColor(QPalette::Link, c.link);
    p.setColor(QPalette::LinkVisited, c.link);
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, c.disabled);
    return p;
}

void apply_theme(theme_kind t, bool high_contrast, const QFont& base_font, double font_scale)
{
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
        QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(theme_palette(t, high_contrast));
    QFont f = base_font;
    if (font_scale != 1.0) {
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * font_scale);
        else if (f.pixelSize() > 0)
            f.setPixelSize(static_cast<int>(f.pixelSize() * font_scale));
    }
    QApplication::setFont(f);
}

double presenter_font_scale(const QFont& base_font, int screen_height)
{
    const double base_px = std::max(1, QFontInfo(base_font).pixelSize());
    return std::max(1.0, screen_height / 48.0 / base_px);
}

} // namespace pcplab::ui
