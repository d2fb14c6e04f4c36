// Deferred struct-page init: one progress bar per node (frames done / total), its threads, and after boot the
// modelled time next to the host's wall time. In A/B mode the B machine's bars sit under A's.
#pragma once

#include "ui/views/view.hpp"

namespace pcplab::ui
{

class deferred_view : public view
{
    Q_OBJECT
public:
    explicit deferred_view(QWidget* parent = nullptr);
    QString view_id() const override { return QStringLiteral("deferred"); }
    QString title() const override { return tr("Deferred init"); }
    void show_frame(const frame& f) override;
    void reset() override;
    QSize sizeHint() const override { return {640, 360}; }

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    std::shared_ptr<const sim::snapshot> m_a, m_b;
};

} // namespace pcplab::ui
