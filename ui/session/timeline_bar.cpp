#include "ui/session/timeline_bar.hpp"

#include "ui/session/replay_source.hpp"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include <algorithm>
#include <cmath>

namespace pcplab::ui
{

namespace
{

QString seconds(qint64 ns)
{
    return QString::number(static_cast<double>(ns) / 1e9, 'f', 3) + QStringLiteral(" s");
}

} // namespace

const std::vector<std::pair<QString, double>>& timeline_bar::speed_choices()
{
    static const std::vector<std::pair<QString, double>> k = {
        {QStringLiteral("every snapshot"), 0},
        {QStringLiteral("1 ms/s"), 1e6},
        {QStringLiteral("10 ms/s"), 1e7},
        {QStringLiteral("100 ms/s"), 1e8},
        {QStringLiteral("1 s/s"), 1e9},
        {QStringLiteral("10 s/s"), 1e10},
    };
    return k;
}

double timeline_bar::starting_speed(double span_ns, double recorded_speed)
{
    double want = span_ns / FOLLOW_WALL_S;
    if (recorded_speed > 0) want = std::min(want, recorded_speed);
    double best = 1e6; // the slowest choice
    for (const auto& [label, speed] : speed_choices())
        if (speed > 0 && speed <= want) best = std::max(best, speed);
    return best;
}

timeline_bar::timeline_bar(replay_source* source, QWidget* parent)
    : QWidget(parent)
    , m_source(source)
    , m_play(new QToolButton(this))
    , m_step(new QToolButton(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_speed(new QComboBox(this))
    , m_time(new QLabel(this))
{
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(4, 2, 4, 2);
    m_play->setToolTip(tr("Play / pause the recording"));
    m_step->setToolTip(tr("Next snapshot"));
    m_step->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
    m_slider->setRange(0, SLIDER_STEPS);
    m_slider->setToolTip(tr("Virtual time: drag to scrub"));
    for (const auto& [label, speed] : speed_choices()) m_speed->addItem(label, speed);
    if (source->recorded_speed() > 0)
        m_speed->insertItem(0,
            tr("as recorded (%1)").arg(seconds(static_cast<qint64>(source->recorded_speed())) + "/s"),
            source->recorded_speed());
    const double start
        = starting_speed(static_cast<double>(source->duration_ns() - source->start_ns()), source->recorded_speed());
    m_speed->setCurrentIndex(std::max(0, m_speed->findData(start)));
    m_speed->setToolTip(tr("Virtual time per wall second"));
    m_time->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("0000.000 s / 0000.000 s")));
    lay->addWidget(m_play);
    lay->addWidget(m_step);
    lay->addWidget(m_slider, 1);
    lay->addWidget(m_time);
    lay->addWidget(m_speed);

    auto set_icon = [this](bool playing) {
        m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    };
    set_icon(source->playing());
    connect(m_play, &QToolButton::clicked, this, [this] {
        if (m_source->playing())
            m_source->pause();
        else
            m_source->resume();
    });
    connect(m_step, &QToolButton::clicked, this, [this] { m_source->step(); });
    connect(source, &replay_source::playing_changed, this, set_icon);
    connect(source, &replay_source::position_changed, this, &timeline_bar::follow);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) {
        const double frac = static_cast<double>(v) / SLIDER_STEPS;
        const qint64 start = m_source->start_ns(), span = m_source->duration_ns() - start;
        m_source->seek(start + static_cast<qint64>(std::llround(frac * static_cast<double>(span))));
    });
    connect(m_speed, &QComboBox::currentIndexChanged, this,
        [this](int i) { m_source->set_speed(m_speed->itemData(i).toDouble()); });
    m_source->set_speed(m_speed->currentData().toDouble());
    follow(source->position_ns());
}

void timeline_bar::follow(qint64 t_ns)
{
    const qint64 start = m_source->start_ns(), d = m_source->duration_ns(), span = d - start;
    {
        QSignalBlocker block(m_slider); // moving the handle must not seek again
        const double frac = span > 0 ? static_cast<double>(t_ns - start) / static_cast<double>(span) : 0.0;
        m_slider->setValue(static_cast<int>(std::llround(frac * SLIDER_STEPS)));
    }
    m_time->setText(seconds(t_ns) + QStringLiteral(" / ") + seconds(d));
}

} // namespace pcplab::ui
