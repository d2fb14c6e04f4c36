// The story caption's layout and placement.
#include "ui/window/story_caption.hpp"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace pcplab::ui
{

story_caption::story_caption(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("story-caption"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::ToolTipBase);
    auto* lay = new QVBoxLayout(this);
    m_step = new QLabel;
    m_title = new QLabel;
    m_title->setTextFormat(Qt::RichText); // a relative size (show_text), so that presenter mode's font scales it
    m_caption = new QLabel;
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::PlainText);
    m_figures = new QGridLayout;
    m_figures->setHorizontalSpacing(24);
    auto* buttons = new QHBoxLayout;
    m_stop = new QPushButton(tr("Stop the story"));
    m_stop->setToolTip(tr("The machines keep running; the views go back to normal"));
    m_continue = new QPushButton(tr("Continue"));
    m_continue->setDefault(true);
    m_continue->setToolTip(tr("Run on to the next checkpoint"));
    buttons->addWidget(m_step);
    buttons->addStretch(1);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_continue);
    lay->addWidget(m_title);
    lay->addWidget(m_caption);
    auto* figures_row = new QHBoxLayout; // the figures as wide as they need, not spread over the window
    figures_row->addLayout(m_figures);
    figures_row->addStretch(1);
    lay->addLayout(figures_row);
    lay->addLayout(buttons);
    connect(m_continue, &QPushButton::clicked, this, &story_caption::continue_clicked);
    connect(m_stop, &QPushButton::clicked, this, &story_caption::stop_clicked);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum); // as high as its text, the views take the rest
    hide();
}

void story_caption::show_text(const QString& step, const QString& title, const QString& caption,
    const std::array<QString, 2>& sides, const std::vector<figure_row>& figures, bool last)
{
    m_step->setText(step);
    m_title->setText(
        QStringLiteral("<span style=\"font-size:large; font-weight:bold\">%1</span>").arg(title.toHtmlEscaped()));
    m_caption->setText(caption);
    while (QLayoutItem* it = m_figures->takeAt(0)) {
        delete it->widget();
        delete it;
    }
    const QStringList head = {QString(), sides[0], sides[1]};
    for (int c = 0; c < 3; ++c) {
        auto* l = new QLabel(QStringLiteral("<b>%1</b>").arg(head[c].toHtmlEscaped()));
        m_figures->addWidget(l, 0, c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
    for (std::size_t r = 0; r < figures.size(); ++r)
        for (int c = 0; c < 3; ++c) {
            auto* l = new QLabel(figures[r][static_cast<std::size_t>(c)]);
            l->setObjectName(QStringLiteral("story-figure-%1-%2").arg(r).arg(c));
            m_figures->addWidget(l, static_cast<int>(r) + 1, c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
        }
    m_continue->setText(last ? tr("Continue (the machines keep running)") : tr("Continue"));
    show();
    m_continue->setFocus();
}

QString story_caption::caption_text() const
{
    return m_caption->text();
}

QString story_caption::figure_text(int row, int column) const
{
    auto* l = findChild<QLabel*>(QStringLiteral("story-figure-%1-%2").arg(row).arg(column));
    return l ? l->text() : QString();
}

} // namespace pcplab::ui
