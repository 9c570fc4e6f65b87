// The fields of the operator's start line: the options and where the API
// server is, never a credential (the connection's token, certificates and
// keys are not among them).
#pragma once

#include "config/connection.hpp"
#include "config/options.hpp"
#include "k8s/log.hpp"

#include <string>

namespace c5c3::operator_ {

// "orders,monitoring": the controller groups the options run.
std::string controller_groups(const config::operator_options& o);

k8s::log::fields start_fields(const config::operator_options& o, const config::connection& c);

// The log levels the options ask for.
k8s::log::level log_level_of(const config::operator_options& o);

}  // namespace c5c3::operator_
