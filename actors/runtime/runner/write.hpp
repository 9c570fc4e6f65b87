// The writes a plan asks for, as plain data (the order runner's vocabulary;
// the scaffold re-exports them as c5c3::child_write). The runner issues them
// in order on the cluster each names and interprets every answer in one
// place (runner/README.md): AlreadyExists on a create is read by name and
// planned again, NotFound on a delete is success, Conflict is a requeue.
#pragma once

#include "k8s/object.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace c5c3::runtime {

enum class write_verb : std::uint8_t {
  create,       // POST; AlreadyExists means somebody else's object: read it and plan again
  apply,        // Server-Side Apply with the operator's field manager
  update,       // PUT of a read-modify-write, with the live resourceVersion as precondition
  merge_patch,  // JSON merge patch; body is the patch (with apiVersion, kind, name, namespace)
  delete_,      // DELETE of body's object (NotFound is success)
};

// Which cluster a write (or a read) goes to.
enum class write_cluster : std::uint8_t {
  management,  // the management cluster (the ControlPlane's namespace for the orders' children)
  order,       // the order's own cluster (its delivered Secret)
};

struct child_write {
  write_verb verb = write_verb::apply;
  write_cluster cluster = write_cluster::management;
  k8s::object body;
  bool force = false;  // SSA forced ownership
  // "status": the write goes to the status subresource (a merge patch of a
  // K-ORC object's conditions); "" the object itself.
  std::string subresource;
  // A failure is the plan's to report, not the pass's: the runner records it
  // in sense_snapshot::write_failures, issues nothing more of that plan and
  // plans again (the plan must not ask for the same write again).
  bool report_failure = false;

  std::string_view kind() const { return body.kind(); }
  std::string_view name() const { return body.name(); }
  // "apply Vhost ns/name": for logs and tests; never carries a Secret's data.
  std::string describe() const;
};

child_write make_create(k8s::object obj, write_cluster c = write_cluster::management);
child_write make_apply(k8s::object obj, write_cluster c = write_cluster::management, bool force = false);
child_write make_update(k8s::object obj, write_cluster c = write_cluster::management);
child_write make_merge_patch(k8s::object patch, write_cluster c = write_cluster::management);
child_write make_delete(const k8s::object& live, write_cluster c = write_cluster::management);

std::string_view verb_name(write_verb v);

}  // namespace c5c3::runtime
