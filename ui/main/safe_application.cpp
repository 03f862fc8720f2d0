// SPDX-License-Identifier: MIT
#include "ui/main/safe_application.h"

#include <QEvent>
#include <QMessageBox>
#include <QTimer>
#include <exception>
#include <new>

namespace ui {

bool SafeApplication::notify(QObject* receiver, QEvent* event) {
    try {
        return QApplication::notify(receiver, event);
    } catch (...) {
        // A window whose close handler failed (while saving, say) must stay open: a close
        // event is accepted unless ignored.
        if (event != nullptr && event->type() == QEvent::Close) {
            event->ignore();
        }
        try {
            throw;
        } catch (const std::bad_alloc&) {
            report(
                tr("Out of memory: the last action needed more memory than is available and "
                   "was abandoned."));
        } catch (const std::exception& e) {
            report(tr("The last action failed: %1").arg(QString::fromUtf8(e.what())));
        } catch (...) {
            report(tr("The last action failed with an unknown error."));
        }
    }
    return false;
}

void SafeApplication::report(const QString& message) {
    ++m_caught;
    qWarning("%s", qPrintable(message));
    if (m_reporting) {
        return;
    }
    // Shown from the event loop, not from inside the failed handler's stack.
    m_reporting = true;
    QTimer::singleShot(0, this, [this, message] {
        QMessageBox::warning(activeWindow(), tr("Diffuscope"),
                             message + tr("\n\nThe project is still open; save your work."));
        m_reporting = false;
    });
}

}  // namespace ui
