// SPDX-License-Identifier: MIT
#include "ui/document/categorical_setup.h"

#include "core/trajectory/least_cost_path.h"

namespace ui::document {

core::Result<std::shared_ptr<const CategoricalSetup>> CategoricalSetup::build(
    const CategoricalParams& p) {
    if (auto valid = p.validate(); !valid) {
        return valid.error();
    }
    auto setup = std::make_shared<CategoricalSetup>();
    setup->params = p;
    setup->pi = Eigen::Map<const core::Vector>(p.pi.data(), p.numClasses);
    setup->pi /= setup->pi.sum();
    auto curve = p.betaCurve();
    if (!curve) {
        return curve.error();
    }
    setup->curve = *curve;
    setup->grid = core::categorical::evenTimeGrid(setup->curve, p.numSteps);

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
    auto table = core::data::makeCategoricalTable(1, p.numClasses, std::move(classes),
                                                  std::move(probability), std::move(conditions));
    if (!table) {
        return table.error();
    }
    setup->table = std::move(table).value();
    setup->oracle = std::make_shared<core::model::TableOracle>(setup->table, setup->pi);
    setup->dataMarginal = setup->table.marginal(p.condition, 0);
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
