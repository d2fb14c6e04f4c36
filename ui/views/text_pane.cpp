// The view-only text pane: line index + painting of the visible lines.
#include "ui/views/text_pane.hpp"

#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QMenu>
#include <QPainter>
#include <QScrollBar>

namespace pcplab::ui
{

text_pane::text_pane(QWidget* parent)
    : QAbstractScrollArea(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setFocusPolicy(Qt::StrongFocus);
    viewport()->setBackgroundRole(QPalette::Base);
    viewport()->setAutoFillBackground(true);
}

void text_pane::set_text(std::shared_ptr<const std::string> text)
{
    if (text == m_text) return;
    m_text = std::move(text);
    m_lines.clear();
    m_longest = 0;
    if (m_text) {
        const std::string& s = *m_text;
        std::size_t start = 0;
        while (start < s.size()) {
            const std::size_t nl = s.find('\n', start);
            const std::size_t end = nl == std::string::npos ? s.size() : nl;
            m_lines.push_back(start);
            m_longest = std::max(m_longest, static_cast<int>(end - start));
            start = end + 1;
        }
    }
    update_scrollbars();
    viewport()->update();
}

QString text_pane::text() const
{
    return m_text ? QString::fromStdString(*m_text) : QString();
}

void text_pane::update_scrollbars()
{
    const QFontMetrics fm(font());
    const int visible_lines = std::max(1, viewport()->height() / fm.lineSpacing());
    verticalScrollBar()->setRange(0, std::max(0, static_cast<int>(m_lines.size()) - visible_lines));
    verticalScrollBar()->setPageStep(visible_lines);
    verticalScrollBar()->setSingleStep(1);
    const int char_w = fm.horizontalAdvance(QLatin1Char('0'));
    horizontalScrollBar()->setRange(0, std::max(0, m_longest * char_w + 8 - viewport()->width()));
    horizontalScrollBar()->setPageStep(viewport()->width());
    horizontalScrollBar()->setSingleStep(char_w * 4);
}

void text_pane::resizeEvent(QResizeEvent* e)
{
    QAbstractScrollArea::resizeEvent(e);
    update_scrollbars();
}

void text_pane::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    p.setFont(font());
    p.setPen(palette().color(QPalette::Text));
    if (!m_text) return;
    const QFontMetrics fm(font());
    const int first = verticalScrollBar()->value();
    const int x = 4 - horizontalScrollBar()->value();
    int y = fm.ascent() + 2;
    const std::string& s = *m_text;
    for (std::size_t i = static_cast<std::size_t>(first); i < m_lines.size() && y - fm.ascent() < viewport()->height();
         ++i) {
        const std::size_t from = m_lines[i];
        const std::size_t to = i + 1 < m_lines.size() ? m_lines[i + 1] - 1 : s.size();
        p.drawText(x, y, QString::fromUtf8(s.data() + from, static_cast<qsizetype>(to - from)));
        y += fm.lineSpacing();
    }
}

void text_pane::copy_all() const
{
    QApplication::clipboard()->setText(text());
}

void text_pane::keyPressEvent(QKeyEvent* e)
{
    if (e->matches(QKeySequence::Copy)) {
        copy_all();
        e->accept();
        return;
    }
    QAbstractScrollArea::keyPressEvent(e);
}

void text_pane::contextMenuEvent(QContextMenuEvent* e)
{
    QMenu menu(this);
    menu.addAction(tr("Copy all"), this, [this] { copy_all(); });
    menu.exec(e->globalPos());
}

} // namespace pcplab::ui
