// SPDX-License-Identifier: MIT
#include "ui/main/explanation_pane.h"

#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBrowser>

#include "core/util/number_text.h"
#include "ui/charts/view_panel.h"
#include "ui/main/view_explanations.h"

namespace ui {
namespace {

// The provenance lines keep every digit for the CSV files; people read 0.3, not
// 0.30000000000000004, and 0.3333 for a third.
QString readableNumbers(const QString& line) {
    static const QRegularExpression number(R"((?<![\w.])-?\d+\.\d{5,}(?:[eE][-+]?\d+)?(?![\w.]))");
    QString result;
    qsizetype from = 0;
    for (auto it = number.globalMatch(line); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        result += line.mid(from, match.capturedStart() - from);
        result += QString::fromStdString(core::readableText(match.captured().toDouble()));
        from = match.capturedEnd();
    }
    return result + line.mid(from);
}

}  // namespace

ExplanationPane::ExplanationPane(QWidget* parent)
    : QDockWidget(tr("Explanation"), parent), m_text(new QTextBrowser) {
    setObjectName("explanationDock");
    m_text->setOpenExternalLinks(false);
    m_text->setMinimumWidth(260);
    setWidget(m_text);
    // The numbers change as jobs finish; a cheap rebuild once a second while visible.
    m_refresh.setInterval(1000);
    connect(&m_refresh, &QTimer::timeout, this, &ExplanationPane::refresh);
    connect(this, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible) {
            refresh();
            m_refresh.start();
        } else {
            m_refresh.stop();
        }
    });
}

void ExplanationPane::setViews(std::vector<std::pair<QString, charts::ViewPanel*>> views) {
    m_views.clear();
    for (auto& [name, view] : views) m_views.emplace_back(name, view);
    refresh();
}

QString ExplanationPane::html() const {
    QString html;
    for (const auto& [name, view] : m_views) {
        // A view may draw something else for some data (the Particles view draws images).
        const QString variant = view != nullptr ? view->explanationVariant() : QString();
        ViewExplanation e = variant.isEmpty() ? ViewExplanation{} : viewExplanation(name + ":" + variant);
        if (e.title.isEmpty()) e = viewExplanation(name);
        if (e.title.isEmpty()) continue;
        html += tr("<h3>%1</h3><p><b>What it shows.</b> %2</p><p><b>How to read it.</b> %3</p>"
                   "<p><b>Try this.</b> %4</p>")
                    .arg(e.title.toHtmlEscaped(), e.shows.toHtmlEscaped(), e.read.toHtmlEscaped(),
                         e.tryThis.toHtmlEscaped());
        if (view == nullptr) continue;
        QString now;
        if (view->isStale()) {
            html += "<p><b>" + tr("Now.") + "</b> " +
                    tr("Out of date: the new project's results are being computed.") + "</p>";
            continue;
        }
        for (const std::string& line : view->provenance()) {
            now += "<li>" + readableNumbers(QString::fromStdString(line)).toHtmlEscaped() + "</li>";
        }
        if (!view->message().isEmpty()) {
            now += "<li>" + view->message().toHtmlEscaped() + "</li>";
        }
        if (!now.isEmpty()) html += "<p><b>" + tr("Now.") + "</b></p><ul>" + now + "</ul>";
    }
    return html.isEmpty() ? tr("<p>No explanation for this view.</p>") : html;
}

void ExplanationPane::refresh() {
    const QString text = html();
    if (text == m_shown) return;  // keep the scroll position when nothing changed
    m_shown = text;
    const int scroll = m_text->verticalScrollBar() ? m_text->verticalScrollBar()->value() : 0;
    m_text->setHtml(text);
    if (m_text->verticalScrollBar()) m_text->verticalScrollBar()->setValue(scroll);
}

}  // namespace ui
