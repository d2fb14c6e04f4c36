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
// platform), the theme's palette (high contrast for presenter mode), and the base font scaled by `font_scale`.
// `base_font` is the font the application started with (kept by the caller so scaling never compounds).
void apply_theme(theme_kind t, bool high_contrast, const QFont& base_font, double font_scale = 1.0);

// Presenter mode's font scale for a screen `screen_height` pixels high: text about 1/48 of the screen high
// (15 px at 720, 22 px at 1080, 45 px at 2160), never smaller than the base font.
double presenter_font_scale(const QFont& base_font, int screen_height);

} // namespace pcplab::ui
