// SPDX-License-Identifier: MIT
#pragma once

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <string>

#include "core/util/progress.h"

// A progress bar on stderr when it is a terminal; silent otherwise (scripts read stdout).
namespace app::cli {

class TerminalProgress : public core::ProgressObserver {
public:
    // stop (may be null): when it becomes true the computation is asked to stop.
    explicit TerminalProgress(const std::atomic<bool>* stop = nullptr)
        : m_enabled(isatty(STDERR_FILENO) != 0), m_stop(stop) {}
    ~TerminalProgress() override {
        if (m_enabled && m_drawn) {
            std::fputs("\r\033[K", stderr);
        }
    }

    core::Control onProgress(double fraction, const std::string& stage) override {
        if (m_stop != nullptr && m_stop->load()) {
            return core::Control::Abort;
        }
        if (m_enabled) {
            constexpr int kWidth = 40;
            const int filled = static_cast<int>(fraction * kWidth);
            std::string bar(static_cast<size_t>(filled), '#');
            bar.resize(kWidth, '.');
            std::fprintf(stderr, "\r%s [%s] %3d%%", stage.c_str(), bar.c_str(),
                         static_cast<int>(fraction * 100.0));
            std::fflush(stderr);
            m_drawn = true;
        }
        return core::Control::Continue;
    }

private:
    bool m_enabled;
    const std::atomic<bool>* m_stop;
    bool m_drawn = false;
};

}  // namespace app::cli
