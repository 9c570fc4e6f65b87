// The Grafana stand-in's dashboards, folders and search, following Grafana's
// dashboard service: by id or uid, versions (412 version-mismatch unless
// overwrite), names unique per folder (412 name-exists unless overwrite).
#include "sim/monitoring/grafana.hpp"

#include <algorithm>
#include <cctype>

namespace c5c3::sim::monitoring {

using k8s::json_value;

namespace {

k8s::http_response message(int status, std::string_view text, std::string_view status_word = {}) {
  return grafana_message(status, text, status_word);
}

std::string lower(std::string_view s) {
  std::string o(s);
  for (auto& c : o) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return o;
}

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

std::int64_t int_of(const json_value* v) { return v && v->IsInt64() ? v->GetInt64() : 0; }

std::string url_of(const grafana_dashboard& d) {
  return (d.is_folder ? "/dashboards/f/" : "/d/") + d.uid + "/" + d.slug;
}

}  // namespace

std::int64_t grafana_api::ensure_folder(std::int64_t org_id, const std::string& title) {
  for (auto& [uid, d] : dashboards_[org_id])
    if (d.is_folder && d.title == title) return d.id;
  grafana_dashboard f;
  f.id = next_dashboard_++;
  f.uid = new_uid();
  f.title = title;
  f.slug = grafana_slug(title);
  f.version = 1;
  f.is_folder = true;
  f.created = f.updated = now();
  f.model.SetObject();
  auto id = f.id;
  dashboards_[org_id][f.uid] = std::move(f);
  return id;
}

const grafana_dashboard* grafana_api::dashboard(std::int64_t org_id, const std::string& uid) const {
  auto o = dashboards_.find(org_id);
  if (o == dashboards_.end()) return nullptr;
  auto d = o->second.find(uid);
  return d == o->second.end() || d->second.is_folder ? nullptr : &d->second;
}

std::vector<const grafana_dashboard*> grafana_api::dashboards(std::int64_t org_id) const {
  std::vector<const grafana_dashboard*> out;
  if (auto o = dashboards_.find(org_id); o != dashboards_.end())
    for (auto& [uid, d] : o->second)
      if (!d.is_folder) out.push_back(&d);
  return out;
}

json_value grafana_api::dashboard_meta(const grafana_dashboard& d, std::int64_t org, k8s::json_allocator& a) const {
  json_value m(rapidjson::kObjectType);
  m.AddMember("type", k8s::make_string(d.is_folder ? "dash-folder" : "db", a), a);
  for (const char* k : {"canSave", "canEdit", "canAdmin", "canStar", "canDelete"}) m.AddMember(json_value(k, a), k8s::json_value(true), a);
  m.AddMember("slug", k8s::make_string(d.slug, a), a);
  m.AddMember("url", k8s::make_string(url_of(d), a), a);
  m.AddMember("expires", "0001-01-01T00:00:00Z", a);
  m.AddMember("created", k8s::make_string(d.created, a), a);
  m.AddMember("updated", k8s::make_string(d.updated, a), a);
  m.AddMember("updatedBy", "admin", a);
  m.AddMember("createdBy", "admin", a);
  m.AddMember("version", d.version, a);
  m.AddMember("hasAcl", false, a);
  m.AddMember("isFolder", d.is_folder, a);
  m.AddMember("folderId", d.folder_id, a);
  std::string fuid, ftitle, furl;
  if (d.folder_id)
    for (auto& [uid, f] : dashboards_.at(org))
      if (f.is_folder && f.id == d.folder_id) {
        fuid = uid;
        ftitle = f.title;
        furl = url_of(f);
      }
  m.AddMember("folderUid", k8s::make_string(fuid, a), a);
  m.AddMember("folderTitle", k8s::make_string(d.folder_id ? ftitle : "General", a), a);
  m.AddMember("folderUrl", k8s::make_string(furl, a), a);
  m.AddMember("provisioned", false, a);
  m.AddMember("provisionedExternalId", "", a);
  return m;
}

k8s::http_response grafana_api::dashboards_route(const k8s::http_request& req, const caller& who,
                                                 const std::vector<std::string>& p) {
  if (p.size() == 3 && p[2] == "db" && req.method == "POST") {
    auto body = k8s::parse_json(req.body);
    if (!body || !body->IsObject()) return message(400, "bad request data");
    return save_dashboard(*body, who, false);
  }
  if (p.size() != 4 || p[2] != "uid") return message(404, "Not found");
  auto& org = dashboards_[who.org_id];
  auto it = org.find(p[3]);
  if (it == org.end() || it->second.is_folder) return message(404, "Dashboard not found");
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  if (req.method == "GET") {
    d.AddMember("dashboard", k8s::copy_json(it->second.model, a), a);
    d.AddMember("meta", dashboard_meta(it->second, who.org_id, a), a);
    return json_response(200, d);
  }
  if (req.method == "DELETE") {
    d.AddMember("title", k8s::make_string(it->second.title, a), a);
    d.AddMember("message", k8s::make_string("Dashboard " + it->second.title + " deleted", a), a);
    d.AddMember("id", it->second.id, a);
    org.erase(it);
    return json_response(200, d);
  }
  return message(404, "Not found");
}

k8s::http_response grafana_api::save_dashboard(const json_value& body, const caller& who, bool) {
  const json_value* dash = k8s::member(body, "dashboard");
  if (!dash || !dash->IsObject()) return message(400, "Dashboard title cannot be empty");
  std::string title = trim(k8s::get_string(*dash, {"title"}));
  if (title.empty()) return message(400, "Dashboard title cannot be empty");
  std::string uid(k8s::get_string(*dash, {"uid"}));
  if (uid.size() > 40) return message(400, "uid too long, max 40 characters");
  for (unsigned char c : uid)
    if (!std::isalnum(c) && c != '-' && c != '_') return message(400, "uid contains illegal characters");
  const std::int64_t id = int_of(k8s::member(*dash, "id"));
  std::int64_t version = int_of(k8s::member(*dash, "version"));
  const bool overwrite = k8s::get_bool(body, {"overwrite"}).value_or(false);
  auto& org = dashboards_[who.org_id];
  // The folder: folderUid overrides folderId.
  std::int64_t folder_id = int_of(k8s::member(body, "folderId"));
  std::string folder_uid(k8s::get_string(body, {"folderUid"}));
  if (folder_uid.empty()) folder_uid = k8s::get_string(body, {"FolderUid"});  // the SDK's spelling
  if (!folder_uid.empty()) {
    auto f = org.find(folder_uid);
    if (f == org.end() || !f->second.is_folder) return message(400, "Folder not found");
    folder_id = f->second.id;
  } else if (folder_id != 0) {
    bool found = std::any_of(org.begin(), org.end(), [&](auto& e) { return e.second.is_folder && e.second.id == folder_id; });
    if (!found) return message(400, "Folder not found");
  }
  grafana_dashboard* by_id = nullptr;
  if (id > 0) {
    for (auto& [u, d] : org)
      if (d.id == id) by_id = &d;
    if (!by_id) return message(404, "Dashboard not found");
    if (uid.empty()) uid = by_id->uid;
  }
  grafana_dashboard* by_uid = nullptr;
  if (!uid.empty())
    if (auto f = org.find(uid); f != org.end()) by_uid = &f->second;
  if (by_id && by_uid && by_id != by_uid) return message(400, "A dashboard with the same uid already exists");
  grafana_dashboard* target = by_id ? by_id : by_uid;
  if (target && target->is_folder) return message(400, "Dashboard type mismatch");
  if (target && version != target->version) {
    if (!overwrite) return message(412, "The dashboard has been changed by someone else", "version-mismatch");
    version = target->version;
  }
  for (auto& [u, d] : org) {
    if (&d == target || d.is_folder || d.folder_id != folder_id || lower(d.title) != lower(title)) continue;
    if (!overwrite)
      return message(412, "A dashboard with the same name in the folder already exists", "name-exists");
    target = &d;  // overwrite takes the same-named dashboard's place
    version = d.version;
    uid = d.uid;
    break;
  }
  grafana_dashboard next;
  if (target) {
    next.id = target->id;
    next.uid = target->uid;
    next.created = target->created;
    next.version = version + 1;
  } else {
    next.id = next_dashboard_++;
    next.uid = uid.empty() ? new_uid() : uid;
    next.created = now();
    next.version = 1;
  }
  next.updated = now();
  next.title = title;
  next.slug = grafana_slug(title);
  next.folder_id = folder_id;
  next.model = k8s::copy_document(*dash);
  auto& ma = next.model.GetAllocator();
  k8s::set_member(next.model, "id", json_value(next.id), ma);
  k8s::set_member(next.model, "uid", k8s::make_string(next.uid, ma), ma);
  k8s::set_member(next.model, "title", k8s::make_string(title, ma), ma);
  k8s::set_member(next.model, "version", json_value(next.version), ma);
  if (target && target->uid != next.uid) org.erase(target->uid);
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("id", next.id, a);
  d.AddMember("uid", k8s::make_string(next.uid, a), a);
  d.AddMember("url", k8s::make_string(url_of(next), a), a);
  d.AddMember("status", "success", a);
  d.AddMember("version", next.version, a);
  d.AddMember("slug", k8s::make_string(next.slug, a), a);
  std::string key = next.uid;
  org[key] = std::move(next);
  return json_response(200, d);
}

k8s::http_response grafana_api::search(const k8s::http_request& req, const caller& who) {
  std::string query = lower(req.param("query").value_or(""));
  std::string type = req.param("type").value_or("");
  std::vector<std::int64_t> folder_ids;
  if (auto f = req.param("folderIds"); f && !f->empty()) {
    std::size_t i = 0;
    while (i <= f->size()) {
      auto j = f->find(',', i);
      if (j == std::string::npos) j = f->size();
      folder_ids.push_back(std::atoll(f->substr(i, j - i).c_str()));
      i = j + 1;
    }
  }
  auto& org = dashboards_[who.org_id];
  std::vector<const grafana_dashboard*> hits;
  for (auto& [uid, d] : org) {
    if (type == "dash-db" && d.is_folder) continue;
    if (type == "dash-folder" && !d.is_folder) continue;
    if (!query.empty() && lower(d.title).find(query) == std::string::npos) continue;
    if (!folder_ids.empty() && std::find(folder_ids.begin(), folder_ids.end(), d.folder_id) == folder_ids.end())
      continue;
    hits.push_back(&d);
  }
  std::sort(hits.begin(), hits.end(), [](auto* x, auto* y) { return lower(x->title) < lower(y->title); });
  k8s::json_document out(rapidjson::kArrayType);
  auto& a = out.GetAllocator();
  for (auto* d : hits) {
    json_value e(rapidjson::kObjectType);
    e.AddMember("id", d->id, a);
    e.AddMember("uid", k8s::make_string(d->uid, a), a);
    e.AddMember("title", k8s::make_string(d->title, a), a);
    e.AddMember("uri", k8s::make_string("db/" + d->slug, a), a);
    e.AddMember("url", k8s::make_string(url_of(*d), a), a);
    e.AddMember("slug", "", a);
    e.AddMember("type", k8s::make_string(d->is_folder ? "dash-folder" : "dash-db", a), a);
    json_value tags(rapidjson::kArrayType);
    if (auto* t = k8s::member(d->model, "tags"); t && t->IsArray()) tags = k8s::copy_json(*t, a);
    e.AddMember("tags", std::move(tags), a);
    e.AddMember("isStarred", false, a);
    if (d->folder_id) e.AddMember("folderId", d->folder_id, a);
    e.AddMember("sortMeta", 0, a);
    out.PushBack(std::move(e), a);
  }
  return json_response(200, out);
}

k8s::http_response grafana_api::folders_route(const k8s::http_request& req, const caller& who,
                                              const std::vector<std::string>& p) {
  auto& org = dashboards_[who.org_id];
  auto folder_json = [&](const grafana_dashboard& f, k8s::json_document& d) {
    auto& a = d.GetAllocator();
    d.SetObject();
    d.AddMember("id", f.id, a);
    d.AddMember("uid", k8s::make_string(f.uid, a), a);
    d.AddMember("title", k8s::make_string(f.title, a), a);
    d.AddMember("url", k8s::make_string(url_of(f), a), a);
    d.AddMember("hasAcl", false, a);
    for (const char* k : {"canSave", "canEdit", "canAdmin"}) d.AddMember(json_value(k, a), k8s::json_value(true), a);
    d.AddMember("createdBy", "admin", a);
    d.AddMember("created", k8s::make_string(f.created, a), a);
    d.AddMember("updatedBy", "admin", a);
    d.AddMember("updated", k8s::make_string(f.updated, a), a);
    d.AddMember("version", f.version, a);
  };
  k8s::json_document d;
  if (p.size() == 2 && req.method == "GET") {
    d.SetArray();
    auto& a = d.GetAllocator();
    for (auto& [uid, f] : org) {
      if (!f.is_folder) continue;
      json_value e(rapidjson::kObjectType);
      e.AddMember("id", f.id, a);
      e.AddMember("uid", k8s::make_string(uid, a), a);
      e.AddMember("title", k8s::make_string(f.title, a), a);
      d.PushBack(std::move(e), a);
    }
    return json_response(200, d);
  }
  if (p.size() == 2 && req.method == "POST") {
    auto body = k8s::parse_json(req.body);
    if (!body || !body->IsObject()) return message(400, "bad request data");
    std::string title = trim(k8s::get_string(*body, {"title"})), uid(k8s::get_string(*body, {"uid"}));
    if (title.empty()) return message(400, "folder title cannot be empty");
    for (auto& [u, f] : org) {
      if (!uid.empty() && u == uid) return message(409, "a folder with the same uid already exists");
      if (f.is_folder && lower(f.title) == lower(title))
        return message(409, "a folder or dashboard in the general folder with the same name already exists");
    }
    auto id = ensure_folder(who.org_id, title);
    for (auto& [u, f] : org)
      if (f.id == id && !uid.empty() && u != uid) {  // the uid the caller chose
        auto node = org.extract(u);
        node.key() = uid;
        node.mapped().uid = uid;
        org.insert(std::move(node));
        break;
      }
    for (auto& [u, f] : org)
      if (f.id == id) folder_json(f, d);
    return json_response(200, d);
  }
  if (p.size() == 3 && req.method == "GET") {
    auto f = org.find(p[2]);
    if (f == org.end() || !f->second.is_folder) return message(404, "folder not found");
    folder_json(f->second, d);
    return json_response(200, d);
  }
  return message(404, "Not found");
}

}  // namespace c5c3::sim::monitoring
