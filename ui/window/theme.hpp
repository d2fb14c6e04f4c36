// Dark and light themes as application palettes (views recolour on QEvent::PaletteChange), and presenter mode's
// large fonts and high contrast for a projector.
#pragma once

#include <QFont>
#include <QPalette>
#include <QString>

#include <optional>

namespace pcplab::ui
{

enum class theme_kind { light, dark };

QString theme_name(theme_kind t); // "light", "dark"
std::optional<theme_kind> parse_theme(const QString& name);

// The palette of a theme; high_contrast: pure black/white backgrounds and saturated highlights (presenter).
QPalette theme_palette(theme_kind t, bool high_contrast);

// Applies palette and font to the application: the Fusion style (so the palette is honoured on every
// platform), the theme's palette, and the base font scaled by `font_scale` (presenter mode: about 1.6).
// `base_font` is the font the application started with (kept by the caller so scaling never compounds).
void apply_theme(theme_kind t, bool presenter, const QFont& base_font);

inline constexpr double PRESENTER_FONT_SCALE = 1.6;

} // namespace pcplab::ui
