// Columns and cells of kube-apiserver's printers (pkg/printers/internalversion)
// for the built-in kinds the emulator serves. The server renders every column,
// wide ones (priority 1) included; kubectl hides those without -o wide.
#include "sim/openapi/printers.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <string>

namespace c5c3::sim::openapi::detail {

const char* const name_description =
    "Name must be unique within a namespace; it identifies the object in URLs.";
const char* const creation_timestamp_description =
    "CreationTimestamp is the server time at which the object was created (RFC 3339, UTC).";

namespace {

using k8s::json_value;

column_definition col(std::string name, std::string description, int priority = 0,
                      std::string type = "string", std::string format = "") {
  return {std::move(name), std::move(type), std::move(format), std::move(description), priority};
}
column_definition name_col() { return col("Name", name_description, 0, "string", "name"); }
column_definition age_col() { return col("Age", creation_timestamp_description); }

std::string_view str(const json_value& o, std::initializer_list<std::string_view> path) {
  return k8s::get_string(o, path);
}
std::size_t count_members(const json_value& o, std::initializer_list<std::string_view> path) {
  const json_value* v = k8s::find(o, path);
  if (v == nullptr) return 0;
  if (v->IsObject()) return v->MemberCount();
  if (v->IsArray()) return v->Size();
  return 0;
}
std::string age(const json_value& o, k8s::time_point now) {
  return age_since(str(o, {"metadata", "creationTimestamp"}), now);
}
std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}
std::vector<std::string> strings_at(const json_value& o, std::initializer_list<std::string_view> path) {
  std::vector<std::string> out;
  const json_value* v = k8s::find(o, path);
  if (v && v->IsArray())
    for (const auto& e : v->GetArray())
      if (e.IsString()) out.emplace_back(k8s::as_string_view(e));
  return out;
}
std::int64_t int_at(const json_value& o, std::initializer_list<std::string_view> path) {
  return k8s::get_int(o, path).value_or(0);
}

void namespace_cells(const json_value& o, k8s::time_point now, json_builder& b,
                     std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(str(o, {"status", "phase"})));
  out.push_back(b.str(age(o, now)));
}

void secret_cells(const json_value& o, k8s::time_point now, json_builder& b,
                  std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(str(o, {"type"})));
  out.push_back(json_value(static_cast<int64_t>(count_members(o, {"data"}))));
  out.push_back(b.str(age(o, now)));
}

void configmap_cells(const json_value& o, k8s::time_point now, json_builder& b,
                     std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(json_value(
      static_cast<int64_t>(count_members(o, {"data"}) + count_members(o, {"binaryData"}))));
  out.push_back(b.str(age(o, now)));
}

std::string lb_ingress(const json_value& o) {
  std::vector<std::string> ips;
  const json_value* ing = k8s::find(o, {"status", "loadBalancer", "ingress"});
  if (ing && ing->IsArray())
    for (const auto& e : ing->GetArray()) {
      if (auto ip = k8s::get_string(e, {"ip"}); !ip.empty()) ips.emplace_back(ip);
      else if (auto h = k8s::get_string(e, {"hostname"}); !h.empty()) ips.emplace_back(h);
    }
  return join(ips, ",");
}

void service_cells(const json_value& o, k8s::time_point now, json_builder& b,
                   std::vector<json_value>& out) {
  // The apiserver defaults an absent type to ClusterIP.
  std::string type(str(o, {"spec", "type"}));
  if (type.empty()) type = "ClusterIP";
  std::string cluster_ip(str(o, {"spec", "clusterIP"}));
  if (cluster_ip.empty()) cluster_ip = "<none>";
  auto external = strings_at(o, {"spec", "externalIPs"});
  std::string external_ip;
  if (type == "ClusterIP" || type == "NodePort") {
    external_ip = external.empty() ? "<none>" : join(external, ",");
  } else if (type == "LoadBalancer") {
    std::string lb = lb_ingress(o);
    if (!external.empty()) {
      std::vector<std::string> all;
      if (!lb.empty()) all.push_back(lb);
      all.insert(all.end(), external.begin(), external.end());
      external_ip = join(all, ",");
    } else {
      external_ip = lb.empty() ? "<pending>" : lb;
    }
  } else if (type == "ExternalName") {
    external_ip = str(o, {"spec", "externalName"});
  } else {
    external_ip = "<unknown>";
  }
  std::vector<std::string> ports;
  if (const json_value* ps = k8s::find(o, {"spec", "ports"}); ps && ps->IsArray())
    for (const auto& p : ps->GetArray()) {
      std::string proto(k8s::get_string(p, {"protocol"}, "TCP"));
      auto port = k8s::get_int(p, {"port"}).value_or(0);
      auto node_port = k8s::get_int(p, {"nodePort"}).value_or(0);
      ports.push_back(node_port > 0 ? std::to_string(port) + ":" + std::to_string(node_port) + "/" + proto
                                    : std::to_string(port) + "/" + proto);
    }
  std::string selector;
  if (const json_value* sel = k8s::find(o, {"spec", "selector"}); sel && sel->IsObject()) {
    std::map<std::string, std::string> sorted;
    for (const auto& m : sel->GetObject())
      if (m.value.IsString())
        sorted.emplace(k8s::as_string_view(m.name), k8s::as_string_view(m.value));
    for (const auto& [k, v] : sorted) selector += (selector.empty() ? "" : ",") + k + "=" + v;
  }
  if (selector.empty()) selector = "<none>";
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(type));
  out.push_back(b.str(cluster_ip));
  out.push_back(b.str(external_ip));
  out.push_back(b.str(ports.empty() ? "<none>" : join(ports, ",")));
  out.push_back(b.str(age(o, now)));
  out.push_back(b.str(selector));
}

std::string join_host_port(std::string_view host, std::int64_t port) {
  bool v6 = host.find(':') != std::string_view::npos;
  return (v6 ? "[" + std::string(host) + "]" : std::string(host)) + ":" + std::to_string(port);
}

void endpoints_cells(const json_value& o, k8s::time_point now, json_builder& b,
                     std::vector<json_value>& out) {
  std::vector<std::string> list;
  const std::size_t max = 3;
  bool more = false;
  std::size_t count = 0;
  const json_value* subsets = k8s::member(o, "subsets");
  bool any_subset = subsets && subsets->IsArray() && !subsets->Empty();
  if (any_subset) {
    for (const auto& ss : subsets->GetArray()) {
      std::vector<std::string> ips;
      if (const json_value* addrs = k8s::member(ss, "addresses"); addrs && addrs->IsArray())
        for (const auto& a : addrs->GetArray()) ips.emplace_back(k8s::get_string(a, {"ip"}));
      const json_value* ports = k8s::member(ss, "ports");
      if (!ports || !ports->IsArray() || ports->Empty()) {
        count += ips.size();
        for (const auto& ip : ips) {
          if (list.size() == max) {
            more = true;
            break;
          }
          list.push_back(ip);
        }
        continue;
      }
      for (const auto& p : ports->GetArray()) {
        count += ips.size();
        for (const auto& ip : ips) {
          if (list.size() == max) {
            more = true;
            break;
          }
          list.push_back(join_host_port(ip, k8s::get_int(p, {"port"}).value_or(0)));
        }
      }
    }
  }
  std::string text = join(list, ",");
  if (!any_subset) text = "<none>";
  else if (more) text += " + " + std::to_string(count - max) + " more...";
  else if (text.empty()) text = "<none>";
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(text));
  out.push_back(b.str(age(o, now)));
}

void serviceaccount_cells(const json_value& o, k8s::time_point now, json_builder& b,
                          std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(json_value(static_cast<int64_t>(count_members(o, {"secrets"}))));
  out.push_back(b.str(age(o, now)));
}

std::string first_non_empty(std::string_view a, std::string_view b) {
  return std::string(a.empty() ? b : a);
}

// Core/v1 and events.k8s.io/v1 Events share the printer (the server converts
// both to the internal Event first); field names differ between the two.
void event_cells(const json_value& o, k8s::time_point now, json_builder& b,
                 std::vector<json_value>& out) {
  const bool v1 = k8s::member(o, "regarding") != nullptr || k8s::member(o, "note") != nullptr ||
                  k8s::get_string(o, {"apiVersion"}) == "events.k8s.io/v1";
  auto pick = [&](std::string_view core, std::string_view events) {
    return str(o, {v1 ? events : core});
  };
  std::string_view first_ts = pick("firstTimestamp", "deprecatedFirstTimestamp");
  std::string first = first_ts.empty() ? age_since(str(o, {"eventTime"}), now) : age_since(first_ts, now);
  std::string_view last_ts = pick("lastTimestamp", "deprecatedLastTimestamp");
  std::string last = last_ts.empty() ? first : age_since(last_ts, now);
  std::int64_t count = int_at(o, {v1 ? "deprecatedCount" : "count"});
  if (const json_value* series = k8s::member(o, "series"); series && series->IsObject()) {
    last = age_since(k8s::get_string(*series, {"lastObservedTime"}), now);
    count = k8s::get_int(*series, {"count"}).value_or(0);
  } else if (count == 0) {
    count = 1;
  }
  const json_value* involved = k8s::member(o, v1 ? "regarding" : "involvedObject");
  std::string kind, name, field_path;
  if (involved) {
    kind = k8s::get_string(*involved, {"kind"});
    name = k8s::get_string(*involved, {"name"});
    field_path = k8s::get_string(*involved, {"fieldPath"});
  }
  for (char& c : kind) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string target = name.empty() ? kind : kind + "/" + name;
  // Core Events call the reporting controller "reportingComponent".
  const std::string_view src = v1 ? "deprecatedSource" : "source";
  std::string component = first_non_empty(str(o, {src, "component"}),
                                          str(o, {v1 ? "reportingController" : "reportingComponent"}));
  std::string host = first_non_empty(str(o, {src, "host"}), str(o, {"reportingInstance"}));
  std::string source = component.empty() && host.empty() ? ""
                       : host.empty()                    ? component
                                                         : component + ", " + host;
  std::string message(pick("message", "note"));
  auto trim = [](std::string s) {
    auto sp = [](unsigned char c) { return std::isspace(c) != 0; };
    while (!s.empty() && sp(static_cast<unsigned char>(s.back()))) s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && sp(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
  };
  out.push_back(b.str(last));
  out.push_back(b.str(str(o, {"type"})));
  out.push_back(b.str(str(o, {"reason"})));
  out.push_back(b.str(target));
  out.push_back(b.str(field_path));
  out.push_back(b.str(source));
  out.push_back(b.str(trim(message)));
  out.push_back(b.str(first));
  out.push_back(json_value(static_cast<int64_t>(count)));
  out.push_back(b.str(str(o, {"metadata", "name"})));
}

void lease_cells(const json_value& o, k8s::time_point now, json_builder& b,
                 std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(str(o, {"spec", "holderIdentity"})));
  out.push_back(b.str(age(o, now)));
}

std::string created_at(const json_value& o) {
  auto t = k8s::parse_rfc3339(str(o, {"metadata", "creationTimestamp"}));
  return t ? k8s::format_rfc3339(*t) : "0001-01-01T00:00:00Z";
}

void role_cells(const json_value& o, k8s::time_point, json_builder& b, std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(created_at(o)));
}

void binding_cells(const json_value& o, k8s::time_point now, json_builder& b,
                   std::vector<json_value>& out) {
  std::vector<std::string> users, groups, sas;
  if (const json_value* subjects = k8s::member(o, "subjects"); subjects && subjects->IsArray())
    for (const auto& s : subjects->GetArray()) {
      auto kind = k8s::get_string(s, {"kind"});
      std::string name(k8s::get_string(s, {"name"}));
      if (kind == "User") users.push_back(name);
      else if (kind == "Group") groups.push_back(name);
      else if (kind == "ServiceAccount")
        sas.push_back(std::string(k8s::get_string(s, {"namespace"})) + "/" + name);
    }
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(std::string(str(o, {"roleRef", "kind"})) + "/" +
                      std::string(str(o, {"roleRef", "name"}))));
  out.push_back(b.str(age(o, now)));
  out.push_back(b.str(join(users, ", ")));
  out.push_back(b.str(join(groups, ", ")));
  out.push_back(b.str(join(sas, ", ")));
}

// CustomResourceDefinitions have no printer: the default table convertor.
void crd_cells(const json_value& o, k8s::time_point, json_builder& b, std::vector<json_value>& out) {
  out.push_back(b.str(str(o, {"metadata", "name"})));
  out.push_back(b.str(created_at(o)));
}

struct keyed_printer {
  std::string_view group;
  std::string_view plural;
  printer p;
};

const std::vector<keyed_printer>& printers() {
  static const std::vector<keyed_printer> all = [] {
    std::vector<keyed_printer> v;
    v.push_back({"", "namespaces",
                 {{name_col(), col("Status", "The namespace's lifecycle phase."), age_col()},
                  namespace_cells}});
    v.push_back({"", "secrets",
                 {{name_col(), col("Type", "Used to facilitate programmatic handling of secret data."),
                   col("Data", "Number of data entries."), age_col()},
                  secret_cells}});
    v.push_back({"", "configmaps",
                 {{name_col(), col("Data", "Number of data and binaryData entries."), age_col()},
                  configmap_cells}});
    v.push_back({"", "services",
                 {{name_col(), col("Type", "How the service is exposed."),
                   col("Cluster-IP", "The IP address of the service inside the cluster."),
                   col("External-IP", "Addresses the service is reachable at from outside."),
                   col("Port(s)", "The ports the service exposes."), age_col(),
                   col("Selector", "The labels of the pods traffic is routed to.", 1)},
                  service_cells}});
    v.push_back({"", "endpoints",
                 {{name_col(), col("Endpoints", "The addresses and ports of the endpoints."),
                   age_col()},
                  endpoints_cells}});
    v.push_back({"", "serviceaccounts",
                 {{name_col(), col("Secrets", "Number of secrets the service account lists."),
                   age_col()},
                  serviceaccount_cells}});
    printer events{{col("Last Seen", "The time at which the event was last recorded."),
                    col("Type", "Type of this event (Normal, Warning)."),
                    col("Reason", "Short, machine understandable reason for the event."),
                    col("Object", "The object this event is about."),
                    col("Subobject", "The field of the object the event is about.", 1),
                    col("Source", "The component reporting this event.", 1),
                    col("Message", "A human-readable description of the event."),
                    col("First Seen", "The time at which the event was first recorded.", 1),
                    col("Count", "The number of times this event has occurred.", 1),
                    col("Name", name_description, 1, "string", "name")},
                   event_cells};
    v.push_back({"", "events", events});
    v.push_back({"events.k8s.io", "events", events});
    v.push_back({"coordination.k8s.io", "leases",
                 {{name_col(), col("Holder", "The holder of the lease."), age_col()}, lease_cells}});
    const std::string_view rbac = "rbac.authorization.k8s.io";
    printer roles{{name_col(), col("Created At", creation_timestamp_description)}, role_cells};
    v.push_back({rbac, "roles", roles});
    v.push_back({rbac, "clusterroles", roles});
    printer bindings{{name_col(), col("Role", "The role the binding grants."), age_col(),
                      col("Users", "Users the binding applies to.", 1),
                      col("Groups", "Groups the binding applies to.", 1),
                      col("ServiceAccounts", "Service accounts the binding applies to.", 1)},
                     binding_cells};
    v.push_back({rbac, "rolebindings", bindings});
    v.push_back({rbac, "clusterrolebindings", bindings});
    v.push_back({"apiextensions.k8s.io", "customresourcedefinitions",
                 {{name_col(), col("Created At", creation_timestamp_description, 0, "date")},
                  crd_cells}});
    v.push_back({"apiregistration.k8s.io", "apiservices", apiservice_printer()});
    return v;
  }();
  return all;
}

}  // namespace

const printer* builtin_printer(std::string_view group, std::string_view plural) {
  for (const auto& kp : printers())
    if (kp.group == group && kp.plural == plural) return &kp.p;
  return nullptr;
}

}  // namespace c5c3::sim::openapi::detail
