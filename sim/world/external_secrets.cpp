#include "sim/world/external_secrets.hpp"

#include "sim/world/base64.hpp"

#include <fmt/format.h>

#include <set>

namespace c5c3::sim::world {
namespace {

constexpr std::string_view synced_message = "PushSecret synced successfully";

std::uint64_t fnv1a(std::string_view s, std::uint64_t h = 14695981039346656037ull) {
  for (unsigned char c : s) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

// Length-prefixed, so no two different maps hash the same text.
void hash_map(std::uint64_t& h, std::string_view tag, const std::map<std::string, std::string>& m) {
  h = fnv1a(fmt::format("{}:{};", tag, m.size()), h);
  for (const auto& [k, v] : m) h = fnv1a(fmt::format("{}:{}={}:{};", k.size(), k, v.size(), v), h);
}

// The remote keys recorded in status.syncedPushSecrets.
std::set<std::string> synced_keys(const k8s::object& ps) {
  std::set<std::string> out;
  if (const auto* stores = ps.get({"status", "syncedPushSecrets"}); stores && stores->IsObject()) {
    for (const auto& store : stores->GetObject()) {
      if (!store.value.IsObject()) continue;
      for (const auto& key : store.value.GetObject()) out.emplace(k8s::as_string_view(key.name));
    }
  }
  return out;
}

std::string remote_key_of(const k8s::json_value& data) {
  std::string key(k8s::get_string(data, {"match", "remoteRef", "remoteKey"}));
  auto prop = k8s::get_string(data, {"match", "remoteRef", "property"});
  if (!prop.empty()) key += "/" + std::string(prop);
  return key;
}

k8s::object with_finalizer(const k8s::object& o, bool add) {
  auto b = o.edit();
  if (add) {
    b.add_finalizer(push_secret_finalizer);
  } else {
    b.remove_finalizer(push_secret_finalizer);
  }
  return std::move(b).freeze();
}

std::optional<object_write> status_write(const k8s::object& before, k8s::object_builder&& b) {
  auto after = std::move(b).freeze();
  if (!status_differs(before, after)) return std::nullopt;
  return object_write{write_verb::update_status, std::move(after)};
}

void errored(push_plan& plan, const k8s::object& ps, std::string message, k8s::time_point now,
             bool clear_synced = false) {
  auto b = ps.edit();
  upsert_condition(b, {"Ready", "False", "Errored", std::move(message)}, now);
  if (clear_synced) b.set({"status", "syncedPushSecrets"}, k8s::json_value(rapidjson::kObjectType));
  if (auto w = status_write(ps, std::move(b))) plan.after.push_back(std::move(*w));
  plan.requeue_after = push_error_requeue;
}

std::vector<kv_write> removals(const std::set<std::string>& keys) {
  std::vector<kv_write> out;
  for (const auto& k : keys) out.push_back({kv_write::op::remove, k, {}});
  return out;
}

}  // namespace

std::optional<object_write> reconcile_secret_store(const k8s::object& store, k8s::time_point now) {
  if (!store || store.terminating()) return std::nullopt;
  auto b = store.edit();
  upsert_condition(b, {"Ready", "True", "Valid", "store validated"}, now);
  b.set_string({"status", "capabilities"}, "ReadWrite");
  return status_write(store, std::move(b));
}

std::string push_secret_version(const k8s::object& ps) {
  std::uint64_t h = fnv1a("");
  hash_map(h, "annots", ps.annotations());
  hash_map(h, "labels", ps.labels());
  return fmt::format("{}-{:016x}", ps.generation(), h);
}

push_plan reconcile_push_secret(const push_snapshot& s) {
  push_plan plan;
  const auto& ps = s.push_secret;
  if (!ps) return plan;
  const bool delete_policy = ps.get_string({"spec", "deletionPolicy"}, "None") == "Delete";

  if (ps.terminating()) {
    if (!ps.has_finalizer(push_secret_finalizer)) return plan;
    if (delete_policy) plan.remote = removals(synced_keys(ps));
    plan.after.push_back({write_verb::update, with_finalizer(ps, false)});
    return plan;
  }

  k8s::object current = ps;
  if (delete_policy != ps.has_finalizer(push_secret_finalizer)) {
    current = with_finalizer(ps, delete_policy);
    plan.before.push_back({write_verb::update, current});
  }

  // shouldRefresh.
  const auto version = push_secret_version(current);
  const auto interval =
      k8s::parse_go_duration(current.get_string({"spec", "refreshInterval"}, "1h0m0s")).value_or(std::chrono::hours(1));
  const auto refresh_time = k8s::parse_rfc3339(current.get_string({"status", "refreshTime"}));
  const bool version_changed = current.get_string({"status", "syncedResourceVersion"}) != version;
  if (!version_changed && refresh_time) {
    if (interval <= std::chrono::nanoseconds::zero()) return plan;
    auto due = *refresh_time + std::chrono::duration_cast<k8s::clock::duration>(interval);
    if (s.now < due) {
      plan.requeue_after = std::chrono::duration_cast<std::chrono::nanoseconds>(due - s.now);
      return plan;
    }
  }

  if (!s.source) {
    const auto keys = synced_keys(current);
    if (delete_policy) plan.remote = removals(keys);
    errored(plan, current, "could not get source secret", s.now, delete_policy && !keys.empty());
    return plan;
  }

  // The stores.
  std::vector<std::string> store_ids;
  if (const auto* refs = current.get({"spec", "secretStoreRefs"}); refs && refs->IsArray()) {
    for (const auto& ref : refs->GetArray()) {
      auto kind = std::string(k8s::get_string(ref, {"kind"}, "SecretStore"));
      auto name = std::string(k8s::get_string(ref, {"name"}));
      auto id = kind + "/" + name;
      if (!s.stores.contains(id)) {
        auto resource = kind == "ClusterSecretStore" ? "clustersecretstores" : "secretstores";
        errored(plan, current,
                fmt::format("could not get {} \"{}\", {}.external-secrets.io \"{}\" not found", kind, name,
                            resource, name),
                s.now);
        return plan;
      }
      store_ids.push_back(std::move(id));
    }
  }

  // The data: every key of the source when secretKey is empty.
  kv_entry whole;
  if (const auto* data = s.source.get({"data"}); data && data->IsObject()) {
    for (const auto& m : data->GetObject()) {
      auto v = m.value.IsString() ? base64_decode(k8s::as_string_view(m.value)) : std::nullopt;
      if (!v) {
        errored(plan, current, fmt::format("set secret failed: key {} is not base64", k8s::as_string_view(m.name)),
                s.now);
        return plan;
      }
      whole.emplace(std::string(k8s::as_string_view(m.name)), std::move(*v));
    }
  }
  auto b = current.edit();
  k8s::json_value synced(rapidjson::kObjectType);
  std::set<std::string> pushed;
  std::vector<kv_write> writes;
  if (const auto* data = current.get({"spec", "data"}); data && data->IsArray()) {
    for (const auto& d : data->GetArray()) {
      auto remote_key = std::string(k8s::get_string(d, {"match", "remoteRef", "remoteKey"}));
      auto property = std::string(k8s::get_string(d, {"match", "remoteRef", "property"}));
      auto secret_key = std::string(k8s::get_string(d, {"match", "secretKey"}));
      if (secret_key.empty()) {
        writes.push_back({kv_write::op::put, remote_key, whole});
      } else {
        auto it = whole.find(secret_key);
        if (it == whole.end()) {
          errored(plan, current, fmt::format("set secret failed: secret key {} does not exist", secret_key), s.now);
          return plan;
        }
        writes.push_back({property.empty() ? kv_write::op::put : kv_write::op::merge, remote_key,
                          kv_entry{{property.empty() ? secret_key : property, it->second}}});
      }
      pushed.insert(remote_key_of(d));
      for (const auto& id : store_ids) {
        auto& per_store = k8s::ensure_object(synced, {id}, b.alloc());
        k8s::set_member(per_store, remote_key_of(d), k8s::copy_json(d, b.alloc()), b.alloc());
      }
    }
  }
  if (delete_policy) {
    for (const auto& k : synced_keys(current)) {
      if (!pushed.contains(k)) writes.push_back({kv_write::op::remove, k, {}});
    }
  }
  plan.remote = std::move(writes);
  b.set({"status", "syncedPushSecrets"}, std::move(synced));
  b.set_string({"status", "refreshTime"}, k8s::format_rfc3339(s.now));
  b.set_string({"status", "syncedResourceVersion"}, version);
  upsert_condition(b, {"Ready", "True", "Synced", std::string(synced_message)}, s.now);
  if (auto w = status_write(current, std::move(b))) plan.after.push_back(std::move(*w));
  if (interval > std::chrono::nanoseconds::zero()) plan.requeue_after = interval;
  return plan;
}

void apply_remote(kv_store& store, const std::vector<kv_write>& writes) {
  for (const auto& w : writes) {
    switch (w.operation) {
      case kv_write::op::put: store.put(w.key, w.value); break;
      case kv_write::op::merge: store.merge(w.key, w.value); break;
      case kv_write::op::remove: store.remove(w.key); break;
    }
  }
}

}  // namespace c5c3::sim::world
