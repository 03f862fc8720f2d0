// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QStringList>
#include <array>
#include <memory>
#include <vector>

#include "core/project/chain_decoding.h"
#include "ui/charts/view_panel.h"
#include "ui/document/project_document.h"

class QChart;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSlider;
class QSpinBox;
class QTableWidget;
namespace ui::views {
class ChainText;
class CommitRaster;
}

// The Decoding view of the categorical explorer (docs/categorical.md, "Decoding samplers"):
// masked-diffusion decoders side by side on the project's data and denoiser. Above, the
// samplers' table (name, colour, sampler spec; one undo step per edit on the document's
// CategoricalParams::decoding); below, four measures of the output distribution against the
// number of steps N (its entropy with the data's as a line, KL(data ‖ output), KL(output ‖ data),
// the total variation) and, for small tables, the output distribution of one sampler at one N
// beside the data's, with which token that sampler commits when (a raster of positions ×
// steps; for the digits a map of each pixel's mean commit step). The explorer runs the sweep as
// a job and hands the numbers over.
class QGridLayout;

namespace ui::views {

// A sampler's legend label as shown: the default samplers' names translated, any other name (or
// the spec, when the name is empty) as typed.
QString decodingDisplayName(const core::project::DecodingConfig& config);

// The numbers the view draws, as the engine computed them (nats; an infinite KL is +inf).
struct DecodingViewData {
    bool exact = true;
    double dataEntropy = 0.0;
    // The digits by Monte Carlo: the sequence measures say nothing with M ≪ the images
    // possible, so the view draws the classifier's accuracy and the per-pixel entropy, each
    // beside the real training images' own.
    bool digits = false;
    double dataAccuracy = 0.0;
    double dataPositionEntropy = 0.0;
    std::vector<int> steps;        // the sweep's N
    QStringList rowLabels;         // the sequences of the distribution chart ("0 2", "1 1")
    std::vector<double> dataRows;  // the data's probability of each row
    struct Curve {
        QString name;
        QColor colour;
        int config = 0;                    // index into the document's decoding.configs
        std::vector<double> entropy;       // one per N
        std::vector<double> klDataOutput;  // +inf where the output misses a data row
        std::vector<double> klOutputData;  // +inf where the output leaves the data's support
        std::vector<double> totalVariation;
        std::vector<double> positionEntropy;  // (1/D) Σ_d H(output_d)
        std::vector<double> accuracy;         // digits: the classifier's accuracy per N
        // Monte Carlo's standard errors of the measures above, in the same order (empty or
        // 0 when exact): drawn as ±1 SE bars.
        std::vector<double> entropyError, klDataOutputError, klOutputDataError, totalVariationError,
            positionEntropyError, accuracyError;
        std::vector<std::vector<double>> rows;  // [N index][row] the output's probability
        // [N index] which token when: N × D, P(position d unmasked after the (i+1)-th step).
        std::vector<std::vector<double>> commit;
        // On a chain, one per N with ±1 standard error: the cross-entropy under the chain
        // (nats per letter), the adjacent pairs' total variation from the chain's, the longest
        // run of one letter; and the first sequences decoded.
        std::vector<double> crossEntropy, crossEntropyError, pairTotalVariation, pairTotalVariationError,
            longestRepeat, longestRepeatError;
        std::vector<std::vector<core::project::ChainShownSequence>> shown;
    };
    std::vector<Curve> curves;
    int imageSide = 0;  // the digits: D = side², the commit raster is a side × side map
    // Decoding on a Markov chain: its letters' names and its entropy per letter (the floor of
    // the cross-entropy).
    bool chain = false;
    int64_t samples = 0;  // Monte Carlo: the sequences per sampler and N (chain) or per condition
    QStringList chainStates;
    double chainEntropy = 0.0;
    QString note;  // shown under the charts (how the numbers were computed)
};

class DecodingView : public charts::ViewPanel {
    Q_OBJECT
public:
    explicit DecodingView(document::ProjectDocument* document, QWidget* parent = nullptr);

    enum ChartIndex {
        Entropy = 0,
        KlDataOutput = 1,
        KlOutputData = 2,
        TotalVariation = 3,
        Distribution = 4,
        NumCharts = 5,
        // Drawn in the distribution chart's place when it has no bars.
        PositionEntropy = 5,
        // Drawn in the entropy chart's place for the digits.
        Accuracy = 6,
        // Drawn in the distribution chart's place for a chain.
        LongestRepeat = 7
    };
    QChart* chart(int index) const { return m_charts[static_cast<size_t>(index)]; }
    CommitRaster* commitRaster() const { return m_commit; }
    QTableWidget* table() const { return m_table; }
    QComboBox* distributionSampler() const { return m_distSampler; }
    QComboBox* distributionSteps() const { return m_distSteps; }
    QComboBox* animatedSampler() const { return m_animated; }
    QPushButton* cancelButton() const { return m_cancel; }
    QLabel* statusLabel() const { return m_status; }
    QLabel* errorLabel() const { return m_errors; }

    // The explorer's results; nullptr with a reason when there is nothing to show (no mask
    // state, a set-up error).
    void setResult(std::shared_ptr<const DecodingViewData> data);
    void clear(const QString& reason);
    const std::shared_ptr<const DecodingViewData>& result() const { return m_data; }
    // "digits" while the view draws the digits' Monte Carlo measures, "chain" a chain's text,
    // not a distribution.
    QString explanationVariant() const override {
        return m_data && m_data->digits  ? QStringLiteral("digits")
               : m_data && m_data->chain ? QStringLiteral("chain")
                                         : QString();
    }
    ChainText* chainText() const { return m_text; }
    QSlider* textStep() const { return m_textStep; }
    QComboBox* chainSource() const { return m_chainSource; }
    QSpinBox* chainLength() const { return m_chainLength; }
    QSpinBox* chainSamples() const { return m_chainSamples; }
    void setRunning(bool running);
    void setProgress(int permille, const QString& stage);
    void setStatus(const QString& status);
    // A sampler spec the engine refuses: shown in red under the table, naming the row.
    void setErrors(const QString& errors);

    // The same edits as the buttons, for tests and scripts.
    bool addConfig();
    // A reference code's sampler (core::categorical::kDecodePresets), as "preset=P".
    bool addPreset(const QString& preset);
    bool removeConfig(int row);
    bool setSampler(int row, const QString& spec);
    bool resetConfigs();
    // The data decoded: a chain ("english" or a chain file; empty: the project's data).
    bool setChainSource(const QString& source);

signals:
    void cancelRequested();

private:
    QWidget* createControls();
    QWidget* createSelectors();
    QWidget* createChainControls();
    void createChainText();
    void onDocumentChanged();
    void fillTable();
    void onItemChanged(int row, int column);
    bool applySettings(const core::project::DecodingSettings& settings, const QString& undoText);
    void redraw();
    // Where the charts and the raster sit: the distribution at full height beside the small
    // charts, or (many sequences) across the width under them.
    enum class Arrangement { None, Tall, Wide, Digits, Chain };
    void arrangeGrid(Arrangement arrangement);
    void drawMeasure(int chartIndex);
    void drawDistribution();
    // Which token when for the chosen sampler and N (the distribution's selectors).
    void drawCommit();
    // A chain's decoded text for the chosen sampler and N.
    void drawText();
    void fillChainControls();
    bool applyChain(const core::project::DecodingChain& chain, const QString& undoText);
    void fillSelectors();
    void addLegendEntries(QChart* chart);
    // The legend's entry for the markers of an infinite KL, and what it means (in the note).
    static QString infiniteName();
    // The dashed line's name: the data's entropy, the real images' measures, the chain's entropy.
    QString referenceName() const;
    static QString infiniteExplanation();
    bool anyInfinite() const;

    document::ProjectDocument* m_document;
    std::array<QChart*, NumCharts> m_charts{};
    QGridLayout* m_chartGrid = nullptr;
    Arrangement m_arrangement = Arrangement::None;
    QWidget* m_distributionFigure = nullptr;
    CommitRaster* m_commit = nullptr;
    QTableWidget* m_table;
    QComboBox* m_distSampler;
    QComboBox* m_distSteps;
    QWidget* m_distSelectors = nullptr;
    QLabel* m_distLabel = nullptr;
    QWidget* m_animatedRow = nullptr;
    QWidget* m_textStepRow = nullptr;
    ChainText* m_text = nullptr;
    QWidget* m_textPanel = nullptr;  // the slider row over the text
    QSlider* m_textStep = nullptr;
    QLabel* m_textStepLabel = nullptr;
    QWidget* m_chainRow = nullptr;
    QWidget* m_chainSizes = nullptr;
    QComboBox* m_chainSource = nullptr;
    QSpinBox* m_chainLength = nullptr;
    QSpinBox* m_chainSamples = nullptr;
    QComboBox* m_animated;
    QPushButton* m_add;
    QPushButton* m_addPreset;
    QPushButton* m_remove;
    QPushButton* m_defaults;
    QPushButton* m_cancel;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_errors;
    QLabel* m_note;
    std::shared_ptr<const DecodingViewData> m_data;
    bool m_refreshing = false;
};

}  // namespace ui::views
