// The Grafana stand-in's datasources: by id (deprecated but served), uid and
// name; names unique per org (409); secureJsonData kept as secureJsonFields.
#include "sim/monitoring/grafana.hpp"

namespace c5c3::sim::monitoring {

using k8s::json_value;

namespace {

k8s::http_response message(int status, std::string_view text) { return grafana_message(status, text); }

bool is_number(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
}

}  // namespace

std::int64_t grafana_api::ensure_datasource(std::int64_t org_id, const std::string& name, const std::string& type,
                                            const std::string& url) {
  auto& org = datasources_[org_id];
  for (auto& [id, ds] : org)
    if (ds.name == name) {
      if (ds.url != url) {
        ds.url = url;
        ++ds.version;
      }
      return id;
    }
  grafana_datasource ds;
  ds.id = next_datasource_++;
  ds.org_id = org_id;
  ds.uid = new_uid();
  ds.name = name;
  ds.type = type;
  ds.access = "proxy";
  ds.url = url;
  ds.json_data.SetObject();
  auto id = ds.id;
  org[id] = std::move(ds);
  return id;
}

const grafana_datasource* grafana_api::datasource(std::int64_t org_id, std::int64_t id) const {
  auto o = datasources_.find(org_id);
  if (o == datasources_.end()) return nullptr;
  auto d = o->second.find(id);
  return d == o->second.end() ? nullptr : &d->second;
}

std::vector<const grafana_datasource*> grafana_api::datasources(std::int64_t org_id) const {
  std::vector<const grafana_datasource*> out;
  if (auto o = datasources_.find(org_id); o != datasources_.end())
    for (auto& [id, d] : o->second) out.push_back(&d);
  return out;
}

json_value grafana_api::datasource_json(const grafana_datasource& d, k8s::json_allocator& a) const {
  json_value v(rapidjson::kObjectType);
  v.AddMember("id", d.id, a);
  v.AddMember("uid", k8s::make_string(d.uid, a), a);
  v.AddMember("orgId", d.org_id, a);
  v.AddMember("name", k8s::make_string(d.name, a), a);
  v.AddMember("type", k8s::make_string(d.type, a), a);
  v.AddMember("typeLogoUrl", "", a);
  v.AddMember("access", k8s::make_string(d.access, a), a);
  v.AddMember("url", k8s::make_string(d.url, a), a);
  v.AddMember("password", "", a);
  v.AddMember("user", k8s::make_string(d.user, a), a);
  v.AddMember("database", k8s::make_string(d.database, a), a);
  v.AddMember("basicAuth", d.basic_auth, a);
  v.AddMember("basicAuthUser", k8s::make_string(d.basic_auth_user, a), a);
  v.AddMember("basicAuthPassword", "", a);
  v.AddMember("withCredentials", d.with_credentials, a);
  v.AddMember("isDefault", d.is_default, a);
  v.AddMember("jsonData", k8s::copy_json(d.json_data, a), a);
  json_value secure(rapidjson::kObjectType);
  for (auto& f : d.secure_fields) secure.AddMember(k8s::make_string(f, a), k8s::json_value(true), a);
  v.AddMember("secureJsonFields", std::move(secure), a);
  v.AddMember("version", d.version, a);
  v.AddMember("readOnly", d.read_only, a);
  return v;
}

k8s::http_response grafana_api::save_datasource(const json_value& body, const caller& who,
                                                grafana_datasource* existing) {
  std::string name(k8s::get_string(body, {"name"}));
  if (name.empty() || k8s::get_string(body, {"type"}).empty()) return message(400, "bad request data");
  auto& org = datasources_[who.org_id];
  for (auto& [id, ds] : org)
    if (ds.name == name && &ds != existing) return message(409, "data source with the same name already exists");
  if (existing && existing->read_only) return message(403, "Cannot update read-only data source");
  grafana_datasource next;
  if (existing) {
    next.id = existing->id;
    next.uid = existing->uid;
    next.version = existing->version + 1;
    next.secure_fields = existing->secure_fields;
  } else {
    next.id = next_datasource_++;
    std::string uid(k8s::get_string(body, {"uid"}));
    next.uid = uid.empty() ? new_uid() : uid;
  }
  next.org_id = who.org_id;  // the caller's org, whatever orgId the body says
  next.name = name;
  next.type = k8s::get_string(body, {"type"});
  next.access = k8s::get_string(body, {"access"});
  next.url = k8s::get_string(body, {"url"});
  next.user = k8s::get_string(body, {"user"});
  next.database = k8s::get_string(body, {"database"});
  next.basic_auth = k8s::get_bool(body, {"basicAuth"}).value_or(false);
  next.basic_auth_user = k8s::get_string(body, {"basicAuthUser"});
  next.with_credentials = k8s::get_bool(body, {"withCredentials"}).value_or(false);
  next.is_default = k8s::get_bool(body, {"isDefault"}).value_or(false);
  if (const json_value* j = k8s::member(body, "jsonData"); j && j->IsObject())
    next.json_data = k8s::copy_document(*j);
  else
    next.json_data.SetObject();
  if (const json_value* s = k8s::member(body, "secureJsonData"); s && s->IsObject())
    for (auto it = s->MemberBegin(); it != s->MemberEnd(); ++it)
      next.secure_fields.emplace(k8s::as_string_view(it->name));
  if (next.is_default)
    for (auto& [id, ds] : org) ds.is_default = false;  // one default per org
  auto id = next.id;
  org[id] = std::move(next);
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("datasource", datasource_json(org[id], a), a);
  d.AddMember("id", id, a);
  d.AddMember("message", k8s::make_string(existing ? "Datasource updated" : "Datasource added", a), a);
  d.AddMember("name", k8s::make_string(name, a), a);
  return json_response(200, d);
}

k8s::http_response grafana_api::datasources_route(const k8s::http_request& req, const caller& who,
                                                  const std::vector<std::string>& p) {
  auto& org = datasources_[who.org_id];
  auto find = [&](const std::string& by, const std::string& value) -> grafana_datasource* {
    for (auto& [id, ds] : org)
      if ((by == "id" && std::to_string(id) == value) || (by == "uid" && ds.uid == value) ||
          (by == "name" && ds.name == value))
        return &ds;
    return nullptr;
  };
  k8s::json_document d;
  if (p.size() == 2) {
    if (req.method == "GET") {
      d.SetArray();
      for (auto& [id, ds] : org) d.PushBack(datasource_json(ds, d.GetAllocator()), d.GetAllocator());
      return json_response(200, d);
    }
    if (req.method == "POST") {
      auto body = k8s::parse_json(req.body);
      if (!body || !body->IsObject()) return message(400, "bad request data");
      return save_datasource(*body, who, nullptr);
    }
    return message(404, "Not found");
  }
  // /api/datasources/:id, or /api/datasources/{uid,name,id}/:x
  std::string by = "id", value = p[2];
  if (p.size() == 4 && (p[2] == "uid" || p[2] == "name" || p[2] == "id")) {
    by = p[2] == "id" ? "name" : p[2];
    value = p[3];
  } else if (p.size() != 3 || !is_number(p[2])) {
    return message(404, "Not found");
  }
  grafana_datasource* ds = find(by, value);
  if (!ds) return message(404, "Data source not found");
  if (p.size() == 4 && p[2] == "id") {  // GET /api/datasources/id/:name
    if (req.method != "GET") return message(404, "Not found");
    d.SetObject();
    d.AddMember("id", ds->id, d.GetAllocator());
    return json_response(200, d);
  }
  if (req.method == "GET") {
    auto v = datasource_json(*ds, d.GetAllocator());
    d.CopyFrom(v, d.GetAllocator());
    return json_response(200, d);
  }
  if (req.method == "PUT" && by != "name") {
    auto body = k8s::parse_json(req.body);
    if (!body || !body->IsObject()) return message(400, "bad request data");
    return save_datasource(*body, who, ds);
  }
  if (req.method == "DELETE") {
    if (ds->read_only) return message(403, "Cannot delete read-only data source");
    auto id = ds->id;
    org.erase(id);
    d.SetObject();
    d.AddMember("message", "Data source deleted", d.GetAllocator());
    if (by != "id") d.AddMember("id", id, d.GetAllocator());
    return json_response(200, d);
  }
  return message(404, "Not found");
}

}  // namespace c5c3::sim::monitoring
