// SPDX-License-Identifier: MIT
#include "ui/panels/input_guard.h"

#include <QAbstractSpinBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QHash>
#include <QKeyEvent>

namespace ui::panels {
namespace {

bool isNavigationKey(int key) {
    switch (key) {
        case Qt::Key_Up:
        case Qt::Key_Down:
        case Qt::Key_PageUp:
        case Qt::Key_PageDown:
        case Qt::Key_Home:
        case Qt::Key_End:
            return true;
        default:
            return false;
    }
}

}  // namespace

InputGuard::InputGuard(QWidget* root, std::function<void()> endGesture)
    : QObject(root), m_endGesture(std::move(endGesture)) {
    m_gestureTimer.setSingleShot(true);
    m_gestureTimer.setInterval(kGestureEndMs);
    connect(&m_gestureTimer, &QTimer::timeout, this, &InputGuard::endGesture);
}

InputGuard* InputGuard::install(QWidget* root, std::function<void()> endGesture) {
    auto* guard = new InputGuard(root, std::move(endGesture));
    QList<QWidget*> fields;
    for (auto* box : root->findChildren<QAbstractSpinBox*>()) fields << box;
    for (auto* box : root->findChildren<QComboBox*>()) fields << box;
    for (QWidget* field : fields) {
        field->setFocusPolicy(Qt::StrongFocus);  // the wheel alone never focuses a field
        field->installEventFilter(guard);
        // A spin box's text is a child line edit: a click there arms the spin box too.
        for (QObject* child : field->children()) {
            if (child->isWidgetType()) child->installEventFilter(guard);
        }
    }
    return guard;
}

int InputGuard::wheelMergeId(const QObject* field) {
    // Positive, and clear of the small ids the panels use for drags.
    return 0x40000000 | static_cast<int>(qHash(reinterpret_cast<quintptr>(field)) & 0x3fffffff);
}

bool InputGuard::eventFilter(QObject* watched, QEvent* event) {
    // Events of a spin box's line edit count as the spin box's.
    QObject* field = watched;
    if (!qobject_cast<QAbstractSpinBox*>(field) && !qobject_cast<QComboBox*>(field)) {
        field = watched->parent();
    }
    switch (event->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonDblClick:
            m_armed.insert(field);
            break;
        case QEvent::FocusOut:
            m_armed.remove(field);
            break;
        case QEvent::Wheel:
            if (!m_armed.contains(field)) {
                event->ignore();  // not for this field: the panel scrolls instead
                return true;
            }
            if (m_gestureField != field) endGesture();
            m_gestureField = qobject_cast<QWidget*>(field);
            field->setProperty(kWheelGesture, true);
            m_gestureTimer.start();
            break;
        case QEvent::KeyPress:
            if (isNavigationKey(static_cast<QKeyEvent*>(event)->key()) &&
                !m_armed.contains(field)) {
                event->ignore();
                return true;
            }
            break;
        default:
            break;
    }
    return false;
}

void InputGuard::endGesture() {
    m_gestureTimer.stop();
    if (m_gestureField) {
        m_gestureField->setProperty(kWheelGesture, false);
        m_gestureField = nullptr;
        m_endGesture();
    }
}

}  // namespace ui::panels
