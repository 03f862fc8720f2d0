// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/categorical/reverse_kernel.h"
#include "core/categorical/time_grid.h"
#include "core/model/categorical_denoiser.h"
#include "core/util/eigen_types.h"
#include "core/util/parallel.h"
#include "core/util/progress.h"
#include "core/util/result.h"

// Forward and reverse samplers of the categorical process over any trajectory
// (docs/categorical.md#forward-process, #reverse-sampling) for B chains × D positions. Every draw
// comes from CounterRng keyed by (seed, stream, node), never by thread, so the samples are
// identical for any thread count.
namespace core::categorical {

// One frame of an animation: the states of all chains at one node of the trajectory.
struct ChainFrame {
    int node = 0;                 // index n into the trajectory (forward: 0..M, reverse: M..0)
    double t = 0.0;               // t_n
    double beta = 0.0;            // β(t_n)
    std::span<const int> states;  // B × D, row-major (chain-major); valid during the call only
    int numChains = 0;            // B
    int numPositions = 0;         // D
};

// Sees every frame in order, on the calling thread; return Abort to stop the sampler.
class ChainObserver {
public:
    virtual ~ChainObserver() = default;
    virtual Control onFrame(const ChainFrame& frame) = 0;
};

// Records every frame (or every `stride`-th, plus the last) for an animation player.
class FrameRecorder final : public ChainObserver {
public:
    explicit FrameRecorder(int stride = 1) : m_stride(stride < 1 ? 1 : stride) {}
    Control onFrame(const ChainFrame& frame) override;

    struct Frame {
        int node;
        double t;
        std::vector<int> states;
    };
    std::vector<Frame> frames;  // in the order seen

private:
    int m_stride;
    int m_seen = 0;
};

struct SamplerOptions {
    uint64_t seed = 0;                      // RNG key
    ParallelOptions parallel;               // threads
    KernelForm form = KernelForm::Closed;   // reverse kernel (reverse sampler only)
    int condition = 0;                      // condition index passed to the denoiser
    ChainObserver* observer = nullptr;      // frames, may be null
    Progress* progress = nullptr;           // progress and cancel, may be null
};

struct SampleResult {
    std::vector<int> states;  // B × D at the last node reached (x_1 forward, x_0 reverse)
    int nodesDone = 0;        // steps completed (M unless cancelled)
    bool cancelled = false;   // stopped by the observer or the progress token
};

// Forward chains from x_0 (B × D classes): at each step keep the class with probability
// (1 − β_t)/(1 − β_s), else redraw from π (docs/categorical.md#forward-process). A random draw
// happens only where a chain jumps: after each jump one uniform u fixes the next jump node, the
// first m with 1 − β_m < u (1 − β_n). Streams are chain·D + d; the draw at node n uses step n.
Result<SampleResult> sampleForward(std::span<const int> x0,
                                   int numPositions,
                                   const Vector& pi,
                                   const TimeGrid& grid,
                                   const SamplerOptions& options);

// Reverse chains (docs/categorical.md#reverse-sampling): x_M ~ π, then x_{n−1} ~ q_{x_n} for
// n = M..1 with the chosen kernel form and the denoiser's F. Stream = chain; the draw of x_{n−1}
// uses step n − 1. With a factorised denoiser (any table oracle, or D = 1 with any denoiser) the
// kernel depends only on (position, class, step) and is tabulated once per step as alias tables;
// a draw then happens only at a chain's events (probability 1 − g_{n−1}/g_n at step n,
// g = β/(1 − β), one uniform fixing the next as in sampleForward), and a kernel row that stays
// with less than that floor draws also outside events, so every step's law is q exactly.
Result<SampleResult> sampleReverse(const model::CategoricalDenoiser& denoiser,
                                   int numChains,
                                   const Vector& pi,
                                   const TimeGrid& grid,
                                   const SamplerOptions& options);

}  // namespace core::categorical
