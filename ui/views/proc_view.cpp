// /proc view: two read-only monospace text panes, throttled.
#include "ui/views/proc_view.hpp"

#include "ui/views/proc_text.hpp"
#include "ui/views/text_pane.hpp"

#include "procfs/procfs_texts.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{

text_pane* make_pane(QWidget* parent, const QString& tip)
{
    auto* t = new text_pane(parent);
    t->setToolTip(tip);
    return t;
}

} // namespace

proc_view::proc_view(QWidget* parent)
    : view(parent)
    , m_zoneinfo(make_pane(this, tr("/proc/zoneinfo of the simulated machine")))
    , m_buddyinfo(make_pane(this, tr("/proc/buddyinfo: free blocks per order 0..10")))
    , m_note(new QLabel(this))
    , m_side(new QComboBox(this))
{
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    auto* bar = new QHBoxLayout;
    m_side->addItem(tr("machine A"), 0);
    m_side->addItem(tr("machine B"), 1);
    m_side->setVisible(false);
    m_side->setToolTip(tr("Which machine of the A/B pair to show"));
    m_note->setWordWrap(true);
    bar->addWidget(m_side);
    bar->addWidget(m_note, 1);
    lay->addLayout(bar);
    // buddyinfo is a line per zone: a short pane on top; zoneinfo (thousands of lines) takes the rest.
    auto* split = new QSplitter(Qt::Vertical, this);
    auto* top = new QWidget(split);
    auto* tl = new QVBoxLayout(top);
    tl->setContentsMargins(0, 0, 0, 0);
    tl->addWidget(new QLabel(tr("/proc/buddyinfo (free blocks of order 0 .. 10)"), top));
    tl->addWidget(m_buddyinfo, 1);
    split->addWidget(top);
    auto* bottom = new QWidget(split);
    auto* bl = new QVBoxLayout(bottom);
    bl->setContentsMargins(0, 0, 0, 0);
    bl->addWidget(new QLabel(tr("/proc/zoneinfo"), bottom));
    bl->addWidget(m_zoneinfo, 1);
    split->addWidget(bottom);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 4);
    lay->addWidget(split, 1);
    connect(m_side, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { refresh(); });
}

void proc_view::show_frame(const frame& f)
{
    if (f.a == m_a && f.b == m_b) return;
    m_a = f.a;
    m_b = f.b;
    m_side->setVisible(m_b != nullptr);
    // Texts of thousands of lines: a few refreshes a second are plenty, and none while hidden.
    if (!isVisible()) return;
    // A reconstruction from the snapshot costs a formatting pass: a few a second are plenty.
    if (!(m_a && m_a->procfs) && m_since.isValid() && m_since.elapsed() < m_refresh_ms && m_shown) return;
    refresh();
}

void proc_view::refresh()
{
    const int side = m_b && m_side->currentIndex() == 1 ? 1 : 0;
    const sim::snapshot* s = side == 1 ? m_b.get() : m_a.get();
    m_since.start();
    if (!s) {
        m_zoneinfo->clear();
        m_buddyinfo->clear();
        m_note->setText(tr("Waiting for the first snapshot"));
        m_shown = nullptr;
        return;
    }
    if (s == m_shown && s->seq == m_shown_seq && side == m_shown_side) return;
    // The engine captures its texts a few times a second and consecutive snapshots share them: same texts,
    // nothing to do (the cheap, common case).
    if (s->procfs && s->procfs == m_shown_text && side == m_shown_side) return;
    m_shown = s;
    m_shown_seq = s->seq;
    m_shown_side = side;
    m_shown_text = s->procfs;
    const bool from_engine = s->procfs != nullptr;
    if (from_engine) {
        // Printed here at the first look (procfs_texts), then shared, not copied.
        m_zoneinfo->set_text(std::shared_ptr<const std::string>(s->procfs, &s->procfs->zoneinfo()));
        m_buddyinfo->set_text(std::shared_ptr<const std::string>(s->procfs, &s->procfs->buddyinfo()));
    } else {
        m_zoneinfo->set_text(zoneinfo_from_snapshot(*s));
        m_buddyinfo->set_text(buddyinfo_from_snapshot(*s));
    }
    m_note->setText(from_engine
            ? tr("The simulated machine's /proc files at %1 s virtual time (the kernel's layout for %2)")
                  .arg(static_cast<double>(s->procfs_time_ns) / 1e9, 0, 'f', 3)
                  .arg(QString::fromStdString(s->era.str()))
            : tr("/proc/zoneinfo at %1 s, rebuilt from the snapshot (%2 layout; per-node and vmstat counters omitted)")
                  .arg(static_cast<double>(s->sim_time_ns) / 1e9, 0, 'f', 3)
                  .arg(QString::fromStdString(s->era.str())));
}

void proc_view::reset()
{
    m_a.reset();
    m_b.reset();
    m_shown = nullptr;
    m_shown_text.reset();
    m_shown_seq = 0;
    refresh();
}

void proc_view::showEvent(QShowEvent* e)
{
    view::showEvent(e);
    m_shown = nullptr; // stale while hidden
    m_shown_text.reset();
    refresh();
}

QString proc_view::zoneinfo_text() const
{
    return m_zoneinfo->text();
}

QString proc_view::buddyinfo_text() const
{
    return m_buddyinfo->text();
}

} // namespace pcplab::ui
