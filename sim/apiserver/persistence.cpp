// --data-dir: a snapshot (state.json) and an append-only log of the changes
// since it (state.log, one JSON line per stored change), compacted into a new
// snapshot at start and whenever the log outgrows the state.
#include "sim/apiserver/apiserver_impl.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace c5c3::sim {

namespace fs = std::filesystem;
using k8s::json_document;
using k8s::json_value;

namespace {

const char* snapshot_file = "state.json";
const char* log_file = "state.log";
const std::string crds = "customresourcedefinitions.apiextensions.k8s.io";

// One log line: {"rv":N,"resource":Q,"object":{...}} for a stored object,
// {"rv":N,"resource":Q,"deleted":{"namespace":NS,"name":NAME}} for a removal.
std::string log_line(const watch_event& ev) {
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("rv", json_value(ev.rv), a);
  d.AddMember("resource", k8s::make_string(ev.qualified, a), a);
  if (ev.type == "DELETED") {
    json_value k(rapidjson::kObjectType);
    k.AddMember("namespace", k8s::make_string(ev.obj.namespace_(), a), a);
    k.AddMember("name", k8s::make_string(ev.obj.name(), a), a);
    d.AddMember("deleted", std::move(k), a);
  } else {
    d.AddMember("object", k8s::copy_json(ev.obj.json(), a), a);
  }
  return k8s::to_json(d) + "\n";
}

}  // namespace

void apiserver::impl::load_state() {
  if (opts_.data_dir.empty()) return;
  fs::create_directories(opts_.data_dir);
  auto p = fs::path(opts_.data_dir) / snapshot_file;
  if (!fs::exists(p)) return;
  std::string err;
  auto d = k8s::parse_json(read_file(p), &err);
  if (!d || !d->IsObject()) throw std::runtime_error("corrupt state file " + p.string() + ": " + err);
  rv_ = k8s::get_int(*d, {"resourceVersion"}).value_or(0);
  token_ = k8s::get_string(*d, {"token"});
  ca_ = {std::string(k8s::get_string(*d, {"ca", "cert"})), std::string(k8s::get_string(*d, {"ca", "key"}))};
  serving_ = {std::string(k8s::get_string(*d, {"serving", "cert"})),
              std::string(k8s::get_string(*d, {"serving", "key"}))};
  std::map<std::string, std::map<k8s::object_key, k8s::object>> state;
  if (const json_value* objs = k8s::member(*d, "objects"); objs && objs->IsArray())
    for (auto& e : objs->GetArray()) {
      const json_value* o = k8s::member(e, "object");
      if (!o) continue;
      k8s::object obj(k8s::copy_document(*o));
      state[std::string(k8s::get_string(e, {"resource"}))][obj.key()] = obj;
    }
  // The log's changes after the snapshot; a torn last line (a crash while
  // appending) ends the replay.
  const std::int64_t snapshot_rv = rv_;
  auto lp = fs::path(opts_.data_dir) / log_file;
  if (fs::exists(lp)) {
    std::istringstream in(read_file(lp));
    std::string line;
    while (std::getline(in, line)) {
      auto e = k8s::parse_json(line);
      if (!e || !e->IsObject()) break;
      auto rv = k8s::get_int(*e, {"rv"}).value_or(0);
      if (rv <= snapshot_rv) continue;
      rv_ = std::max(rv_, rv);
      auto& objects = state[std::string(k8s::get_string(*e, {"resource"}))];
      if (const json_value* o = k8s::member(*e, "object")) {
        k8s::object obj(k8s::copy_document(*o));
        objects[obj.key()] = obj;
      } else {
        objects.erase({std::string(k8s::get_string(*e, {"deleted", "namespace"})),
                       std::string(k8s::get_string(*e, {"deleted", "name"}))});
      }
    }
  }
  evicted_rv_ = rv_;  // no history survives a restart
  // CRDs first: they make their kinds' resources exist.
  if (auto it = state.find(crds); it != state.end())
    for (auto& [k, crd] : it->second) {
      serve_crd_locked(crd);
      resources_[crds].objects[k] = crd;
    }
  for (auto& [q, objects] : state) {
    if (q == crds) continue;
    auto it = resources_.find(q);
    if (it == resources_.end()) continue;
    for (auto& [k, o] : objects) it->second.objects[k] = o;
  }
}

void apiserver::impl::write_snapshot_locked() {
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("resourceVersion", json_value(rv_), a);
  d.AddMember("token", k8s::make_string(token_, a), a);
  json_value ca(rapidjson::kObjectType);
  ca.AddMember("cert", k8s::make_string(ca_.cert_pem, a), a);
  ca.AddMember("key", k8s::make_string(ca_.key_pem, a), a);
  d.AddMember("ca", std::move(ca), a);
  json_value sv(rapidjson::kObjectType);
  sv.AddMember("cert", k8s::make_string(serving_.cert_pem, a), a);
  sv.AddMember("key", k8s::make_string(serving_.key_pem, a), a);
  d.AddMember("serving", std::move(sv), a);
  json_value objs(rapidjson::kArrayType);
  std::size_t n = 0;
  for (auto& [q, sr] : resources_)
    for (auto& [k, o] : sr.objects) {
      json_value e(rapidjson::kObjectType);
      e.AddMember("resource", k8s::make_string(q, a), a);
      e.AddMember("object", k8s::copy_json(o.json(), a), a);
      objs.PushBack(std::move(e), a);
      ++n;
    }
  d.AddMember("objects", std::move(objs), a);
  write_file_atomic(fs::path(opts_.data_dir) / snapshot_file, k8s::to_json(d), true);
  // The snapshot holds everything: the log starts again (a crash before
  // this line leaves records the snapshot already covers; load skips them).
  write_file_atomic(fs::path(opts_.data_dir) / log_file, "", true);
  persisted_rv_ = rv_;
  log_records_ = 0;
  snapshot_objects_ = n;
}

void apiserver::impl::save_state_locked() {
  if (opts_.data_dir.empty()) return;
  // A snapshot when there is none yet, when changes since the last save have
  // already left the history (a single request can make many), or when the
  // log has grown past the state it describes.
  if (persisted_rv_ < 0 || persisted_rv_ < evicted_rv_ || log_records_ > 1024 + 2 * snapshot_objects_) {
    write_snapshot_locked();
    return;
  }
  std::string out;
  std::size_t n = 0;
  for (auto it = history_.rbegin(); it != history_.rend() && it->rv > persisted_rv_; ++it) ++n;
  if (n == 0) return;
  for (auto it = history_.end() - static_cast<std::ptrdiff_t>(n); it != history_.end(); ++it) out += log_line(*it);
  std::ofstream f(fs::path(opts_.data_dir) / log_file, std::ios::binary | std::ios::app);
  if (!f) throw std::runtime_error("cannot append to " + (fs::path(opts_.data_dir) / log_file).string());
  f << out;
  f.flush();
  log_records_ += n;
  persisted_rv_ = rv_;
}

}  // namespace c5c3::sim
