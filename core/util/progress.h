// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

// Progress reporting and cancellation for long computations (a Ceres-style callback).
namespace core {

enum class Control { Continue, Abort };

// Implemented by whoever runs a long computation (the CLI's progress bar, a UI job).
// onProgress may be called from any worker thread, but never concurrently.
class ProgressObserver {
public:
    virtual ~ProgressObserver() = default;
    // fraction in [0, 1]; return Abort to cancel the computation.
    virtual Control onProgress(double fraction, const std::string& stage) = 0;
};

// The token a core computation holds. Thread-safe: workers call advance(); the observer is
// consulted at most every kReportInterval, and a cancel is sticky.
class Progress {
public:
    static constexpr std::chrono::milliseconds kReportInterval{50};

    explicit Progress(ProgressObserver* observer = nullptr, std::string stage = {})
        : m_observer(observer), m_stage(std::move(stage)) {}

    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // Sets the amount of work; resets the done count.
    void setTotal(int64_t total) {
        m_total.store(total > 0 ? total : 1);
        m_done.store(0);
    }

    void setStage(std::string stage) {
        std::lock_guard lock(m_mutex);
        m_stage = std::move(stage);
    }

    // Records `amount` units of finished work. Returns false once the computation should stop.
    bool advance(int64_t amount = 1) {
        m_done.fetch_add(amount, std::memory_order_relaxed);
        return poll();
    }

    // Consults the observer if enough time has passed; returns false once cancelled.
    bool poll(bool force = false) {
        if (m_cancelled.load(std::memory_order_relaxed)) {
            return false;
        }
        if (m_observer == nullptr) {
            return true;
        }
        const auto now = std::chrono::steady_clock::now();
        std::unique_lock lock(m_mutex, std::try_to_lock);
        if (!lock.owns_lock()) {
            return true;  // another thread is reporting right now
        }
        if (!force && now - m_lastReport < kReportInterval) {
            return true;
        }
        m_lastReport = now;
        const double fraction =
            std::min(1.0, static_cast<double>(m_done.load()) / static_cast<double>(m_total.load()));
        if (m_observer->onProgress(fraction, m_stage) == Control::Abort) {
            m_cancelled.store(true);
            return false;
        }
        return true;
    }

    void cancel() { m_cancelled.store(true); }
    bool cancelled() const { return m_cancelled.load(std::memory_order_relaxed); }

private:
    ProgressObserver* m_observer;
    std::string m_stage;
    std::mutex m_mutex;
    std::chrono::steady_clock::time_point m_lastReport{};
    std::atomic<int64_t> m_total{1};
    std::atomic<int64_t> m_done{0};
    std::atomic<bool> m_cancelled{false};
};

}  // namespace core
