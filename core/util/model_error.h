// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>

// A model that fails in the middle of a computation (a TorchScript network that raises, runs
// out of memory, returns the wrong shape): the model interfaces have no error channel, so the
// failure travels as this exception to the job or command that called the engine, which
// reports its message (it names the file and the timestep) like any other error. It lives with
// the other error types, so that every front end can tell it from a program error.
namespace core::model {

class ModelError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace core::model
