// SPDX-License-Identifier: MIT
#include "core/project/categorical_setup.h"

#include "core/categorical/information.h"
#include "core/data/digits.h"
#include "core/trajectory/least_cost_path.h"

namespace core::project {

namespace {

// The data table the parameters describe.
Result<data::CategoricalTable> buildTable(const CategoricalParams& p, const SetupSources& sources) {
    if (p.dataSource == CategoricalData::CsvFile) {
        return data::readCategoricalTable(p.csvPath, p.numClasses);
    }
    if (p.dataSource == CategoricalData::Digits) {
        auto digits = sources.digits();
        if (!digits) {
            return digits.error();
        }
        // The training images, equally likely within their label.
        auto split = data::quantisedSplit(**digits, p.digitLevels, true);
        if (!split) {
            return split.error();
        }
        return data::digitsTable(*split, p.digitLevels);
    }
    std::vector<int> classes;
    std::vector<double> probability;
    std::vector<std::string> conditions;
    for (size_t c = 0; c < p.table.size(); ++c) {
        for (int k = 0; k < p.numClasses; ++k) {
            classes.push_back(k);
            probability.push_back(p.table[c][k]);
            // Conditions are told apart by index so that two equal labels stay two columns.
            conditions.push_back(std::to_string(c));
        }
    }
    return data::makeCategoricalTable(1, p.numClasses, std::move(classes), std::move(probability),
                                      std::move(conditions));
}

Status checkSelection(const CategoricalParams& p, const data::CategoricalTable& table) {
    if (p.condition >= table.numConditions()) {
        return invalidArgument("condition", std::to_string(p.condition),
                               "the data has " + std::to_string(table.numConditions()) +
                                   " conditions");
    }
    if (p.position >= table.numPositions) {
        return invalidArgument("position", std::to_string(p.position),
                               "the data has " + std::to_string(table.numPositions) + " positions");
    }
    return {};
}

}  // namespace

bool CategoricalSetup::exactCosts() const {
    double states = 1.0;
    for (int d = 0; d < table.numPositions; ++d) {
        states *= table.numClasses;
    }
    return table.numPositions == 1 || states <= 1e6;
}

Result<std::shared_ptr<const CategoricalSetup>> CategoricalSetup::build(
    const CategoricalParams& p, const SetupSources& sources, bool strictModel) {
    if (auto valid = p.validate(); !valid) {
        return valid.error();
    }
    auto setup = std::make_shared<CategoricalSetup>();
    setup->params = p;
    auto table = buildTable(p, sources);
    if (!table) {
        return table.error();
    }
    setup->table = std::move(table).value();
    if (p.maskState) {
        // The mask state K: a class of the process that the data never use (every row's
        // class is below K), and all of π.
        setup->table.numClasses = p.processClasses();
        setup->pi = Vector::Zero(p.processClasses());
        setup->pi[p.numClasses] = 1.0;
    } else {
        setup->pi = Eigen::Map<const Vector>(p.pi.data(), p.numClasses);
        setup->pi /= setup->pi.sum();
    }
    if (auto selected = checkSelection(p, setup->table); !selected) {
        return selected.error();
    }
    const auto* tablePtr = &setup->table;
    const Vector pi = setup->pi;
    const int condition = p.condition;
    auto curve = p.betaCurve([tablePtr, pi, condition](double beta) {
        return categorical::tableMutualInformation(*tablePtr, pi, beta, condition);
    });
    if (!curve) {
        return curve.error();
    }
    setup->curve = *curve;
    setup->grid = categorical::evenTimeGrid(setup->curve, p.numSteps);
    setup->oracle = std::make_shared<model::TableOracle>(setup->table, setup->pi);
    setup->positionOracle =
        setup->table.numPositions == 1
            ? setup->oracle
            : std::make_shared<model::TableOracle>(setup->table, setup->pi,
                                                   model::TableOracleMode::IndependentPositions);
    setup->denoiser = setup->oracle;
    if (!p.model.empty()) {
        auto network = categoricalNetwork(p.model, setup->table.numClasses,
                                          setup->table.numPositions,
                                          setup->table.numConditions(), sources,
                                          p.scheduleSpec());
        if (network) {
            setup->denoiser = *network;
            setup->usesNetwork = true;
        } else if (strictModel) {
            return network.error();
        } else {
            setup->modelError = network.error().toString();
        }
    }
    setup->position = p.position;
    if (p.condition == kAllConditions) {
        // Equal weights, as the information curves and the step costs average the conditions.
        setup->dataMarginal = Vector::Zero(setup->table.numClasses);
        for (int c = 0; c < setup->table.numConditions(); ++c) {
            setup->dataMarginal += setup->table.marginal(c, p.position);
        }
        setup->dataMarginal /= static_cast<double>(setup->table.numConditions());
    } else {
        setup->dataMarginal = setup->table.marginal(p.condition, p.position);
    }
    return std::shared_ptr<const CategoricalSetup>(std::move(setup));
}

std::vector<int> CategoricalSetup::nominalTrajectory() const {
    if (params.trajectory == CategoricalTrajectory::List) {
        return params.trajectoryList;
    }
    auto even = trajectory::categoricalEvenTrajectory(params.numSteps, params.pathSteps);
    return even ? *even : std::vector<int>{0, params.numSteps};
}

}  // namespace core::project
