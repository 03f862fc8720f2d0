// SPDX-License-Identifier: MIT
#include "ui/main/math_help.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QPushButton>
#include <QTextBlock>
#include <QTextCursor>
#include <QVBoxLayout>

namespace ui {

QString headingAnchor(const QString& heading) {
    QString anchor;
    for (const QChar c : heading.trimmed().toLower()) {
        if (c.isLetterOrNumber() || c == '-' || c == '_') {
            anchor += c;
        } else if (c == ' ') {
            anchor += '-';
        }
    }
    return anchor;
}

MarkdownBrowser::MarkdownBrowser(QWidget* parent) : QTextBrowser(parent) {
    setOpenExternalLinks(true);
}

void MarkdownBrowser::doSetSource(const QUrl& name, QTextDocument::ResourceType type) {
    QTextBrowser::doSetSource(name, type);
    // Qt's Markdown reader keeps the heading level but names no anchors: add GitHub's.
    for (QTextBlock block = document()->begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() > 0) {
            QTextCursor cursor(block);
            cursor.movePosition(QTextCursor::EndOfBlock, QTextCursor::KeepAnchor);
            QTextCharFormat format;
            format.setAnchor(true);
            format.setAnchorNames({headingAnchor(block.text())});
            cursor.mergeCharFormat(format);
        }
    }
    if (name.hasFragment()) {
        scrollToAnchor(name.fragment());
    }
}

QUrl MathHelpDialog::pageUrl(const QString& page) { return QUrl("qrc:/docs/" + page); }

MathHelpDialog::MathHelpDialog(QWidget* parent)
    : QDialog(parent), m_browser(new MarkdownBrowser), m_back(new QPushButton(tr("Back"))) {
    setWindowTitle(tr("Mathematics — Diffuscope"));
    m_browser->setSearchPaths({":/docs"});
    auto* contents = new QPushButton(tr("Contents"));
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
    close->button(QDialogButtonBox::Close)->setText(tr("Close"));  // without qtbase_*.qm too
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_back);
    buttons->addWidget(contents);
    buttons->addStretch();
    buttons->addWidget(close);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_browser);
    layout->addLayout(buttons);
    m_back->setEnabled(false);
    connect(m_back, &QPushButton::clicked, m_browser, &QTextBrowser::backward);
    connect(m_browser, &QTextBrowser::backwardAvailable, m_back, &QPushButton::setEnabled);
    connect(contents, &QPushButton::clicked, this, [this] { showPage("README.md"); });
    connect(close, &QDialogButtonBox::rejected, this, &QDialog::close);
    resize(820, 680);
}

void MathHelpDialog::showPage(const QString& page) {
    m_browser->setSource(pageUrl(page), QTextDocument::MarkdownResource);
}

}  // namespace ui
