// Snapshots for the monitoring plans' table tests: objects from YAML, a
// snapshot with its order, its slots and the services' answers, and looks at
// the plan's writes.
#pragma once

#include "actors/monitoring/flavour.hpp"
#include "actors/monitoring/gate.hpp"
#include "actors/runtime/runner/snapshot.hpp"
#include "k8s/yaml.hpp"

#include <boost/test/unit_test.hpp>

#include <map>
#include <string>
#include <vector>

namespace c5c3::testing::mon {

namespace rt = ::c5c3::runtime;

inline k8s::object yaml(const std::string& text) {
  std::string why;
  auto docs = k8s::yaml_documents_to_json(text, &why);
  BOOST_TEST_REQUIRE((docs.has_value() && docs->size() == 1), why + "\n" + text);
  return k8s::object(std::move(docs->front()));
}

struct snapshot_builder {
  rt::sense_snapshot s;

  explicit snapshot_builder(k8s::object order) {
    s.order = std::move(order);
    s.key = {"", std::string(s.order.namespace_()), std::string(s.order.name())};
    s.sensed = true;
    s.home_namespace = s.key.namespace_;
    s.now = k8s::clock::now();
  }
  snapshot_builder& slot(const std::string& id, std::vector<k8s::object> items, bool served = true) {
    auto& r = s.slots[id];
    r.items = std::move(items);
    r.read = true;
    r.served = served;
    return *this;
  }
  snapshot_builder& answer(const std::string& id, rt::service_answer a) {
    s.answers[id] = std::move(a);
    return *this;
  }
  snapshot_builder& detector(const std::string& service, const monitoring::flavour& f) {
    return answer(service, monitoring::ready_answer(f));
  }
  snapshot_builder& failed(const rt::child_write& w, std::string message) {
    s.write_failures.push_back({w.cluster, std::string(w.kind()), std::string(w.body.namespace_()), std::string(w.name()),
                                w.subresource, std::nullopt, std::move(message)});
    return *this;
  }
  const rt::sense_snapshot& get() const { return s; }
};

// "create ServiceAccount monitoring/trickster", ... for every write.
inline std::vector<std::string> described(const rt::order_plan& p) {
  std::vector<std::string> out;
  for (const auto& w : p.writes) out.push_back(w.describe());
  return out;
}

// Whether `v` is the JSON `want` (member order aside).
inline bool same_json(const k8s::json_value* v, const std::string& want) {
  auto d = k8s::parse_json(want);
  BOOST_TEST_REQUIRE(d.has_value(), want);
  if (!v) return false;
  if (!k8s::json_equal(*v, *d)) {
    BOOST_TEST_MESSAGE("got " << k8s::to_json(*v));
    return false;
  }
  return true;
}

inline const rt::child_write* write_of(const rt::order_plan& p, std::string_view kind, std::string_view name = {}) {
  for (const auto& w : p.writes)
    if (w.kind() == kind && (name.empty() || w.name() == name)) return &w;
  return nullptr;
}

inline monitoring::flavour standalone(bool singleton = true) {
  monitoring::flavour f;
  f.singleton = singleton;
  return f;
}

inline monitoring::flavour rancher_flavour() {
  monitoring::flavour f;
  f.kind = monitoring::flavour_kind::rancher;
  f.rancher = true;
  return f;
}

inline monitoring::flavour openshift_flavour() {
  monitoring::flavour f;
  f.kind = monitoring::flavour_kind::openshift;
  f.openshift = true;
  return f;
}

}  // namespace c5c3::testing::mon
