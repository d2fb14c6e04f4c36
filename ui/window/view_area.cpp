// The grid + tabs arrangement of the views and the focus page.
#include "ui/window/view_area.hpp"

#include <QDataStream>
#include <QIODevice>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace pcplab::ui
{

namespace
{
const QSize MIN_VIEW_SIZE(160, 120);
constexpr quint32 STATE_VERSION = 2; // 2: the grid's splitters as one block, focus as a list
} // namespace

QStringList view_area::grid_ids()
{
    return {QStringLiteral("pcp"), QStringLiteral("locks"), QStringLiteral("limits"), QStringLiteral("rates")};
}

view_area::view_area(const std::vector<view*>& views, QWidget* parent)
    : QWidget(parent)
    , m_views(views)
{
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(0, 0, 0, 0);
    m_stack = new QStackedWidget(this);
    lay->addWidget(m_stack);

    m_outer = new QSplitter(Qt::Vertical);
    m_outer->setObjectName(QStringLiteral("view-grid"));
    m_outer->setChildrenCollapsible(false);
    for (auto*& row : m_rows) {
        row = new QSplitter(Qt::Horizontal);
        row->setChildrenCollapsible(false);
        m_outer->addWidget(row);
    }
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("view-tabs"));
    m_tabs->setDocumentMode(true);
    m_outer->addWidget(m_tabs);

    // A view lays itself out in the room it gets: the window's size is the screen's to decide. (A plot's own
    // minimum follows its labels and legend, at presenter mode's font too, and held the window wider than
    // the screen.)
    for (view* v : m_views) v->setMinimumSize(MIN_VIEW_SIZE);
    const QStringList grid = grid_ids();
    int placed = 0;
    for (const QString& id : grid) {
        if (view* v = find(id)) {
            m_rows[placed / 2]->addWidget(v);
            ++placed;
        }
    }
    for (view* v : m_views) {
        if (grid.contains(v->view_id())) continue;
        m_tabs->addTab(v, v->title());
        m_tabs->setTabToolTip(m_tabs->count() - 1, v->title());
    }
    for (auto* row : m_rows)
        if (row->count() == 0) row->hide();
    if (m_tabs->count() == 0) m_tabs->hide();
    m_outer->setStretchFactor(0, 4);
    m_outer->setStretchFactor(1, 4);
    m_outer->setStretchFactor(2, 3);
    m_stack->addWidget(m_outer);

    m_focus_page = new QSplitter(Qt::Horizontal);
    m_focus_page->setObjectName(QStringLiteral("focus-page"));
    m_focus_page->setChildrenCollapsible(false);
    m_stack->addWidget(m_focus_page);
    connect(m_tabs, &QTabWidget::currentChanged, this, &view_area::layout_changed);
    connect(m_tabs, &QTabWidget::tabBarClicked, this, [this] { m_pinned.clear(); }); // the user's choice now
}

view* view_area::find(const QString& id) const
{
    for (view* v : m_views)
        if (v->view_id() == id) return v;
    return nullptr;
}

QStringList view_area::ids() const
{
    QStringList out;
    for (view* v : m_views) out << v->view_id();
    return out;
}

void view_area::raise_view(const QString& id)
{
    view* v = find(id);
    if (!v) return;
    if (!m_focus_ids.isEmpty() && !m_focus_ids.contains(id)) set_focus_view({});
    const int ti = m_tabs->indexOf(v);
    if (ti >= 0) m_tabs->setCurrentIndex(ti);
}

void view_area::highlight(const QString& id)
{
    if (!find(id)) return;
    // The boot's deferred-init tab gives way: the tab the user had comes back (the view asked for may be in
    // the grid, where raising it leaves the tabs as they are).
    if (!m_tab_before_boot.isEmpty()) raise_view(std::exchange(m_tab_before_boot, QString()));
    raise_view(id);
    m_pinned = id;
}

QString view_area::current_tab() const
{
    const int ti = m_tabs->currentIndex();
    return ti >= 0 ? static_cast<view*>(m_tabs->widget(ti))->view_id() : QString();
}

void view_area::show_boot(bool booting)
{
    const QString deferred = QStringLiteral("deferred");
    if (!m_focus_ids.isEmpty() || !m_pinned.isEmpty()) return; // a view was asked for: it stays
    if (booting && m_tab_before_boot.isEmpty() && m_tabs->indexOf(find(deferred)) >= 0) {
        m_tab_before_boot = current_tab();
        if (m_tab_before_boot == deferred)
            m_tab_before_boot.clear();
        else
            raise_view(deferred);
    } else if (!booting && !m_tab_before_boot.isEmpty()) {
        if (current_tab() == deferred) raise_view(m_tab_before_boot);
        m_tab_before_boot.clear();
    }
}

// The focused views go back where they came from, last taken first (so that the indices still hold).
void view_area::put_back()
{
    for (int i = static_cast<int>(m_focus_ids.size()) - 1; i >= 0; --i) {
        view* v = find(m_focus_ids[i]);
        const home& h = m_homes[static_cast<std::size_t>(i)];
        if (!v || !h.parent) continue;
        if (auto* tabs = qobject_cast<QTabWidget*>(h.parent.data())) {
            tabs->insertTab(h.index, v, v->title());
            tabs->setCurrentIndex(h.index);
        } else if (auto* split = qobject_cast<QSplitter*>(h.parent.data())) {
            split->insertWidget(h.index, v);
        }
        v->show();
    }
    m_focus_ids.clear();
    m_homes.clear();
    m_stack->setCurrentWidget(m_outer);
}

bool view_area::set_focus_view(const QString& id)
{
    return set_focus_views(id.isEmpty() ? QStringList() : QStringList{id});
}

bool view_area::set_focus_views(const QStringList& ids)
{
    if (ids.size() > 2) return false;
    for (const QString& id : ids)
        if (!find(id)) return false;
    if (ids == m_focus_ids) return true;
    if (!m_focus_ids.isEmpty()) put_back();
    if (ids.isEmpty()) {
        emit layout_changed();
        return true;
    }
    m_grid_before_focus = grid_state();
    for (const QString& id : ids) {
        view* v = find(id);
        home h;
        if (const int ti = m_tabs->indexOf(v); ti >= 0) {
            h = {m_tabs, ti};
            m_tabs->removeTab(ti);
        } else {
            for (auto* row : m_rows)
                if (const int si = row->indexOf(v); si >= 0) h = {row, si};
        }
        m_homes.push_back(h);
        m_focus_page->addWidget(v); // reparents it out of the splitter or tab
        v->show();
    }
    m_focus_ids = ids;
    m_stack->setCurrentWidget(m_focus_page);
    emit layout_changed();
    return true;
}

QByteArray view_area::grid_state() const
{
    QByteArray out;
    QDataStream ds(&out, QIODevice::WriteOnly);
    ds << m_outer->saveState() << m_rows[0]->saveState() << m_rows[1]->saveState();
    return out;
}

QByteArray view_area::save_state() const
{
    QByteArray out;
    QDataStream ds(&out, QIODevice::WriteOnly);
    // With views focused, the grid is missing them: its sizes are those from before.
    ds << STATE_VERSION << (m_focus_ids.isEmpty() ? grid_state() : m_grid_before_focus);
    ds << (m_tab_before_boot.isEmpty() ? current_tab() : m_tab_before_boot) << m_focus_ids.join(QLatin1Char(','));
    return out;
}

bool view_area::restore_state(const QByteArray& state)
{
    QDataStream ds(state);
    quint32 version = 0;
    QByteArray grid, outer, row0, row1;
    QString current_tab, focus;
    ds >> version;
    if (version != STATE_VERSION) return false;
    ds >> grid >> current_tab >> focus;
    if (ds.status() != QDataStream::Ok) return false;
    QDataStream gs(grid);
    gs >> outer >> row0 >> row1;
    if (gs.status() != QDataStream::Ok) return false;
    set_focus_view({}); // every view in its place before the splitters and the tab are restored
    m_outer->restoreState(outer);
    m_rows[0]->restoreState(row0);
    m_rows[1]->restoreState(row1);
    if (!current_tab.isEmpty()) raise_view(current_tab);
    set_focus_views(focus.isEmpty() ? QStringList() : focus.split(QLatin1Char(',')));
    return true;
}

} // namespace pcplab::ui
