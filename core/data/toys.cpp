// SPDX-License-Identifier: MIT
#include "core/data/toys.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/util/rng.h"

namespace core::data {
namespace {

constexpr double kPi = 3.14159265358979323846;

// The draws of one point; `purpose` separates this module's streams from other users of a seed.
constexpr uint64_t kToyStep = 0x70F5;

Vector2 toyPoint(Toy toy, CounterRng& rng);

}  // namespace

Result<Toy> parseToy(const std::string& name) {
    if (name == "moons") return Toy::Moons;
    if (name == "checkerboard") return Toy::Checkerboard;
    if (name == "swissroll" || name == "swiss-roll") return Toy::SwissRoll;
    if (name == "ring") return Toy::Ring;
    return invalidArgument("toy", name, "expected moons, checkerboard, swissroll or ring");
}

const char* toyName(Toy toy) {
    switch (toy) {
        case Toy::Moons: return "moons";
        case Toy::Checkerboard: return "checkerboard";
        case Toy::SwissRoll: return "swissroll";
        case Toy::Ring: return "ring";
    }
    return "moons";
}

const std::vector<Toy>& allToys() {
    static const std::vector<Toy> toys = {Toy::Moons, Toy::Checkerboard, Toy::SwissRoll,
                                          Toy::Ring};
    return toys;
}

namespace {

Vector2 toyPoint(Toy toy, CounterRng& rng) {
    switch (toy) {
        case Toy::Moons: {
            // Two interleaving half circles (as scikit-learn's make_moons), noise 0.05, then
            // x ∈ [−1, 2] and y ∈ [−0.5, 1] mapped into [−1, 1]².
            const bool upper = rng.uniform() < 0.5;
            const double angle = kPi * rng.uniform();
            double x = upper ? std::cos(angle) : 1.0 - std::cos(angle);
            double y = upper ? std::sin(angle) : 0.5 - std::sin(angle);
            x += 0.05 * rng.normal();
            y += 0.05 * rng.normal();
            return {(x - 0.5) / 1.5, (y - 0.25) / 1.5};
        }
        case Toy::Checkerboard: {
            // Uniform on the dark squares of a 4×4 board on [−1, 1]²: pick a column, then a
            // row of the matching parity.
            const int column = std::min(3, static_cast<int>(4.0 * rng.uniform()));
            const int row = 2 * std::min(1, static_cast<int>(2.0 * rng.uniform())) + (column % 2);
            const double x = -1.0 + 0.5 * (column + rng.uniform());
            const double y = -1.0 + 0.5 * (row + rng.uniform());
            return {x, y};
        }
        case Toy::SwissRoll: {
            // t ∈ [1.5π, 4.5π], (t cos t, t sin t)/(4.5π), noise 0.02.
            const double t = 1.5 * kPi * (1.0 + 2.0 * rng.uniform());
            return {t * std::cos(t) / (4.5 * kPi) + 0.02 * rng.normal(),
                    t * std::sin(t) / (4.5 * kPi) + 0.02 * rng.normal()};
        }
        case Toy::Ring: {
            const double angle = 2.0 * kPi * rng.uniform();
            const double radius = 0.7 + 0.03 * rng.normal();
            return {radius * std::cos(angle), radius * std::sin(angle)};
        }
    }
    return {0.0, 0.0};
}

}  // namespace

Matrix makeToy(Toy toy, int count, uint64_t seed) {
    Matrix points(2, std::max(0, count));
    for (int i = 0; i < count; ++i) {
        CounterRng rng(seed, static_cast<uint64_t>(i), kToyStep);
        points.col(i) = toyPoint(toy, rng);
    }
    return points;
}

Result<Matrix> toyFromSpec(const std::string& spec) {
    std::string rest = spec.rfind("toy:", 0) == 0 ? spec.substr(4) : spec;
    std::string name = rest.substr(0, rest.find(','));
    Result<Toy> toy = parseToy(name);
    if (!toy) {
        return toy.error();
    }
    long long count = 2000;
    unsigned long long seed = 0;
    size_t position = rest.find(',');
    while (position != std::string::npos) {
        const size_t next = rest.find(',', position + 1);
        const std::string part = rest.substr(position + 1, next == std::string::npos
                                                               ? std::string::npos
                                                               : next - position - 1);
        const size_t eq = part.find('=');
        const std::string key = part.substr(0, eq);
        const std::string value = eq == std::string::npos ? "" : part.substr(eq + 1);
        errno = 0;
        char* end = nullptr;
        const unsigned long long number = std::strtoull(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || errno == ERANGE || value[0] == '-') {
            return invalidArgument("data " + key, value, "a whole number is expected");
        }
        if (key == "n") {
            if (number < 1 || number > 10000000) {
                return invalidArgument("data n", value, "the number of points must lie in 1..10⁷");
            }
            count = static_cast<long long>(number);
        } else if (key == "seed") {
            seed = number;
        } else {
            return invalidArgument("data", part, "toy: takes n= and seed=");
        }
        position = next;
    }
    return makeToy(*toy, static_cast<int>(count), seed);
}

}  // namespace core::data
