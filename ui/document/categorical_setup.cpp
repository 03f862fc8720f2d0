// SPDX-License-Identifier: MIT
#include "ui/document/categorical_setup.h"

#include "ui/document/model_files.h"

#include "core/categorical/information.h"
#include "core/trajectory/least_cost_path.h"
#include "ui/document/bundled_data.h"

namespace ui::document {

namespace {

// The data table the parameters describe.
core::Result<core::data::CategoricalTable> buildTable(const CategoricalParams& p) {
    if (p.dataSource == CategoricalData::CsvFile) {
        return core::data::readCategoricalTable(p.csvPath.toStdString(), p.numClasses);
    }
    std::vector<int> classes;
    std::vector<double> probability;
    std::vector<std::string> conditions;
    if (p.dataSource == CategoricalData::Digits) {
        const auto& digits = bundledDigits();
        if (!digits) {
            return digits.error();
        }
        // The training images, equally likely within their label.
        auto split = core::data::quantisedSplit(*digits, p.digitLevels, true);
        if (!split) {
            return split.error();
        }
        return core::data::digitsTable(*split, p.digitLevels);
    }
    for (size_t c = 0; c < p.table.size(); ++c) {
        for (int k = 0; k < p.numClasses; ++k) {
            classes.push_back(k);
            probability.push_back(p.table[c][k]);
            // Conditions are told apart by index so that two equal labels stay two columns.
            conditions.push_back(std::to_string(c));
        }
    }
    return core::data::makeCategoricalTable(1, p.numClasses, std::move(classes),
                                            std::move(probability), std::move(conditions));
}

}  // namespace

bool CategoricalSetup::exactCosts() const {
    double states = 1.0;
    for (int d = 0; d < table.numPositions; ++d) {
        states *= params.numClasses;
    }
    return table.numPositions == 1 || states <= 1e6;
}

core::Result<std::shared_ptr<const CategoricalSetup>> CategoricalSetup::build(
    const CategoricalParams& p) {
    if (auto valid = p.validate(); !valid) {
        return valid.error();
    }
    auto setup = std::make_shared<CategoricalSetup>();
    setup->params = p;
    setup->pi = Eigen::Map<const core::Vector>(p.pi.data(), p.numClasses);
    setup->pi /= setup->pi.sum();
    auto table = buildTable(p);
    if (!table) {
        return table.error();
    }
    setup->table = std::move(table).value();
    if (p.condition >= setup->table.numConditions()) {
        return core::invalidArgument("condition", std::to_string(p.condition),
                                     "the data has " +
                                         std::to_string(setup->table.numConditions()) +
                                         " conditions");
    }
    if (p.position >= setup->table.numPositions) {
        return core::invalidArgument("position", std::to_string(p.position),
                                     "the data has " +
                                         std::to_string(setup->table.numPositions) + " positions");
    }
    const auto* tablePtr = &setup->table;
    const core::Vector pi = setup->pi;
    const int condition = p.condition;
    auto curve = p.betaCurve([tablePtr, pi, condition](double beta) {
        return core::categorical::tableMutualInformation(*tablePtr, pi, beta, condition);
    });
    if (!curve) {
        return curve.error();
    }
    setup->curve = *curve;
    setup->grid = core::categorical::evenTimeGrid(setup->curve, p.numSteps);
    setup->oracle = std::make_shared<core::model::TableOracle>(setup->table, setup->pi);
    setup->positionOracle =
        setup->table.numPositions == 1
            ? setup->oracle
            : std::make_shared<core::model::TableOracle>(
                  setup->table, setup->pi, core::model::TableOracleMode::IndependentPositions);
    setup->denoiser = setup->oracle;
    if (!p.model.isEmpty()) {
        // A checkpoint that cannot be used leaves the exact oracle in place with a message, so
        // a project whose model file moved still opens and shows everything else.
        auto network = loadCategoricalModel(p.model, setup->table.numClasses,
                                            setup->table.numPositions,
                                            setup->table.numConditions());
        if (network) {
            setup->denoiser = *network;
            setup->usesNetwork = true;
        } else {
            setup->modelError = QString::fromStdString(network.error().toString());
        }
    }
    setup->position = p.position;
    setup->dataMarginal = setup->table.marginal(p.condition, p.position);
    return std::shared_ptr<const CategoricalSetup>(std::move(setup));
}

std::vector<int> CategoricalSetup::nominalTrajectory() const {
    if (params.trajectory == CategoricalTrajectory::List) {
        return params.trajectoryList;
    }
    auto even = core::trajectory::categoricalEvenTrajectory(params.numSteps, params.pathSteps);
    return even ? *even : std::vector<int>{0, params.numSteps};
}

}  // namespace ui::document
