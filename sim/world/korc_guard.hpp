// K-ORC's deletion guards (internal/util/dependency/deletion_guard.go): a K-ORC
// controller puts its finalizer, openstack.k-orc.cloud/<controller>, on the
// objects its objects reference (the cloudCredentialsRef Secret, and the
// Domain, Project, Role, User, Service and Region a resource names). When such
// an object is being deleted, each guard is removed once no object of that
// controller's kind in the namespace references it any more (objects the
// guarded one owns do not count), so nothing is deleted before what depends on it.
#pragma once

#include "sim/world/world_object.hpp"

#include <optional>
#include <vector>

namespace c5c3::sim::world {

// `guarded` (a K-ORC object or a Secret) without the guards nothing holds any
// more; nullopt when there is nothing to remove (not deleted, or still held).
// `korc_objects` are the K-ORC objects of every kind in its namespace.
std::optional<object_write> release_guards(const k8s::object& guarded, const std::vector<k8s::object>& korc_objects);

}  // namespace c5c3::sim::world
