// SPDX-License-Identifier: MIT
#include "ui/panels/mixture_editor.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/model/oracle_specs.h"

namespace ui::panels {

using core::data::MixtureComponent2d;

namespace {

constexpr int kDensityResolution = 128;  // density samples per side, drawn smoothed
constexpr double kMargin = 8.0;          // pixels around the plane
constexpr double kHandleRadius = 5.0;
constexpr double kGrabDistance = 7.0;       // how near the handle or the rim a press must be
constexpr double kWeightDragPixels = 80.0;  // a Ctrl+drag this far up multiplies w by e

// Edited values are rounded to 1e−3 (a pixel is ~0.02 on the plane) so the spec stays short.
double snapped(double v) { return std::round(v * 1000.0) / 1000.0; }

QColor componentColor(int k) {
    static const QColor kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                     "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    return kColors[k % 8];
}

const char* kHelp = QT_TRANSLATE_NOOP(
    "ui::panels::MixtureEditor",
    "Drag a centre to move a component, its circle (radius s) or the wheel to change s, "
    "Ctrl+drag or Ctrl+wheel to change its weight. Double-click empty space to add a "
    "component; right-click one, or select it and press Delete, to remove it.");

}  // namespace

MixtureEditor::MixtureEditor(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setCursor(Qt::CrossCursor);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void MixtureEditor::setComponents(const std::vector<MixtureComponent2d>& components) {
    if (components == m_components) {
        return;
    }
    m_components = components;
    const int count = static_cast<int>(m_components.size());
    if (m_selected >= count) {
        m_selected = -1;
    }
    if (m_dragComponent >= count) {
        m_drag = Drag::None;
        m_dragComponent = -1;
    }
    updateDensity();
}

QRectF MixtureEditor::plane() const {
    const double side = std::max(1.0, std::min(width(), height()) - 2.0 * kMargin);
    return {(width() - side) / 2.0, (height() - side) / 2.0, side, side};
}

double MixtureEditor::pixelsPerUnit() const { return plane().width() / (2.0 * kExtent); }

QPointF MixtureEditor::toWidget(double x, double y) const {
    const QRectF r = plane();
    return {r.left() + (x + kExtent) * pixelsPerUnit(), r.top() + (kExtent - y) * pixelsPerUnit()};
}

QPointF MixtureEditor::toPlane(const QPointF& position) const {
    const QRectF r = plane();
    return {(position.x() - r.left()) / pixelsPerUnit() - kExtent,
            kExtent - (position.y() - r.top()) / pixelsPerUnit()};
}

QString MixtureEditor::spec() const {
    return QString::fromStdString(core::data::formatMixtureSpec(m_components));
}

MixtureEditor::Hit MixtureEditor::hitTest(const QPointF& position) const {
    // Later components are drawn on top, so they are found first; handles before rims.
    const int count = static_cast<int>(m_components.size());
    auto distance = [&](int k) {
        const MixtureComponent2d& c = m_components[static_cast<size_t>(k)];
        const QPointF d = position - toWidget(c.meanX, c.meanY);
        return std::hypot(d.x(), d.y());
    };
    auto radius = [&](int k) {
        return m_components[static_cast<size_t>(k)].stddev * pixelsPerUnit();
    };
    for (int k = count - 1; k >= 0; --k) {
        if (distance(k) <= kGrabDistance) {
            return {k, Part::Centre};
        }
    }
    for (int k = count - 1; k >= 0; --k) {
        if (std::abs(distance(k) - radius(k)) <= kGrabDistance) {
            return {k, Part::Rim};
        }
    }
    for (int k = count - 1; k >= 0; --k) {
        if (distance(k) < radius(k)) {
            return {k, Part::Inside};
        }
    }
    return {};
}

QString MixtureEditor::toolTipAt(const QPointF& position) const {
    const Hit hit = hitTest(position);
    if (hit.component < 0) {
        return tr(kHelp);
    }
    const double total =
        std::accumulate(m_components.begin(), m_components.end(), 0.0,
                        [](double sum, const MixtureComponent2d& c) { return sum + c.weight; });
    const MixtureComponent2d& c = m_components[static_cast<size_t>(hit.component)];
    return tr("component %1: weight %2 (share %3), mean (%4, %5), s = %6")
        .arg(hit.component)
        .arg(c.weight, 0, 'g', 6)
        .arg(c.weight / total, 0, 'g', 4)
        .arg(c.meanX, 0, 'g', 6)
        .arg(c.meanY, 0, 'g', 6)
        .arg(c.stddev, 0, 'g', 6);
}

void MixtureEditor::updateDensity() {
    m_density = QImage();
    auto oracle = core::model::mixtureOracle(m_components);
    if (oracle) {
        // log q_0 on a grid of cell centres (ᾱ = 1, β̄ = 0: the data itself), shaded by
        // √(q/max q) so that wide, low components stay visible beside narrow ones.
        const core::model::NoiseLevel data{.alphaBar = 1.0, .betaBar = 0.0};
        const int n = kDensityResolution;
        std::vector<double> logs(static_cast<size_t>(n * n));
        core::Vector x(2);
        for (int row = 0; row < n; ++row) {
            for (int column = 0; column < n; ++column) {
                x << -kExtent + (column + 0.5) * 2.0 * kExtent / n,
                    kExtent - (row + 0.5) * 2.0 * kExtent / n;
                logs[static_cast<size_t>(row * n + column)] = (*oracle)->logDensity(x, data);
            }
        }
        const double top = *std::max_element(logs.begin(), logs.end());
        m_density = QImage(n, n, QImage::Format_RGB32);
        const QColor low(250, 250, 252);
        const QColor high(70, 130, 200);
        for (int row = 0; row < n; ++row) {
            auto* line = reinterpret_cast<QRgb*>(m_density.scanLine(row));
            for (int column = 0; column < n; ++column) {
                const double t =
                    std::sqrt(std::exp(logs[static_cast<size_t>(row * n + column)] - top));
                line[column] =
                    qRgb(static_cast<int>(low.red() + t * (high.red() - low.red())),
                         static_cast<int>(low.green() + t * (high.green() - low.green())),
                         static_cast<int>(low.blue() + t * (high.blue() - low.blue())));
            }
        }
    }
    update();
}

void MixtureEditor::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.fillRect(rect(), palette().window());
    const QRectF r = plane();
    painter.fillRect(r, QColor(250, 250, 252));
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    if (!m_density.isNull()) {
        painter.drawImage(r, m_density);
    }
    painter.setRenderHint(QPainter::Antialiasing);
    for (int i = -static_cast<int>(kExtent); i <= static_cast<int>(kExtent); ++i) {
        painter.setPen(QPen(i == 0 ? QColor(0, 0, 0, 70) : QColor(0, 0, 0, 25), 1));
        painter.drawLine(toWidget(i, -kExtent), toWidget(i, kExtent));
        painter.drawLine(toWidget(-kExtent, i), toWidget(kExtent, i));
    }
    painter.setClipRect(r);
    const double scale = pixelsPerUnit();
    for (size_t k = 0; k < m_components.size(); ++k) {
        const MixtureComponent2d& c = m_components[k];
        const bool selected = static_cast<int>(k) == m_selected;
        const QColor color = componentColor(static_cast<int>(k));
        const QPointF centre = toWidget(c.meanX, c.meanY);
        QColor faint = color;
        faint.setAlpha(90);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(faint, 1, Qt::DashLine));
        painter.drawEllipse(centre, 2.0 * c.stddev * scale, 2.0 * c.stddev * scale);
        painter.setPen(QPen(color, selected ? 2.5 : 1.5));
        painter.drawEllipse(centre, c.stddev * scale, c.stddev * scale);
        painter.setPen(QPen(selected ? Qt::black : Qt::white, 1.5));
        painter.setBrush(color);
        painter.drawEllipse(centre, kHandleRadius, kHandleRadius);
        painter.setPen(Qt::black);
        painter.drawText(centre + QPointF(kHandleRadius + 2, -kHandleRadius - 2),
                         QString::number(k));
    }
    painter.setClipping(false);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(QColor(0, 0, 0, 90), 1));
    painter.drawRect(r);
}

bool MixtureEditor::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        QToolTip::showText(help->globalPos(), toolTipAt(help->pos()), this);
        return true;
    }
    return QWidget::event(event);
}

void MixtureEditor::mousePressEvent(QMouseEvent* event) {
    const Hit hit = hitTest(event->position());
    if (event->button() == Qt::RightButton) {
        if (hit.component >= 0) {
            removeComponent(hit.component);
        }
        return;
    }
    if (event->button() != Qt::LeftButton) {
        return;
    }
    m_selected = hit.component;
    update();
    if (hit.component < 0) {
        return;
    }
    if (event->modifiers() & Qt::ControlModifier) {
        m_drag = Drag::Weight;
    } else if (hit.part == Part::Centre) {
        m_drag = Drag::Move;
    } else if (hit.part == Part::Rim) {
        m_drag = Drag::Resize;
    } else {
        return;
    }
    m_dragComponent = hit.component;
    m_dragMoved = false;
    m_pressPosition = event->position();
    m_pressPlane = toPlane(event->position());
    m_pressComponent = m_components[static_cast<size_t>(hit.component)];
}

void MixtureEditor::mouseMoveEvent(QMouseEvent* event) {
    if (m_drag == Drag::None) {
        const Part part = hitTest(event->position()).part;
        setCursor(part == Part::Centre ? Qt::SizeAllCursor
                  : part == Part::Rim  ? Qt::SizeFDiagCursor
                                       : Qt::CrossCursor);
        return;
    }
    MixtureComponent2d c = m_pressComponent;
    const QPointF at = toPlane(event->position());
    switch (m_drag) {
        case Drag::Move:
            // Relative to the press, so grabbing the handle off-centre does not make it jump.
            c.meanX = snapped(std::clamp(c.meanX + at.x() - m_pressPlane.x(), -kExtent, kExtent));
            c.meanY = snapped(std::clamp(c.meanY + at.y() - m_pressPlane.y(), -kExtent, kExtent));
            break;
        case Drag::Resize:
            c.stddev = snapped(
                std::clamp(std::hypot(at.x() - c.meanX, at.y() - c.meanY), kMinStddev, kMaxStddev));
            break;
        case Drag::Weight: {
            const double up = m_pressPosition.y() - event->position().y();
            c.weight = snapped(
                std::clamp(c.weight * std::exp(up / kWeightDragPixels), kMinWeight, kMaxWeight));
            break;
        }
        case Drag::None:
            break;
    }
    MixtureComponent2d& current = m_components[static_cast<size_t>(m_dragComponent)];
    if (c == current) {
        return;
    }
    current = c;
    m_dragMoved = true;
    updateDensity();
    emit specDragged(spec(),
                     m_drag == Drag::Move     ? tr("Move mixture component")
                     : m_drag == Drag::Resize ? tr("Change mixture s")
                                              : tr("Change mixture weight"),
                     false);
}

void MixtureEditor::mouseReleaseEvent(QMouseEvent*) {
    if (m_drag == Drag::None) {
        return;
    }
    const bool moved = m_dragMoved;
    m_drag = Drag::None;
    m_dragComponent = -1;
    m_dragMoved = false;
    if (moved) {
        emit specDragged(spec(), QString(), true);
    }
}

void MixtureEditor::mouseDoubleClickEvent(QMouseEvent* event) {
    const QPointF at = toPlane(event->position());
    if (event->button() != Qt::LeftButton || hitTest(event->position()).component >= 0 ||
        std::abs(at.x()) > kExtent || std::abs(at.y()) > kExtent ||
        static_cast<int>(m_components.size()) >= core::data::kMaxMixtureComponents) {
        return;
    }
    // The average weight gives the new component an even share.
    const double total =
        std::accumulate(m_components.begin(), m_components.end(), 0.0,
                        [](double sum, const MixtureComponent2d& c) { return sum + c.weight; });
    const double weight =
        m_components.empty() ? 1.0 : total / static_cast<double>(m_components.size());
    m_components.push_back({std::clamp(snapped(weight), kMinWeight, kMaxWeight), snapped(at.x()),
                            snapped(at.y()), 0.3});
    m_selected = static_cast<int>(m_components.size()) - 1;
    updateDensity();
    emit specEdited(spec(), tr("Add mixture component"));
}

void MixtureEditor::wheelEvent(QWheelEvent* event) {
    const Hit hit = hitTest(event->position());
    if (hit.component < 0 || m_drag != Drag::None || event->angleDelta().y() == 0) {
        event->ignore();  // let an enclosing scroll area scroll
        return;
    }
    const double steps = event->angleDelta().y() / 120.0;
    MixtureComponent2d& c = m_components[static_cast<size_t>(hit.component)];
    const MixtureComponent2d before = c;
    const bool weight = event->modifiers() & Qt::ControlModifier;
    if (weight) {
        c.weight = snapped(std::clamp(c.weight * std::pow(1.25, steps), kMinWeight, kMaxWeight));
    } else {
        c.stddev = snapped(std::clamp(c.stddev * std::pow(1.1, steps), kMinStddev, kMaxStddev));
    }
    if (c == before) {
        return;
    }
    m_selected = hit.component;
    updateDensity();
    emit specEdited(spec(), weight ? tr("Change mixture weight") : tr("Change mixture s"));
}

void MixtureEditor::keyPressEvent(QKeyEvent* event) {
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && m_selected >= 0) {
        removeComponent(m_selected);
        return;
    }
    QWidget::keyPressEvent(event);
}

void MixtureEditor::removeComponent(int k) {
    if (m_components.size() <= 1 || m_drag != Drag::None) {
        return;
    }
    m_components.erase(m_components.begin() + k);
    m_selected = -1;
    updateDensity();
    emit specEdited(spec(), tr("Remove mixture component"));
}

}  // namespace ui::panels
