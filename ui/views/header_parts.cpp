// Header parts laid out without cutting a number (header_parts.hpp).
#include "ui/views/header_parts.hpp"

#include "ui/views/view_style.hpp"

#include <QEvent>
#include <QPainter>

namespace pcplab::ui
{

namespace
{
const QString k_sep = QStringLiteral(" · ");
constexpr int k_max_lines = 2;
} // namespace

QStringList fit_parts(const QFontMetrics& fm, const QStringList& parts, int width, int max_lines)
{
    // Each part measured once and the line's width summed: measuring the growing line shaped the same text over
    // and over (a header is laid out every frame; text shaping was a quarter of a frame at 316 CPUs).
    const int sep_w = fm.horizontalAdvance(k_sep);
    QStringList lines;
    QString line;
    int line_w = 0;
    for (const QString& part : parts) {
        if (part.isEmpty()) continue;
        const int part_w = fm.horizontalAdvance(part);
        const int longer_w = line.isEmpty() ? part_w : line_w + sep_w + part_w;
        if (longer_w <= width) {
            line = line.isEmpty() ? part : line + k_sep + part;
            line_w = longer_w;
            continue;
        }
        // Does not fit on this line: on a new one if there is one left, else it is left out.
        if (!line.isEmpty() && lines.size() + 1 < max_lines && part_w <= width) {
            lines << line;
            line = part;
            line_w = part_w;
        }
    }
    if (!line.isEmpty()) lines << line;
    return lines;
}

int draw_parts(QPainter& p, const QRect& r, const QStringList& parts, int max_lines)
{
    const QFontMetrics fm = p.fontMetrics();
    const QStringList lines = fit_parts(fm, parts, r.width(), max_lines);
    int y = r.top();
    for (const QString& l : lines) {
        p.drawText(QRect(r.left(), y, r.width(), fm.height()), Qt::AlignLeft | Qt::AlignVCenter, l);
        y += fm.height();
    }
    return y - r.top();
}

header_line::header_line(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
}

void header_line::set_parts(const QStringList& parts)
{
    if (parts == m_parts) return;
    m_parts = parts;
    setToolTip(parts.join(k_sep));
    fit_height();
    update();
}

QStringList header_line::lines() const
{
    return fit_parts(fontMetrics(), m_parts, width(), k_max_lines);
}

QSize header_line::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(m_parts.join(k_sep)), minimumHeight()};
}

QSize header_line::minimumSizeHint() const
{
    return {0, minimumHeight()};
}

void header_line::fit_height()
{
    const int n = std::max<int>(1, static_cast<int>(lines().size()));
    const int h = n * fontMetrics().height();
    if (h != minimumHeight()) {
        setMinimumHeight(h);
        setMaximumHeight(h);
        updateGeometry();
    }
}

void header_line::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fit_height();
}

void header_line::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setPen(text_color(palette()));
    draw_parts(p, rect(), m_parts, k_max_lines);
}

namespace
{
class repaint_on_resize : public QObject
{
public:
    repaint_on_resize(QWidget* bar, QWidget* view)
        : QObject(bar)
        , m_view(view)
    {
    }

protected:
    bool eventFilter(QObject*, QEvent* e) override
    {
        if (e->type() == QEvent::Resize) m_view->update();
        return false;
    }

private:
    QWidget* m_view;
};
} // namespace

void repaint_view_when_resized(QWidget* bar, QWidget* view)
{
    bar->installEventFilter(new repaint_on_resize(bar, view));
}

} // namespace pcplab::ui
