// The simulated machine's live /proc/zoneinfo and /proc/buddyinfo as text: the engine's rendering
// (snapshot::zoneinfo_text, a few times a second), or a reconstruction from the snapshot when it has none.
// Replaced only when the text changed and only while visible (the zoneinfo of 316 CPUs is thousands of
// lines). A/B: a selector picks the machine.
#pragma once

#include "ui/views/view.hpp"

#include <QElapsedTimer>

class QComboBox;
class QLabel;

namespace pcplab::ui
{

class proc_view : public view
{
    Q_OBJECT
public:
    explicit proc_view(QWidget* parent = nullptr);
    QString view_id() const override { return QStringLiteral("proc"); }
    QString title() const override { return tr("/proc"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {720, 420}; }
    QString zoneinfo_text() const; // what is shown; for the tests
    QString buddyinfo_text() const;
    // Texts of thousands of lines are refreshed at most this often (ms of wall time); 0 = every frame.
    void set_refresh_ms(int ms) { m_refresh_ms = ms; }

protected:
    void showEvent(QShowEvent* e) override;

private:
    void refresh();

    class text_pane* m_zoneinfo;
    class text_pane* m_buddyinfo;
    QLabel* m_note;
    QComboBox* m_side;
    std::shared_ptr<const sim::snapshot> m_a, m_b;
    std::uint64_t m_shown_seq = 0;
    int m_shown_side = -1;
    const sim::snapshot* m_shown = nullptr;
    std::shared_ptr<const procfs::procfs_texts> m_shown_text; // the engine's texts on display
    QElapsedTimer m_since;
    int m_refresh_ms = 250;
};

} // namespace pcplab::ui
