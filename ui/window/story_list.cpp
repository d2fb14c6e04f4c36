// The story list, built from the story table.
#include "ui/window/story_list.hpp"

#include "ui/window/qt_text.hpp"

#include "lessons/seed_stories.hpp"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace pcplab::ui
{

story_list::story_list(QWidget* parent)
    : QWidget(parent)
{
    auto* lay = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("Each story runs one seed's machine twice, side by side: A without the patch, B with "
                                "it, or the same kernel with a setting's two values. It pauses where the difference "
                                "shows and says what to look at."));
    intro->setWordWrap(true);
    lay->addWidget(intro);
    for (const auto& s : lessons::seed_stories()) {
        const QString id = qs(s.seed->id);
        auto* title = new QLabel(QStringLiteral("<b>%1</b>").arg(qs(s.title).toHtmlEscaped()));
        title->setWordWrap(true);
        auto* summary = new QLabel(qs(s.summary));
        summary->setWordWrap(true);
        auto* play = new QPushButton(tr("Play story %1").arg(id));
        play->setObjectName(QStringLiteral("story-%1").arg(id));
        play->setToolTip(tr("Boots %1 twice (A/B) and pauses at %2 checkpoint(s)")
                             .arg(qs(s.seed->preset))
                             .arg(s.checkpoints.size()));
        connect(play, &QPushButton::clicked, this, [this, id] { emit story_requested(id); });
        lay->addSpacing(6);
        lay->addWidget(title);
        lay->addWidget(summary);
        lay->addWidget(play, 0, Qt::AlignLeft);
    }
    lay->addStretch(1);
}

} // namespace pcplab::ui
