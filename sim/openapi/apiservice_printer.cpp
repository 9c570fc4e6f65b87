// The table kube-aggregator's APIService storage renders
// (registry/apiservice/etcd: Name, Service, Available, Age).
#include "sim/openapi/printers.hpp"

namespace c5c3::sim::openapi::detail {

namespace {

void apiservice_cells(const k8s::json_value& o, k8s::time_point now, json_builder& b,
                      std::vector<k8s::json_value>& out) {
  std::string service = "Local";
  if (const k8s::json_value* s = k8s::find(o, {"spec", "service"}); s && s->IsObject())
    service = std::string(k8s::get_string(*s, {"namespace"})) + "/" + std::string(k8s::get_string(*s, {"name"}));
  std::string available = "Unknown";
  if (const k8s::json_value* conds = k8s::find(o, {"status", "conditions"}); conds && conds->IsArray())
    for (const auto& c : conds->GetArray()) {
      if (k8s::get_string(c, {"type"}) != "Available") continue;
      std::string status(k8s::get_string(c, {"status"})), reason(k8s::get_string(c, {"reason"}));
      available = status == "True" || reason.empty() ? status : status + " (" + reason + ")";
      break;
    }
  out.push_back(b.str(k8s::get_string(o, {"metadata", "name"})));
  out.push_back(b.str(service));
  out.push_back(b.str(available));
  out.push_back(b.str(age_since(k8s::get_string(o, {"metadata", "creationTimestamp"}), now)));
}

}  // namespace

printer apiservice_printer() {
  return {{{"Name", "string", "name", name_description, 0},
           {"Service", "string", "", "The reference to the service that hosts this API endpoint.", 0},
           {"Available", "string", "", "Whether this service is available.", 0},
           {"Age", "string", "", creation_timestamp_description, 0}},
          apiservice_cells};
}

}  // namespace c5c3::sim::openapi::detail
