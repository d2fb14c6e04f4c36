// Where the views sit in the window: the four that answer "what is happening now" (per-CPU lists, zone->lock
// lanes, batch/high, rates) in a 2 x 2 grid of splitters, every other view as a tab below. Any view can be
// focused to fill the area (presenter mode, `pcplab --screenshot --view NAME`) and put back.
#pragma once

#include "ui/views/view.hpp"

#include <QByteArray>
#include <QPointer>
#include <QStringList>
#include <QWidget>

#include <vector>

class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace pcplab::ui
{

class view_area : public QWidget
{
    Q_OBJECT
public:
    view_area(const std::vector<view*>& views, QWidget* parent = nullptr);

    static QStringList grid_ids(); // "pcp", "locks", "limits", "rates" (those that exist go in the grid)
    const std::vector<view*>& views() const { return m_views; }
    view* find(const QString& id) const;
    QStringList ids() const;

    // Makes the view visible: its tab becomes current (grid views are always visible unless one is focused).
    void raise_view(const QString& id);
    QString current_tab() const; // the id of the view whose tab is showing
    // Brings a view forward because something asked for it (a lesson step): it stays, through the boots that
    // follow (the deferred-init tab does not come forward over it), until the user picks another tab.
    void highlight(const QString& id);
    QString highlighted() const { return m_pinned; }
    // The view asked for no longer stays (the lesson was left): the boots that follow bring the deferred-init
    // tab forward again. The tabs stay as they are.
    void clear_highlight() { m_pinned.clear(); }
    // While a machine boots the deferred-init view is brought forward (it is the one thing moving); once the
    // machine runs, the tab the user had comes back, unless they picked another meanwhile.
    void show_boot(bool booting);
    // One view fills the area; an empty or unknown id puts it back (returns false for an unknown id).
    bool set_focus_view(const QString& id);
    // One or two views fill the area side by side (presenter mode); an empty list puts them back. False
    // (and nothing changes) when an id is unknown or more than two are given.
    bool set_focus_views(const QStringList& ids);
    QString focus_view() const { return m_focus_ids.value(0); }
    QStringList focus_views() const { return m_focus_ids; }

    QByteArray save_state() const;
    bool restore_state(const QByteArray& state);

signals:
    void layout_changed();

private:
    void put_back();
    QByteArray grid_state() const;

    std::vector<view*> m_views;
    QStackedWidget* m_stack = nullptr;
    QSplitter* m_outer = nullptr;
    QSplitter* m_rows[2] = {nullptr, nullptr};
    QTabWidget* m_tabs = nullptr;
    QSplitter* m_focus_page = nullptr;
    // Where each focused view came from, to put it back in the same place.
    QStringList m_focus_ids;
    struct home {
        QPointer<QWidget> parent;
        int index = -1;
    };
    std::vector<home> m_homes;
    QByteArray m_grid_before_focus; // the splitters as they were with every view in place (save_state)
    QString m_tab_before_boot; // non-empty while the boot has the deferred-init tab forward
    QString m_pinned; // highlight()ed: a boot leaves the tabs alone
};

} // namespace pcplab::ui
