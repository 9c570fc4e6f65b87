#include "actors/c5c3/keystonecatalogentry/declaration.hpp"

#include "actors/c5c3/korc/control_plane.hpp"

namespace c5c3::c5c3::keystonecatalogentry {

namespace rt = ::c5c3::runtime;

k8s::gvk order_gvk() { return {"c5c3.io", "v1alpha1", std::string(kind)}; }

namespace {

rt::ownership_keys keys() {
  return {std::string(label_name), std::string(label_namespace), std::string(label_cluster)};
}

}  // namespace

std::vector<rt::read_slot> reads() {
  const auto k = keys();
  return {rt::children(std::string(slot_services), korc::gvk("Service"), k),
          rt::children(std::string(slot_regions), korc::gvk("Region"), k),
          rt::children(std::string(slot_endpoints), korc::gvk("Endpoint"), k)};
}

pass_snapshot snapshot_of(const rt::sense_snapshot& s) {
  pass_snapshot p;
  p.order = &s.order;
  p.cluster = s.key.cluster;
  p.control_plane = s.control_plane_or_null();
  p.services_served = s.served(slot_services);
  p.regions_served = s.served(slot_regions);
  p.endpoints_served = s.served(slot_endpoints);
  p.services = s.list(slot_services);
  p.regions = s.list(slot_regions);
  p.endpoints = s.list(slot_endpoints);
  p.read_by_name = s.read_by_name;
  p.failures = s.write_failures;
  p.now = s.now;
  return p;
}

std::shared_ptr<const rt::kind_declaration> declaration() {
  auto k = std::make_shared<rt::kind_declaration>();
  k->controller = "keystonecatalogentry";
  k->gvk = order_gvk();
  k->keys = keys();
  k->finalizer = std::string(finalizer);
  k->reads = reads();
  k->plan = [](const rt::sense_snapshot& s) { return korc::runner_plan(plan_pass(snapshot_of(s))); };
  for (const auto& e : sub_reconcilers)
    k->instrumenter.push_back({std::string(e.sub_reconciler), std::string(e.condition_type)});
  return k;
}

}  // namespace c5c3::c5c3::keystonecatalogentry
