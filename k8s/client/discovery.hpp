// Discovery: the REST mapping from a kind to the resource serving it,
// cached per group/version and refreshed when a kind is unknown. The parsing
// is pure; the client does the fetching.
#pragma once

#include "k8s/api_resource.hpp"
#include "k8s/object.hpp"

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace c5c3::k8s {

// The resources of one APIResourceList (GET /api/v1, /apis/<g>/<v>):
// subresources ("x/status") fold into their resource's flags.
std::optional<std::vector<api_resource>> parse_api_resource_list(std::string_view body,
                                                                 std::string* error = nullptr);

// The group/versions of an APIVersions (/api) or APIGroupList (/apis) answer:
// every served version of every group.
std::optional<std::vector<std::pair<std::string, std::string>>> parse_group_versions(
    std::string_view body, std::string* error = nullptr);

// Thread-safe cache of the mapping.
class rest_mapper {
 public:
  std::optional<api_resource> find(const gvk& k) const;
  // Replaces what is known of one group/version (an empty list: not served).
  void set_group_version(const std::string& group, const std::string& version,
                         std::vector<api_resource> resources);
  std::vector<api_resource> all() const;

 private:
  mutable std::mutex mu_;
  std::map<std::pair<std::string, std::string>, std::vector<api_resource>> by_gv_;
};

}  // namespace c5c3::k8s
