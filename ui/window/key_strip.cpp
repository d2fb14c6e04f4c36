// The presenter strip's text.
#include "ui/window/key_strip.hpp"

#include "ui/window/delta_panel.hpp"
#include "ui/window/key_figures.hpp"

namespace pcplab::ui
{

key_strip::key_strip(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("key-strip"));
    setTextFormat(Qt::RichText);
    setWordWrap(true);
    setAlignment(Qt::AlignCenter);
    setMargin(6);
    hide();
}

void key_strip::show_figures(const sim::snapshot& a, const sim::snapshot* b)
{
    const QPalette pal = palette();
    // An item never breaks across lines; the strip wraps between items.
    const auto keep
        = [](const QString& t) { return t.toHtmlEscaped().replace(QLatin1Char(' '), QStringLiteral("&nbsp;")); };
    QStringList parts;
    for (const figure_change& f : compare_figures(a, b)) {
        // A figure without a value yet (per unit of work before any work, 0 vs 0) would read "work done =".
        if (!f.headline || !f.telling) continue;
        if (b)
            parts << QStringLiteral("%1&nbsp;<span style=\"color:%2\">%3</span>")
                         .arg(keep(f.label), verdict_color(pal, f.verdict).name(), keep(f.change));
        else
            parts << QStringLiteral("%1&nbsp;%2").arg(keep(f.label), keep(f.a));
    }
    const QString head = b ? tr("B vs A:") : QString();
    // Relative sizes: the strip follows the application font, which presenter mode scales to the screen.
    setText(QStringLiteral("<span style=\"font-size:x-large; font-weight:bold\">%1%2</span>")
                .arg(head.isEmpty() ? QString() : head + QStringLiteral("&nbsp;&nbsp;"),
                    parts.join(QStringLiteral("&nbsp;&nbsp;&middot; "))));
}

} // namespace pcplab::ui
