// SPDX-License-Identifier: MIT
#include "core/categorical/transition.h"

#include <cassert>

namespace core::categorical {

double keepProbability(double betaS, double betaT) {
    if (betaS >= 1.0) {
        return 1.0;
    }
    if (betaT <= betaS) {
        return 1.0;
    }
    return (1.0 - betaT) / (1.0 - betaS);
}

double noiseProbability(double betaS, double betaT) {
    if (betaS >= 1.0 || betaT <= betaS) {
        return 0.0;
    }
    return (betaT - betaS) / (1.0 - betaS);
}

void applyTransition(const ConstVectorRef& p,
                     const ConstVectorRef& pi,
                     double betaS,
                     double betaT,
                     VectorRef out) {
    assert(p.size() == pi.size() && out.size() == pi.size());
    const double keep = keepProbability(betaS, betaT);
    out = keep * p + noiseProbability(betaS, betaT) * pi;
}

Matrix denseForward(const ConstVectorRef& pi, double betaT) {
    const Eigen::Index k = pi.size();
    Matrix p = (1.0 - betaT) * Matrix::Identity(k, k);
    p.rowwise() += betaT * pi.transpose();
    return p;
}

Matrix denseStep(const ConstVectorRef& pi, double betaS, double betaT) {
    const Eigen::Index k = pi.size();
    const double keep = keepProbability(betaS, betaT);
    Matrix p = keep * Matrix::Identity(k, k);
    p.rowwise() += noiseProbability(betaS, betaT) * pi.transpose();
    return p;
}

Matrix denseForwardInverse(const ConstVectorRef& pi, double betaS) {
    assert(betaS < 1.0);
    const Eigen::Index k = pi.size();
    Matrix inverse = Matrix::Identity(k, k);
    inverse.rowwise() -= betaS * pi.transpose();
    return inverse / (1.0 - betaS);
}

void forwardPosterior(const ConstVectorRef& pi,
                      double betaS,
                      double betaT,
                      Eigen::Index i,
                      Eigen::Index j,
                      VectorRef out) {
    const double keep = keepProbability(betaS, betaT);
    const double denominator = forwardEntry(pi, betaT, i, j);
    if (!(denominator > 0.0)) {
        out.setZero();
        out[j] = 1.0;
        return;
    }
    // Only k = i (kept since 0) and k = j (kept since s) and the π part carry mass.
    const double toJ = noiseProbability(betaS, betaT) * pi[j];
    out = (betaS * toJ / denominator) * pi;
    out[i] += (1.0 - betaS) * toJ / denominator;
    out[j] += forwardEntry(pi, betaS, i, j) * keep / denominator;
}

}  // namespace core::categorical
