// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/categorical/reverse_kernel.h"
#include "core/io/json.h"
#include "core/project/choice.h"
#include "core/project/decoding_settings.h"
#include "core/schedule/beta_curve.h"
#include "core/util/result.h"

// Every parameter of the categorical process, shared by the GUI's document and the command line.
// A plain value: panels copy it, edit the copy and hand it back whole through an undo command.
namespace core::project {

enum class CategoricalTrajectory { Even, Dp, List };

// Where the data distribution comes from.
enum class CategoricalData {
    Table,    // the small table in the project: P(X_0 | C), D = 1
    Digits,   // the bundled 8×8 digits quantised to L levels: D = 64, K = L, C = the label
    CsvFile,  // a table file with columns x1..xD, p[, c]
};

extern const std::vector<Choice<schedule::BetaCurveKind>> kCategoricalSchedules;
extern const std::vector<Choice<CategoricalTrajectory>> kCategoricalTrajectories;
extern const std::vector<Choice<CategoricalData>> kCategoricalDataSources;

struct CategoricalParams {
    int numClasses = 4;                        // K, 2..256
    std::vector<double> pi;                    // prior π, K entries summing to 1
    // Masked diffusion with its own mask state: the process gets a class K + 1 (index K) that
    // the data never use, and π is that class (the entries of `pi` are then kept but unused).
    // Optional in project files ("maskState", written only when true).
    bool maskState = false;
    schedule::BetaCurveKind schedule = schedule::BetaCurveKind::Cosine;
    double powerExponent = 2.0;                // p of the power schedule
    std::vector<schedule::ControlPoint> controlPoints;  // custom schedule, inner points
    int numSteps = 100;                        // N, the grid 0, 1/N, …, 1
    CategoricalData dataSource = CategoricalData::Table;
    int digitLevels = 4;                       // L for the digits (2..17); then K = L
    std::string csvPath;                       // the table file for CsvFile
    // P(X_0 = class | C = condition): one column of K probabilities per condition (Table).
    std::vector<std::vector<double>> table;
    std::vector<std::string> conditionNames;   // one label per condition of the data
    int condition = 0;                         // the condition C shown and sampled; −1: averaged
    CategoricalTrajectory trajectory = CategoricalTrajectory::Even;
    int pathSteps = 10;                        // K of the even or DP trajectory
    // The user's own K while a smaller N caps it (pathSteps = N), restored as far as N allows
    // when N rises again; 0 when not capped. Stored as "pathStepsAsked" while capped.
    int pathStepsAsked = 0;
    std::vector<int> trajectoryList;           // typed list of grid nodes 0..N
    categorical::KernelForm kernel = categorical::KernelForm::Closed;
    int numChains = 300;                       // chains drawn in the Trajectories view
    int position = 0;                          // the position shown per position when D > 1
    uint64_t seed = 1;                         // RNG key of every sampler
    // The denoiser F: empty for the exact oracle of the data, else a categorical checkpoint
    // (absolute in memory; stored relative to the project file when it can be).
    std::string model;
    // The Decoding view's samplers (optional in project files: "decoding", written only when
    // not the default set).
    DecodingSettings decoding;

    bool operator==(const CategoricalParams&) const = default;

    // The classes of the process: K, plus the mask state when maskState.
    int processClasses() const { return numClasses + (maskState ? 1 : 0); }

    // The example the app starts with: K = 4, a non-uniform π, a two-condition table.
    static CategoricalParams example();

    // Checks every field; the error's field names the parameter as the panels do
    // ("pi[2]", "table[1][0]", "controlPoints[0]", "trajectoryList[3]").
    Status validate() const;

    // The β(t) curve; info-linear is solved from `information` (I(X_0;X_t) as a function of
    // β_t for the selected data), which the caller builds from the data (CategoricalSetup).
    Result<schedule::BetaCurve> betaCurve(const std::function<double(double)>& information) const;
    // "linear", "cosine", "power:P", "custom", "info-linear": the schedule as the command line
    // and checkpoints write it.
    std::string scheduleSpec() const;
    // The schedule from such a spec, the inverse of scheduleSpec(); "custom:FILE" takes the
    // file's control points (the ends (0, 0) and (1, 1), which the curve adds itself, left out
    // as the GUI leaves them out), "custom" keeps the points there are. Errors name `field`.
    Status setScheduleSpec(const std::string& spec, const std::string& field = "schedule");

    // The prior from a spec of parsePrior (uniform:K, absorbing:K, masked:K, p1,p2,…): π, or
    // for masked:K the mask state (π then unused, uniform). `dataClasses` > 0 is the data's K,
    // which the spec must give (a project's data); 0 takes K from the spec. Errors name `field`.
    Status setPriorSpec(const std::string& spec, const std::string& field, int dataClasses = 0);
    // The data from the table file `path` (K = numClasses): its conditions, every condition
    // averaged. Errors name the file's line.
    Status useCsvTable(const std::string& path);
    // The condition named `name` (one of conditionNames; `where` names them in the error).
    Status selectCondition(const std::string& name, const std::string& field,
                           const std::string& where);

    // These parameters with N = n, by the rule of GaussianParams::withNumSteps: K is capped at
    // n (and comes back when N rises again) and a typed list that no longer fits (it must end
    // at node N) goes, the trajectory becoming even when the list was in use. With n = N
    // nothing changes.
    CategoricalParams withNumSteps(int n) const;

    // These parameters switched to the digits with L levels: K = L, conditions = labels 0..9.
    CategoricalParams withDigits(int levels) const;

    // Resizes π, the table and the control points for a new K, keeping what fits and
    // renormalising.
    CategoricalParams withNumClasses(int k) const;

    // What a figure or a table computed from these parameters depends on, one "key: value"
    // line each (the header block of the views' CSV files).
    std::vector<std::string> provenance() const;

    io::Json toJson() const;
    // Reads what toJson wrote; errors name the JSON path ("categorical.pi[2]") and the value.
    static Result<CategoricalParams> fromJson(const io::Json& json);
};

}  // namespace core::project
