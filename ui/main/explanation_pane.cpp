// SPDX-License-Identifier: MIT
#include "ui/main/explanation_pane.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBrowser>

#include "core/util/number_text.h"
#include "ui/charts/math_text.h"
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

// A provenance line ("key: value", the CSV header's English) as the pane shows it: the key and
// the worded values translated, identifiers and data (spec strings, ids, file names) as code,
// numbers readable.
QString shownProvenance(const std::string& text) {
    static const char* const kKeys[] = {QT_TRANSLATE_NOOP("ui::provenance", "process"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "classes K"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "pi"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "schedule"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "N"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "data"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "condition"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "model"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "trajectory"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "path steps"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "kernel"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "seed"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "eta"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "gamma"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "dp cost"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "sampler"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "compare sampler"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "categorical schedule"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "categorical N"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "gaussian schedule"),
                                        QT_TRANSLATE_NOOP("ui::provenance", "gaussian N")};
    static const char* const kWords[] = {
        QT_TRANSLATE_NOOP("ui::provenance", "categorical"),
        QT_TRANSLATE_NOOP("ui::provenance", "gaussian"),
        QT_TRANSLATE_NOOP("ui::provenance", "exact oracle of the data"),
        QT_TRANSLATE_NOOP("ui::provenance", "none"),
        QT_TRANSLATE_NOOP("ui::provenance", "the mask state"),
        QT_TRANSLATE_NOOP("ui::provenance", "the 8x8 digits")};
    const auto tr = [](const QString& source) {
        return QCoreApplication::translate("ui::provenance", source.toUtf8().constData());
    };
    const QString line = QString::fromStdString(text);
    const qsizetype colon = line.indexOf(": ");
    if (colon < 0) return readableNumbers(line).toHtmlEscaped();
    const QString key = line.left(colon);
    QString value = line.mid(colon + 2);
    bool knownKey = false;
    for (const char* k : kKeys) knownKey = knownKey || key == k;
    const QString shownKey = (knownKey ? tr(key) : key).toHtmlEscaped();
    const auto code = [](const QString& v) {
        return "<code>" + readableNumbers(v).toHtmlEscaped() + "</code>";
    };
    for (const char* w : kWords) {
        if (value == w) return shownKey + ": " + tr(value).toHtmlEscaped();
    }
    static const QRegularExpression estimated(
        R"(^estimated, M = (\d+), estimator (\S+), seed (\d+)$)");
    static const QRegularExpression imported(R"(^imported \((.*)\)$)");
    static const QRegularExpression masked(R"(^(\d+) and a mask state$)");
    static const QRegularExpression levels(R"(^(\w+), (\d+) levels$)");
    if (const auto m = estimated.match(value); m.hasMatch()) {
        return shownKey + ": " +
               QCoreApplication::translate("ui::provenance",
                                           "estimated, M = %1, estimator %2, seed %3")
                   .toHtmlEscaped()
                   .arg(m.captured(1), code(m.captured(2)), m.captured(3));
    }
    if (const auto m = imported.match(value); m.hasMatch()) {
        return shownKey + ": " +
               QCoreApplication::translate("ui::provenance", "imported (%1)")
                   .toHtmlEscaped()
                   .arg(code(m.captured(1)));
    }
    if (const auto m = masked.match(value); m.hasMatch()) {
        return shownKey + ": " +
               QCoreApplication::translate("ui::provenance", "%1 and a mask state")
                   .toHtmlEscaped()
                   .arg(m.captured(1));
    }
    if (const auto m = levels.match(value); m.hasMatch()) {
        return shownKey + ": " +
               QCoreApplication::translate("ui::provenance", "%1, %2 levels")
                   .toHtmlEscaped()
                   .arg(code(m.captured(1)), m.captured(2));
    }
    return shownKey + ": " + code(value);
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
        ViewExplanation e =
            variant.isEmpty() ? ViewExplanation{} : viewExplanation(name + ":" + variant);
        if (e.title.isEmpty()) e = viewExplanation(name);
        if (e.title.isEmpty()) continue;
        html += tr("<h3>%1</h3><p><b>What it shows.</b> %2</p><p><b>How to read it.</b> %3</p>"
                   "<p><b>Try this.</b> %4</p>")
                    .arg(e.title.toHtmlEscaped(), charts::withSubscripts(e.shows.toHtmlEscaped()),
                         charts::withSubscripts(e.read.toHtmlEscaped()),
                         charts::withSubscripts(e.tryThis.toHtmlEscaped()));
        if (view == nullptr) continue;
        QString now;
        if (view->isStale()) {
            html += "<p><b>" + tr("Now.") + "</b> " +
                    tr("Out of date: the new results are being computed.") + "</p>";
            continue;
        }
        for (const std::string& line : view->provenance()) {
            now += "<li>" + shownProvenance(line) + "</li>";
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
