// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>
#include <QTextBrowser>

class QPushButton;

// Help ▸ Mathematics: the pages of docs/ (compiled in under ":/docs/") shown read-only, with
// working links between the pages and to their sections ("gaussian.md#optimal-variance").
namespace ui {

// GitHub's anchor of a heading, which the pages' links use: lower case, spaces to '-', every
// character that is not a letter, a digit, '-' or '_' dropped ("Optimal variance" →
// "optimal-variance").
QString headingAnchor(const QString& heading);

// A QTextBrowser that gives every Markdown heading its GitHub anchor after loading a page, so
// links with a #fragment land on their section.
class MarkdownBrowser : public QTextBrowser {
    Q_OBJECT
public:
    explicit MarkdownBrowser(QWidget* parent = nullptr);

protected:
    void doSetSource(const QUrl& name, QTextDocument::ResourceType type) override;
};

class MathHelpDialog : public QDialog {
    Q_OBJECT
public:
    explicit MathHelpDialog(QWidget* parent = nullptr);

    // Shows a page of docs/, optionally with a section: "README.md", "gaussian.md#gamma".
    void showPage(const QString& page);
    QTextBrowser* browser() const { return m_browser; }

    // The resource URL of a page: qrc:/docs/<page>.
    static QUrl pageUrl(const QString& page);

private:
    MarkdownBrowser* m_browser;
    QPushButton* m_back;
};

}  // namespace ui
