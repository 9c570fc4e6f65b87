// The writes a plan asks for: the order runner's vocabulary
// (actors/runtime/runner/write.hpp), named here as the scaffold's steps use
// them. An actor issues them in order, on the cluster each names; the first
// that fails ends the batch. A write whose answer a later step needs ends the
// plan: the runner folds the answer into its snapshot and plans again, until
// a plan asks for nothing.
#pragma once

#include "actors/runtime/runner/write.hpp"

namespace c5c3::c5c3 {

using runtime::child_write;
using runtime::make_apply;
using runtime::make_create;
using runtime::make_delete;
using runtime::make_merge_patch;
using runtime::make_update;
using runtime::verb_name;
using runtime::write_cluster;
using runtime::write_verb;

}  // namespace c5c3::c5c3
