#include "actors/monitoring/alertmanager.hpp"

#include "actors/monitoring/constants.hpp"
#include "actors/monitoring/create_or_patch.hpp"
#include "actors/monitoring/gate.hpp"

namespace c5c3::monitoring {

namespace {

const std::string apiservices_slot = "apiservices";
const std::string config_slot = "alertmanagerconfig";

// The receiver and the route of the AlertmanagerConfig (upstream before
// 4441613e: the inbox webhook only, grouped by job).
k8s::json_document receivers(const k8s::object& apisvc) {
  auto url = "https://" + std::string(apisvc.get_string({"spec", "service", "name"})) + "." +
             std::string(apisvc.get_string({"spec", "service", "namespace"})) + ".svc:443/alerts";
  auto d = k8s::parse_json(R"([{"name":"webhook","webhookConfigs":[{"sendResolved":true,"url":"","httpConfig":{"tlsConfig":{"insecureSkipVerify":true}}}]}])");
  (*d)[0]["webhookConfigs"][0]["url"].SetString(url.data(), static_cast<rapidjson::SizeType>(url.size()), d->GetAllocator());
  return std::move(*d);
}

const char* const route_json =
    R"({"receiver":"webhook","groupBy":["job"],"groupWait":"10s","groupInterval":"1m","repeatInterval":"1h"})";

}  // namespace

runtime::order_plan plan_alertmanager(const runtime::sense_snapshot& s) {
  runtime::order_plan p;
  if (!detector_gate(s, alertmanager_detector_service, p)) return p;
  p.stage = "alertmanager";
  if (s.order.terminating()) return p;
  const k8s::object* apisvc = nullptr;
  for (const auto& a : s.list(apiservices_slot))
    if (a.get_string({"spec", "group"}) == inbox_group) {
      apisvc = &a;
      break;
    }
  if (!apisvc) {
    p.stage = "no inbox APIService";
    return p;
  }
  auto am = patch_only(s.order, [](k8s::object_builder& b) {
    b.set_string({"spec", "alertmanagerConfigSelector", "matchLabels", amcfg_label_key}, amcfg_inbox_agent);
    b.set_string({"spec", "alertmanagerConfigMatcherStrategy", "type"}, "None");
  });
  if (am) {
    p.writes.push_back(std::move(*am));
    return p;
  }
  p.stage = "alertmanagerconfig";
  auto rec = receivers(*apisvc);
  auto route = k8s::parse_json(route_json);
  auto w = create_or_patch(s, s.one(config_slot),
                           new_object(alertmanagerconfig_gvk, s.order.namespace_(), amcfg_inbox_agent),
                           [&](k8s::object_builder& b) {
                             b.set_label(amcfg_label_key, amcfg_inbox_agent);
                             b.set({"spec", "receivers"}, k8s::copy_json(rec, b.alloc()));
                             b.set({"spec", "route"}, k8s::copy_json(*route, b.alloc()));
                           });
  if (w) p.writes.push_back(std::move(*w));
  return p;
}

std::shared_ptr<const runtime::kind_declaration> alertmanager_declaration() {
  auto k = std::make_shared<runtime::kind_declaration>();
  k->controller = alertmanager_controller;
  k->gvk = alertmanager_gvk;
  k->admission = false;
  k->reads.push_back(runtime::listed(apiservices_slot, apiservice_gvk, "", runtime::namespace_role::all));
  k->reads.push_back(runtime::named(config_slot, alertmanagerconfig_gvk,
                                    [](const runtime::sense_snapshot& s) -> std::optional<runtime::locator> {
                                      return runtime::locator{s.key.namespace_, amcfg_inbox_agent};
                                    },
                                    "", true));
  runtime::watch_decl inbox;
  inbox.gvk = apiservice_gvk;
  inbox.optional = false;
  inbox.wakes = [](const k8s::object& a, const k8s::object&) { return a.get_string({"spec", "group"}) == inbox_group; };
  k->watches.push_back(inbox);
  k->plan = plan_alertmanager;
  return k;
}

}  // namespace c5c3::monitoring
