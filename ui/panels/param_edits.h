// SPDX-License-Identifier: MIT
#pragma once

#include <QAbstractSpinBox>
#include <QObject>
#include <QString>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "core/util/result.h"
#include "ui/jobs/job_runner.h"
#include "ui/panels/field_errors.h"
#include "ui/panels/input_guard.h"

// How a panel's widgets edit the document, written once: a widget's signal copies the document's
// parameters, an edit function changes the copy (it may take the signal's arguments, and may
// return false to cancel), and the panel applies the copy as one undo step, or shows beside the
// field why it was refused. Signals that arrive while the panel is filling its widgets from the
// document are ignored, so a refresh never becomes an edit. Edits that read a file are prepared
// off the GUI thread (prepareInBackground) and applied when the file has been read.
namespace ui::panels {

template <typename Params>
class ParamEdits {
public:
    // Hands params to the document as an undo step named undoText (merged with the previous
    // step of the same mergeId > 0, for drags); the document's refusal says why.
    using Commit =
        std::function<core::Status(const Params& params, const QString& undoText, int mergeId)>;

    // current: the document's params; refresh: fills the panel's widgets from the document;
    // errors: the panel's error labels, one per field.
    ParamEdits(QObject* owner,
               const bool* refreshing,
               std::function<Params()> current,
               Commit commit,
               std::function<void()> refresh,
               FieldErrors* errors)
        : m_owner(owner),
          m_refreshing(refreshing),
          m_current(std::move(current)),
          m_commit(std::move(commit)),
          m_refresh(std::move(refresh)),
          m_errors(errors) {}

    // Applies params as one undo step; when the document refuses them, the widgets go back to
    // what it holds and the reason is shown under `field`.
    bool apply(const Params& params,
               const QString& undoText,
               const QString& field,
               int mergeId = 0) const {
        const core::Status status = m_commit(params, undoText, mergeId);
        if (!status) {
            refuse(field, QString::fromStdString(status.error().toString()));
            return false;
        }
        m_errors->show(field, {});
        return true;
    }

    // Shows why an edit was refused, with the widgets back to what the document holds.
    void refuse(const QString& field, const QString& message) const {
        m_refresh();
        m_errors->show(field, message);
    }

    // `mergeId` > 0 merges consecutive edits with the same id into one undo step (drags).
    // A number field commits on Enter, on leaving it and on each arrow step, never on each
    // keystroke: typing 1000 is one edit, not the edits 1, 10, 100 and 1000 (N = 1 on the way
    // capped the path steps, and every keystroke was an undo step and a recomputation).
    template <typename Sender, typename Signal, typename Edit>
    void bind(Sender* sender,
              Signal signal,
              const QString& undoText,
              const QString& field,
              Edit edit,
              int mergeId = 0) const {
        if constexpr (std::is_base_of_v<QAbstractSpinBox, Sender>) {
            sender->setKeyboardTracking(false);
        }
        // The explicit return type keeps Qt's argument-count probe from instantiating the body.
        QObject::connect(
            sender, signal, m_owner,
            [self = *this, sender, undoText, field, edit, mergeId](const auto&... args) -> void {
                // The ticks of one wheel gesture are one undo step.
                const int id = sender->property(InputGuard::kWheelGesture).toBool()
                                   ? InputGuard::wheelMergeId(sender)
                                   : mergeId;
                self.run(edit, undoText, field, id, args...);
            });
    }

    // The same edit, run now (for entry points that are not a widget signal).
    template <typename Edit>
    bool edit(const QString& undoText, const QString& field, Edit edit, int mergeId = 0) const {
        return run(edit, undoText, field, mergeId);
    }

    // Applies params prepared from a file, or shows why they could not be.
    bool applyPrepared(const core::Result<Params>& prepared,
                       const QString& undoText,
                       const QString& field,
                       int mergeId = 0) const {
        if (!prepared) {
            refuse(field, QString::fromStdString(prepared.error().toString()));
            return false;
        }
        return apply(*prepared, undoText, field, mergeId);
    }

    // Runs prepare(current params) → Result<Params> (reading files) as a job of `runner`, then
    // applies its result on the GUI thread, unless the document changed meanwhile (the newer
    // edit wins and the stale result is dropped).
    template <typename Prepare>
    void prepareInBackground(jobs::JobRunner& runner,
                             const QString& jobName,
                             const QString& undoText,
                             const QString& field,
                             Prepare prepare) const {
        const Params before = m_current();
        runner.start(jobName,
                     [self = *this, before, prepare, undoText,
                      field](core::Progress&) -> std::function<void()> {
                         auto prepared =
                             std::make_shared<const core::Result<Params>>(prepare(before));
                         return [self, before, prepared, undoText, field] {
                             if (self.m_current() == before)
                                 self.applyPrepared(*prepared, undoText, field);
                         };
                     });
    }

private:
    template <typename Edit, typename... Args>
    bool run(const Edit& edit,
             const QString& undoText,
             const QString& field,
             int mergeId,
             const Args&... args) const {
        if (*m_refreshing) return false;
        Params params = m_current();
        if (!invoke(edit, params, args...)) return false;
        return apply(params, undoText, field, mergeId);
    }

    // Calls edit with as many of the signal's arguments as it takes (all or none); an edit that
    // returns void always goes ahead.
    template <typename Edit, typename... Args>
    static bool invoke(const Edit& edit, Params& params, const Args&... args) {
        if constexpr (std::is_invocable_v<const Edit&, Params&, const Args&...>) {
            return proceed(edit, params, args...);
        } else {
            static_assert(std::is_invocable_v<const Edit&, Params&>,
                          "an edit takes (Params&) or (Params&, the signal's arguments…)");
            return proceed(edit, params);
        }
    }
    template <typename Edit, typename... Args>
    static bool proceed(const Edit& edit, Params& params, const Args&... args) {
        if constexpr (std::is_same_v<std::invoke_result_t<const Edit&, Params&, const Args&...>,
                                     bool>) {
            return edit(params, args...);
        } else {
            edit(params, args...);
            return true;
        }
    }

    QObject* m_owner;
    const bool* m_refreshing;
    std::function<Params()> m_current;
    Commit m_commit;
    std::function<void()> m_refresh;
    FieldErrors* m_errors;
};

}  // namespace ui::panels
