// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>
#include <QWidget>
#include <vector>

// Which token when, for one decoding sampler at one N: a raster of P(position d is unmasked
// after step i) with the steps down (the first step, N, at the top) and the positions across,
// or for images (D = side²) a side × side map of each pixel's mean commit step, "which pixel
// first". Hovering a cell shows its numbers.
namespace ui::views {

// The mean commit step of each position, 1 + Σ_{i < N−1} P(masked after the (i+1)-th step):
// the step (counting from 1, the first step taken) at which it is committed, on average
// without remasking. `commit` is N × D row-major, row 0 after the first step.
std::vector<double> meanCommitSteps(const std::vector<double>& commit, int numSteps, int dims);

class CommitRaster : public QWidget {
    Q_OBJECT
public:
    explicit CommitRaster(QWidget* parent = nullptr);

    // `side` > 0 draws the map of mean commit steps on side × side (D = side²).
    void setCommit(std::vector<double> commit, int numSteps, int dims, int side, const QString& caption);
    // The caption and the axis titles it draws (empty while it shows a message).
    QStringList texts() const;
    void clear(const QString& message);
    bool isMap() const { return m_side > 0; }
    const std::vector<double>& commit() const { return m_commit; }
    // The cell (step row, position) under a widget position, or (−1, −1).
    QPoint cellAt(const QPoint& position) const;

    QSize sizeHint() const override { return {300, 300}; }
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;

private:
    QRectF gridRect() const;
    double captionHeight() const;

    std::vector<double> m_commit;
    std::vector<double> m_meanStep;
    int m_steps = 0;
    int m_dims = 0;
    int m_side = 0;
    QString m_caption;
    QString m_message;
};

}  // namespace ui::views
