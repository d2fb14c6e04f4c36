// The grid + tabs arrangement of the views and the focus page.
#include "window/view_area.hpp"

#include <QDataStream>
#include <QIODevice>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QVBoxLayout>

namespace pcplab::ui
{

namespace
{
constexpr quint32 STATE_VERSION = 1;
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

    m_focus_page = new QWidget;
    auto* fl = new QVBoxLayout(m_focus_page);
    fl->setContentsMargins(0, 0, 0, 0);
    m_stack->addWidget(m_focus_page);
    connect(m_tabs, &QTabWidget::currentChanged, this, &view_area::layout_changed);
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
    if (!m_focus_id.isEmpty() && m_focus_id != id) set_focus_view({});
    const int ti = m_tabs->indexOf(v);
    if (ti >= 0) m_tabs->setCurrentIndex(ti);
}

void view_area::highlight(const QString& id)
{
    if (!find(id)) return;
    m_tab_before_boot.clear();
    raise_view(id);
}

QString view_area::current_tab() const
{
    const int ti = m_tabs->currentIndex();
    return ti >= 0 ? static_cast<view*>(m_tabs->widget(ti))->view_id() : QString();
}

void view_area::show_boot(bool booting)
{
    const QString deferred = QStringLiteral("deferred");
    if (!m_focus_id.isEmpty()) return; // one view was asked for: it stays
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

void view_area::put_back()
{
    view* v = find(m_focus_id);
    if (v && m_home) {
        if (auto* tabs = qobject_cast<QTabWidget*>(m_home.data())) {
            tabs->insertTab(m_home_index, v, v->title());
            tabs->setCurrentIndex(m_home_index);
        } else if (auto* split = qobject_cast<QSplitter*>(m_home.data())) {
            split->insertWidget(m_home_index, v);
        }
        v->show();
    }
    m_focus_id.clear();
    m_home = nullptr;
    m_home_index = -1;
    m_stack->setCurrentWidget(m_outer);
}

bool view_area::set_focus_view(const QString& id)
{
    view* v = id.isEmpty() ? nullptr : find(id);
    if (id == m_focus_id && (v || id.isEmpty())) return v || id.isEmpty();
    if (!m_focus_id.isEmpty()) put_back();
    if (!v) {
        emit layout_changed();
        return id.isEmpty();
    }
    if (const int ti = m_tabs->indexOf(v); ti >= 0) {
        m_home = m_tabs;
        m_home_index = ti;
        m_tabs->removeTab(ti);
    } else {
        for (auto* row : m_rows)
            if (const int si = row->indexOf(v); si >= 0) {
                m_home = row;
                m_home_index = si;
            }
    }
    m_focus_page->layout()->addWidget(v); // reparents it out of the splitter or tab
    v->show();
    m_focus_id = id;
    m_stack->setCurrentWidget(m_focus_page);
    emit layout_changed();
    return true;
}

QByteArray view_area::save_state() const
{
    QByteArray out;
    QDataStream ds(&out, QIODevice::WriteOnly);
    ds << STATE_VERSION << m_outer->saveState() << m_rows[0]->saveState() << m_rows[1]->saveState();
    ds << (m_tab_before_boot.isEmpty() ? current_tab() : m_tab_before_boot) << m_focus_id;
    return out;
}

bool view_area::restore_state(const QByteArray& state)
{
    QDataStream ds(state);
    quint32 version = 0;
    QByteArray outer, row0, row1;
    QString current_tab, focus;
    ds >> version;
    if (version != STATE_VERSION) return false;
    ds >> outer >> row0 >> row1 >> current_tab >> focus;
    if (ds.status() != QDataStream::Ok) return false;
    m_outer->restoreState(outer);
    m_rows[0]->restoreState(row0);
    m_rows[1]->restoreState(row1);
    if (!current_tab.isEmpty()) raise_view(current_tab);
    set_focus_view(focus);
    return true;
}

} // namespace pcplab::ui
