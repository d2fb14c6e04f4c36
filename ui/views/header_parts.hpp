// Headers that keep their key numbers: a header is a list of parts in order of importance ("batch 63", "high 378",
// "1.2 k pages on the lists", ...) laid out on at most a few lines, joined by " · ". A part that does not fit is
// left out whole and the ones after it are still tried, so a number is never cut in the middle ("batch 6...");
// the tooltip of a header_line has every part.
#pragma once

#include <QStringList>
#include <QWidget>

class QPainter;

namespace pcplab::ui
{

// The lines the parts make in `width` pixels (at most max_lines; parts that fit nowhere are left out).
QStringList fit_parts(const QFontMetrics& fm, const QStringList& parts, int width, int max_lines);
// Paints them at the top of `r` in the painter's pen and font; returns the height used.
int draw_parts(QPainter& p, const QRect& r, const QStringList& parts, int max_lines);

// A header row of a view: the parts in the widget's font, one line, or two when one does not hold them.
class header_line : public QWidget
{
    Q_OBJECT
public:
    explicit header_line(QWidget* parent = nullptr);
    void set_parts(const QStringList& parts);
    const QStringList& parts() const { return m_parts; }
    QStringList lines() const; // as laid out at the current width (for the tests)
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void fit_height();
    QStringList m_parts;
};

// An opaque view (Qt::WA_OpaquePaintEvent) paints its content from the bottom of its header bar down. When the
// bar changes height (its header_line goes from two lines to one) the whole picture moves, but Qt repaints only
// the strip the bar uncovered: story 001's lanes kept a stale 5 px band at their top until the next frame,
// which a paused story never sends. This repaints `view` whenever `bar` is resized.
void repaint_view_when_resized(QWidget* bar, QWidget* view);

} // namespace pcplab::ui
