// SPDX-License-Identifier: MIT
#pragma once

#include <Eigen/Core>

// One place for the Eigen aliases used across core (double for analysis, float for networks).
namespace core {

using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using VectorRef = Eigen::Ref<Vector>;
using ConstVectorRef = Eigen::Ref<const Vector>;
using MatrixRef = Eigen::Ref<Matrix>;
using ConstMatrixRef = Eigen::Ref<const Matrix>;

using Vector2 = Eigen::Vector2d;
using VectorF = Eigen::VectorXf;
using MatrixF = Eigen::MatrixXf;

}  // namespace core
