// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "core/util/progress.h"
#include "core/util/result.h"
#include "ui/jobs/job_runner.h"

// One typed call of core/project as a job, with the cancel and stale policy written once:
// `compute(progress)` runs on the job's thread and returns a core::Result<T>; a Cancelled error
// ends the job quietly, any other error is the job's failure (the status bar says it); on the
// GUI thread the value goes to `apply` unless `current()` (or `current(value)`, for a value
// that names its own inputs) says that a newer request replaced the one it was computed for
// (then a newer job is on its way and the value is dropped).
namespace ui::jobs {

template <typename R>
struct ResultValue;
template <typename T>
struct ResultValue<core::Result<T>> {
    using type = T;
};

template <typename Compute, typename Current, typename Apply>
void startTyped(
    JobRunner& runner, const QString& name, Compute compute, Current current, Apply apply) {
    using T = typename ResultValue<std::invoke_result_t<Compute&, core::Progress&>>::type;
    runner.start(
        name,
        [compute = std::move(compute), current = std::move(current),
         apply = std::move(apply)](core::Progress& progress) mutable -> std::function<void()> {
            core::Result<T> result = compute(progress);
            if (!result) {
                if (result.error().code == core::ErrorCode::Cancelled) return {};
                throw std::runtime_error(result.error().toString());
            }
            auto value = std::make_shared<const T>(std::move(result).value());
            return [current, apply, value] {
                bool wanted = false;
                if constexpr (std::is_invocable_v<Current&, const T&>) {
                    wanted = current(*value);
                } else {
                    wanted = current();
                }
                if (wanted) apply(value);
            };
        });
}

}  // namespace ui::jobs
