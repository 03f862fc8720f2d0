// SPDX-License-Identifier: MIT
// Tests of the mixture editor in the Gaussian panel: dragging a centre, the rim or (with Ctrl)
// the weight writes the expected spec to the document as one undo step each, undo restores the
// exact previous spec and the editor follows; components are added and removed (never below
// one); the editor shows only for mixture data; invalid specs are refused; it renders.
#include <QApplication>
#include <QComboBox>
#include <QSet>
#include <QTest>
#include <QWheelEvent>

#include "core/data/gaussian_data.h"
#include "tests/support/test_support.h"
#include "ui/document/project_document.h"
#include "ui/panels/gaussian_panel.h"
#include "ui/panels/mixture_editor.h"

using core::data::MixtureComponent2d;
using ui::panels::MixtureEditor;

namespace {

const QString kSpec = "mixture:0.5,-1,0,0.4;0.5,1,0.5,0.3";

std::vector<MixtureComponent2d> componentsOf(const QString& spec) {
    auto parsed = core::data::parseMixtureSpec(spec.toStdString());
    return parsed ? *parsed : std::vector<MixtureComponent2d>{};
}

// Presses at `from`, moves to `to` in a few steps (as a hand does) and releases there.
void drag(QWidget* widget,
          QPointF from,
          QPointF to,
          Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QTest::mousePress(widget, Qt::LeftButton, modifiers, from.toPoint());
    constexpr int kSteps = 6;
    for (int i = 1; i <= kSteps; ++i) {
        QTest::mouseMove(widget, (from + (to - from) * i / kSteps).toPoint());
    }
    QTest::mouseRelease(widget, Qt::LeftButton, modifiers, to.toPoint());
}

}  // namespace

class tst_MixtureEditor : public QObject {
    Q_OBJECT

private slots:
    void init();
    void cleanup();
    void dragMovesTheMeanInOneUndoStep();
    void rimAndCtrlDragChangeSAndWeight();
    void wheelChangesS();
    void addAndRemoveComponents();
    void showsOnlyForMixturesAndRefusesInvalidSpecs();
    void tooltipAndRendering();

private:
    std::vector<MixtureComponent2d> documentComponents() const {
        return componentsOf(QString::fromStdString(m_document->gaussian().data));
    }
    // One pixel in plane units.
    double pixel() const { return 1.0 / (m_editor->toWidget(1, 0) - m_editor->toWidget(0, 0)).x(); }

    std::unique_ptr<ui::document::ProjectDocument> m_document;
    ui::jobs::JobRunner m_files;  // what the explorer owns in the window
    ui::jobs::JobRunner m_checks;
    std::unique_ptr<ui::panels::GaussianPanel> m_panel;
    MixtureEditor* m_editor = nullptr;
};

void tst_MixtureEditor::init() {
    m_document = std::make_unique<ui::document::ProjectDocument>();
    m_panel = std::make_unique<ui::panels::GaussianPanel>(m_document.get(), &m_files, &m_checks);
    m_panel->resize(380, 1400);
    m_panel->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_panel.get()));
    m_editor = m_panel->mixtureEditor();
    QVERIFY(m_editor != nullptr);
    m_panel->editDataSpec(kSpec);
    QCOMPARE(QString::fromStdString(m_document->gaussian().data), kSpec);
    QVERIFY(m_editor->isVisible());
    QVERIFY2(m_editor->width() >= 150 && m_editor->height() >= 150,
             qPrintable(QString("%1×%2").arg(m_editor->width()).arg(m_editor->height())));
    QVERIFY(m_editor->components() == componentsOf(kSpec));
}

void tst_MixtureEditor::cleanup() {
    m_panel.reset();
    m_document.reset();
}

void tst_MixtureEditor::dragMovesTheMeanInOneUndoStep() {
    const int steps = m_document->undoStack()->count();
    drag(m_editor, m_editor->toWidget(-1.0, 0.0), m_editor->toWidget(0.5, -1.2));
    const auto after = documentComponents();
    QCOMPARE(after.size(), size_t{2});
    // Press and release land on whole pixels, each off by at most half a pixel.
    DS_COMPARE_ABS(after[0].meanX, 0.5, pixel() + 1e-3);
    DS_COMPARE_ABS(after[0].meanY, -1.2, pixel() + 1e-3);
    QCOMPARE(after[0].weight, 0.5);
    QCOMPARE(after[0].stddev, 0.4);
    QVERIFY(after[1] == componentsOf(kSpec)[1]);
    QVERIFY(m_editor->components() == after);
    QCOMPARE(m_document->undoStack()->count(), steps + 1);

    m_document->undoStack()->undo();
    QCOMPARE(QString::fromStdString(m_document->gaussian().data), kSpec);
    QVERIFY(m_editor->components() == componentsOf(kSpec));
    m_document->undoStack()->redo();
    QVERIFY(documentComponents() == after);

    // A second drag is a second undo step, not merged into the first.
    const QString first = QString::fromStdString(m_document->gaussian().data);
    drag(m_editor, m_editor->toWidget(1.0, 0.5), m_editor->toWidget(2.0, 2.0));
    QCOMPARE(m_document->undoStack()->count(), steps + 2);
    DS_COMPARE_ABS(documentComponents()[1].meanX, 2.0, pixel() + 1e-3);
    m_document->undoStack()->undo();
    QCOMPARE(QString::fromStdString(m_document->gaussian().data), first);
}

void tst_MixtureEditor::rimAndCtrlDragChangeSAndWeight() {
    const int steps = m_document->undoStack()->count();
    // Component 1 sits at (1, 0.5) with s = 0.3: grab its rim on the right, pull it out to 0.8.
    drag(m_editor, m_editor->toWidget(1.3, 0.5), m_editor->toWidget(1.8, 0.5));
    auto after = documentComponents();
    DS_COMPARE_ABS(after[1].stddev, 0.8, pixel() + 1e-3);
    QCOMPARE(after[1].meanX, 1.0);
    QCOMPARE(after[1].meanY, 0.5);
    QCOMPARE(m_document->undoStack()->count(), steps + 1);

    // Ctrl+drag 80 pixels up multiplies the weight by e (rounded to 1e−3); the mean stays.
    const QPointF centre = m_editor->toWidget(-1.0, 0.0);
    drag(m_editor, centre, centre - QPointF(0, 80), Qt::ControlModifier);
    after = documentComponents();
    QCOMPARE(after[0].weight, std::round(0.5 * std::exp(1.0) * 1000.0) / 1000.0);
    QCOMPARE(after[0].meanX, -1.0);
    QCOMPARE(after[0].meanY, 0.0);
    QCOMPARE(m_document->undoStack()->count(), steps + 2);
}

void tst_MixtureEditor::wheelChangesS() {
    const QPointF at = m_editor->toWidget(-1.0, 0.1);
    QWheelEvent wheel(at, m_editor->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(m_editor, &wheel);
    QCOMPARE(documentComponents()[0].stddev, 0.44);
    m_document->undoStack()->undo();
    QCOMPARE(QString::fromStdString(m_document->gaussian().data), kSpec);
}

void tst_MixtureEditor::addAndRemoveComponents() {
    const int steps = m_document->undoStack()->count();
    const QPointF empty = m_editor->toWidget(-2.0, 2.0);
    QTest::mouseDClick(m_editor, Qt::LeftButton, Qt::NoModifier, empty.toPoint());
    QTest::mouseRelease(m_editor, Qt::LeftButton, Qt::NoModifier, empty.toPoint());
    auto after = documentComponents();
    QCOMPARE(after.size(), size_t{3});
    DS_COMPARE_ABS(after[2].meanX, -2.0, pixel());
    DS_COMPARE_ABS(after[2].meanY, 2.0, pixel());
    QCOMPARE(after[2].weight, 0.5);  // the average: an even share
    QCOMPARE(m_document->undoStack()->count(), steps + 1);
    // The editor follows undo and redo.
    m_document->undoStack()->undo();
    QCOMPARE(m_editor->components().size(), size_t{2});
    m_document->undoStack()->redo();
    QCOMPARE(m_editor->components().size(), size_t{3});

    // Right-click removes a component.
    QTest::mouseClick(m_editor, Qt::RightButton, Qt::NoModifier,
                      m_editor->toWidget(1.0, 0.5).toPoint());
    after = documentComponents();
    QCOMPARE(after.size(), size_t{2});
    DS_COMPARE_ABS(after[1].meanX, -2.0, pixel());
    // Select with a click, remove with Delete.
    QTest::mouseClick(m_editor, Qt::LeftButton, Qt::NoModifier,
                      m_editor->toWidget(-1.0, 0.0).toPoint());
    QCOMPARE(m_editor->selected(), 0);
    QTest::keyClick(m_editor, Qt::Key_Delete);
    after = documentComponents();
    QCOMPARE(after.size(), size_t{1});
    DS_COMPARE_ABS(after[0].meanX, -2.0, pixel());
    // Never below one component, and no undo step for the refused removals.
    const int count = m_document->undoStack()->count();
    QTest::mouseClick(m_editor, Qt::RightButton, Qt::NoModifier,
                      m_editor->toWidget(-2.0, 2.0).toPoint());
    QTest::mouseClick(m_editor, Qt::LeftButton, Qt::NoModifier,
                      m_editor->toWidget(-2.0, 2.0).toPoint());
    QTest::keyClick(m_editor, Qt::Key_Delete);
    QCOMPARE(documentComponents().size(), size_t{1});
    QCOMPARE(m_document->undoStack()->count(), count);
    // Undo walks back through every edit to the starting spec.
    while (m_document->undoStack()->index() > steps) m_document->undoStack()->undo();
    QCOMPARE(QString::fromStdString(m_document->gaussian().data), kSpec);
    QVERIFY(m_editor->components() == componentsOf(kSpec));
}

void tst_MixtureEditor::showsOnlyForMixturesAndRefusesInvalidSpecs() {
    m_panel->editDataSpec("toy:ring,n=300");
    QVERIFY(!m_editor->isVisible());
    m_document->undoStack()->undo();
    QVERIFY(m_editor->isVisible());
    QVERIFY(m_editor->components() == componentsOf(kSpec));

    // An invalid spec is refused beside the field; nothing changes.
    const int steps = m_document->undoStack()->count();
    m_panel->editDataSpec("mixture:1,0,0,1;1,2,2,-0.5");
    QVERIFY2(m_panel->fieldError("data").contains("mixture[1].s"),
             qPrintable(m_panel->fieldError("data")));
    QCOMPARE(QString::fromStdString(m_document->gaussian().data), kSpec);
    QCOMPARE(m_document->undoStack()->count(), steps);
    QVERIFY(m_editor->components() == componentsOf(kSpec));

    // The combo's mixture item is selected for any mixture spec, and choosing it from other data
    // gives the three-component default.
    auto* combo = m_panel->findChild<QComboBox*>("data");
    QVERIFY(combo != nullptr);
    QCOMPARE(combo->currentText(), QString("Gaussian mixture (drag on the plane)"));
    m_panel->editDataSpec("toy:ring,n=300");
    combo->setCurrentIndex(combo->findText("Gaussian mixture (drag on the plane)"));
    QCOMPARE(documentComponents().size(), size_t{3});
    QVERIFY(m_editor->isVisible());
    QCOMPARE(m_editor->components().size(), size_t{3});
}

void tst_MixtureEditor::tooltipAndRendering() {
    const QString tip = m_editor->toolTipAt(m_editor->toWidget(-1.0, 0.0));
    QVERIFY2(tip.contains("component 0") && tip.contains("mean (-1, 0)") &&
                 tip.contains("s = 0.4") && tip.contains("share 0.5"),
             qPrintable(tip));
    QVERIFY(m_editor->toolTipAt(m_editor->toWidget(2.5, -2.5)).contains("Double-click"));

    const QImage image = m_editor->grab().toImage();
    QVERIFY(!image.isNull());
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            colours.insert(image.pixel(x, y));
        }
    }
    QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
    // The density is shaded: darker inside a component than far from all of them.
    const QPointF inside = m_editor->toWidget(-1.2, 0.2) * image.devicePixelRatio();
    const QPointF far = m_editor->toWidget(-2.7, -2.7) * image.devicePixelRatio();
    QVERIFY(qGray(image.pixel(inside.toPoint())) + 30 < qGray(image.pixel(far.toPoint())));
}

QTEST_MAIN(tst_MixtureEditor)
#include "tst_mixture_editor.moc"
