// What the API server serves for one kind at one group/version: the facts
// discovery reports (metav1.APIResource), plus the CRD facts the emulator
// needs to serve and render it (schema, printer columns).
#pragma once

#include "k8s/json.hpp"

#include <memory>
#include <string>
#include <vector>

namespace c5c3::k8s {

// apiextensions.k8s.io/v1 CustomResourceColumnDefinition.
struct printer_column {
  std::string name;
  std::string type;    // string, integer, number, boolean, date
  std::string format;  // optional
  std::string description;
  int priority = 0;       // 0 shows in `kubectl get`, >0 only with -o wide
  std::string json_path;  // e.g. .status.conditions[?(@.type=='Ready')].status
};

struct api_resource {
  std::string group;  // "" for the core group
  std::string version;
  std::string kind;
  std::string list_kind;  // e.g. SecretList
  std::string plural;     // resource name, e.g. secrets
  std::string singular;
  bool namespaced = true;
  std::vector<std::string> verbs;  // get, list, watch, create, update, patch, delete, deletecollection
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  bool status_subresource = false;
  bool scale_subresource = false;
  bool storage_version = true;  // the version objects are stored in
  // The version's openAPIV3Schema for custom kinds (null for built-ins that
  // have none), shared and immutable.
  std::shared_ptr<const json_document> schema;
  std::vector<printer_column> printer_columns;

  std::string api_version() const { return group.empty() ? version : group + "/" + version; }
  // "secrets" or "rabbitmqvhosts.c5c3.io".
  std::string qualified() const { return group.empty() ? plural : plural + "." + group; }
};

}  // namespace c5c3::k8s
