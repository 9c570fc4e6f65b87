// The KeystoneProject as the reconciler resolves it (apis.md 1.5): the spec
// with its default, the status fields, the child names.
#pragma once

#include "actors/c5c3/keystoneproject/constants.hpp"
#include "actors/c5c3/korc/order_pass.hpp"
#include "k8s/object.hpp"

#include <cstdint>
#include <string>

namespace c5c3::c5c3::keystoneproject {

struct project_status {
  std::int64_t observed_generation = 0;
  std::string project_id;
  std::string project_name;
  std::string domain_name;
  friend bool operator==(const project_status&, const project_status&) = default;
};
project_status read_status(const k8s::object& order);
void write_status(k8s::object_builder& b, const project_status& s);

struct project_order {
  korc::order_identity id;
  std::string project_name;  // spec.projectName, else metadata.name
  project_status status;
};
project_order make_project_order(const k8s::object& order, std::string_view cluster);

// <name>-<8 hex>-project-{project,project-probe}
struct project_names {
  std::string prefix;
  explicit project_names(const order_ref& ref) : prefix(ref.child_prefix()) {}
  std::string project() const { return prefix + "project"; }
  std::string probe() const { return prefix + "project-probe"; }
};

}  // namespace c5c3::c5c3::keystoneproject
