#include "k8s/status.hpp"

#include <fmt/format.h>

namespace c5c3::k8s {
namespace {

std::string_view reason_for_code(int code) {
  switch (code) {
    case 400: return reasons::bad_request;
    case 401: return reasons::unauthorized;
    case 403: return reasons::forbidden;
    case 404: return reasons::not_found;
    case 405: return reasons::method_not_allowed;
    case 406: return reasons::not_acceptable;
    case 409: return reasons::conflict;
    case 410: return reasons::gone;
    case 413: return reasons::request_entity_too_large;
    case 415: return reasons::unsupported_media_type;
    case 422: return reasons::invalid;
    case 429: return reasons::too_many_requests;
    case 500: return reasons::internal_error;
    case 503: return reasons::service_unavailable;
    case 504: return reasons::timeout;
    default: return {};
  }
}

api_error with(int code, std::string_view reason, std::string message) {
  api_error e;
  e.code = code;
  e.reason = reason;
  e.message = std::move(message);
  return e;
}

}  // namespace

std::string api_error::describe() const {
  std::string head = request.empty() ? std::string() : request + ": ";
  // A request given up at its caller's deadline (client-side, no answer).
  if (code == 0 && reason == reasons::timeout) return fmt::format("{}{}: {}", head, reason, message);
  if (code == 0) return fmt::format("{}transport error: {}", head, message);
  if (reason.empty()) return fmt::format("{}{}: {}", head, code, message);
  return fmt::format("{}{} {}: {}", head, code, reason, message);
}

api_error parse_status(int http_code, std::string_view body, std::string request) {
  api_error e;
  e.code = http_code;
  e.request = std::move(request);
  auto doc = parse_json(body);
  if (doc && doc->IsObject() && get_string(*doc, {"kind"}) == "Status") {
    e.reason = get_string(*doc, {"reason"});
    e.message = get_string(*doc, {"message"});
    if (auto c = get_int(*doc, {"code"}); c && *c != 0 && http_code == 0) e.code = int(*c);
    if (const json_value* d = find(*doc, {"details"}); d && d->IsObject()) {
      e.group = get_string(*d, {"group"});
      e.kind = get_string(*d, {"kind"});
      e.name = get_string(*d, {"name"});
      e.uid = get_string(*d, {"uid"});
      if (auto r = get_int(*d, {"retryAfterSeconds"})) e.retry_after_seconds = int(*r);
      if (const json_value* causes = member(*d, "causes"); causes && causes->IsArray()) {
        for (auto& c : causes->GetArray())
          e.causes.push_back({std::string(get_string(c, {"reason"})),
                              std::string(get_string(c, {"message"})),
                              std::string(get_string(c, {"field"}))});
      }
    }
  } else {
    // Not a Status (a proxy's HTML page, an empty body): keep a short excerpt.
    std::string_view excerpt = body.substr(0, 200);
    e.message = excerpt.empty() ? fmt::format("the server answered {}", http_code)
                                : std::string(excerpt);
  }
  if (e.reason.empty()) e.reason = reason_for_code(e.code);
  return e;
}

json_document make_status_body(const api_error& e) {
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("kind", "Status", a);
  d.AddMember("apiVersion", "v1", a);
  d.AddMember("metadata", json_value(rapidjson::kObjectType), a);
  d.AddMember("status", "Failure", a);
  d.AddMember("message", make_string(e.message, a), a);
  if (!e.reason.empty()) d.AddMember("reason", make_string(e.reason, a), a);
  bool has_details = !e.name.empty() || !e.group.empty() || !e.kind.empty() || !e.uid.empty() ||
                     !e.causes.empty() || e.retry_after_seconds;
  if (has_details) {
    json_value det(rapidjson::kObjectType);
    if (!e.name.empty()) det.AddMember("name", make_string(e.name, a), a);
    if (!e.group.empty()) det.AddMember("group", make_string(e.group, a), a);
    if (!e.kind.empty()) det.AddMember("kind", make_string(e.kind, a), a);
    if (!e.uid.empty()) det.AddMember("uid", make_string(e.uid, a), a);
    if (!e.causes.empty()) {
      json_value causes(rapidjson::kArrayType);
      for (auto& c : e.causes) {
        json_value cv(rapidjson::kObjectType);
        if (!c.reason.empty()) cv.AddMember("reason", make_string(c.reason, a), a);
        if (!c.message.empty()) cv.AddMember("message", make_string(c.message, a), a);
        if (!c.field.empty()) cv.AddMember("field", make_string(c.field, a), a);
        causes.PushBack(cv, a);
      }
      det.AddMember("causes", causes, a);
    }
    if (e.retry_after_seconds) det.AddMember("retryAfterSeconds", *e.retry_after_seconds, a);
    d.AddMember("details", det, a);
  }
  d.AddMember("code", e.code, a);
  return d;
}

json_document make_success_status(std::string_view group, std::string_view kind,
                                  std::string_view name, std::string_view uid) {
  json_document d;
  d.SetObject();
  auto& a = d.GetAllocator();
  d.AddMember("kind", "Status", a);
  d.AddMember("apiVersion", "v1", a);
  d.AddMember("metadata", json_value(rapidjson::kObjectType), a);
  d.AddMember("status", "Success", a);
  json_value det(rapidjson::kObjectType);
  det.AddMember("name", make_string(name, a), a);
  if (!group.empty()) det.AddMember("group", make_string(group, a), a);
  det.AddMember("kind", make_string(kind, a), a);
  if (!uid.empty()) det.AddMember("uid", make_string(uid, a), a);
  d.AddMember("details", det, a);
  return d;
}

std::string qualified_resource(std::string_view group, std::string_view resource) {
  return group.empty() ? std::string(resource) : fmt::format("{}.{}", resource, group);
}

namespace {

// An error about one object: details name the group, the resource and the name.
api_error about(int code, std::string_view reason, std::string message, std::string_view group,
                std::string_view resource, std::string_view name) {
  auto e = with(code, reason, std::move(message));
  e.group = group;
  e.kind = resource;
  e.name = name;
  return e;
}

}  // namespace

api_error make_not_found(std::string_view group, std::string_view resource,
                         std::string_view name) {
  return about(404, reasons::not_found,
               fmt::format("{} \"{}\" not found", qualified_resource(group, resource), name), group,
               resource, name);
}

api_error make_already_exists(std::string_view group, std::string_view resource,
                              std::string_view name) {
  return about(409, reasons::already_exists,
               fmt::format("{} \"{}\" already exists", qualified_resource(group, resource), name),
               group, resource, name);
}

api_error make_conflict(std::string_view group, std::string_view resource, std::string_view name,
                        std::string_view why) {
  return about(409, reasons::conflict,
               fmt::format("Operation cannot be fulfilled on {} \"{}\": {}",
                           qualified_resource(group, resource), name, why),
               group, resource, name);
}

api_error make_invalid(std::string_view group, std::string_view kind, std::string_view name,
                       std::vector<status_cause> causes) {
  std::string qualified_kind = group.empty() ? std::string(kind) : fmt::format("{}.{}", kind, group);
  std::string list;
  for (std::size_t i = 0; i < causes.size(); ++i) {
    if (i) list += ", ";
    list += causes[i].field.empty() ? causes[i].message
                                    : fmt::format("{}: {}", causes[i].field, causes[i].message);
  }
  if (causes.size() > 1) list = "[" + list + "]";
  auto e = with(422, reasons::invalid,
                fmt::format("{} \"{}\" is invalid: {}", qualified_kind, name, list));
  e.group = group;
  e.kind = kind;
  e.name = name;
  e.causes = std::move(causes);
  return e;
}

api_error make_bad_request(std::string message) {
  return with(400, reasons::bad_request, std::move(message));
}
api_error make_method_not_allowed(std::string message) {
  return with(405, reasons::method_not_allowed, std::move(message));
}
api_error make_unsupported_media_type(std::string message) {
  return with(415, reasons::unsupported_media_type, std::move(message));
}
api_error make_not_acceptable(std::string message) {
  return with(406, reasons::not_acceptable, std::move(message));
}
api_error make_expired(std::string message) {
  return with(410, reasons::expired, std::move(message));
}
api_error make_too_many_requests(std::string message, int retry_after_seconds) {
  auto e = with(429, reasons::too_many_requests, std::move(message));
  e.retry_after_seconds = retry_after_seconds;
  return e;
}
api_error make_internal_error(std::string message) {
  auto e = with(500, reasons::internal_error, "Internal error occurred: " + message);
  e.causes.push_back({"", message, ""});
  return e;
}
api_error make_service_unavailable(std::string message) {
  return with(503, reasons::service_unavailable, std::move(message));
}
api_error make_unauthorized() { return with(401, reasons::unauthorized, "Unauthorized"); }
api_error make_forbidden(std::string message) {
  return with(403, reasons::forbidden, std::move(message));
}

}  // namespace c5c3::k8s
