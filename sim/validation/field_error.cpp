#include "sim/validation/field_error.hpp"

#include "sim/validation/go_format.hpp"

#include <set>

namespace c5c3::sim::validation {

std::string_view cause_type(error_type t) {
  switch (t) {
    case error_type::not_found: return "FieldValueNotFound";
    case error_type::required: return "FieldValueRequired";
    case error_type::duplicate: return "FieldValueDuplicate";
    case error_type::invalid: return "FieldValueInvalid";
    case error_type::not_supported: return "FieldValueNotSupported";
    case error_type::forbidden: return "FieldValueForbidden";
    case error_type::too_long: return "FieldValueTooLong";
    case error_type::too_many: return "FieldValueTooMany";
    case error_type::internal: return "InternalError";
    case error_type::type_invalid: return "FieldValueTypeInvalid";
  }
  return "FieldValueInvalid";
}

std::string_view type_text(error_type t) {
  switch (t) {
    case error_type::not_found: return "Not found";
    case error_type::required: return "Required value";
    case error_type::duplicate: return "Duplicate value";
    case error_type::invalid: return "Invalid value";
    case error_type::not_supported: return "Unsupported value";
    case error_type::forbidden: return "Forbidden";
    case error_type::too_long: return "Too long";
    case error_type::too_many: return "Too many";
    case error_type::internal: return "Internal error";
    case error_type::type_invalid: return "Invalid value";
  }
  return "Invalid value";
}

std::string field_error::body() const {
  std::string s(type_text(type));
  switch (type) {
    case error_type::required:
    case error_type::forbidden:
    case error_type::too_long:
    case error_type::internal:
      break;
    default:
      if (value) s += ": " + *value;
  }
  if (!detail.empty()) s += ": " + detail;
  return s;
}

std::string field_error::to_string() const { return field + ": " + body(); }

field_error required(std::string field, std::string detail) {
  return {error_type::required, std::move(field), std::string("\"\""), std::move(detail)};
}
field_error invalid(std::string field, std::optional<std::string> value, std::string detail) {
  return {error_type::invalid, std::move(field), std::move(value), std::move(detail)};
}
field_error type_invalid(std::string field, std::optional<std::string> value, std::string detail) {
  return {error_type::type_invalid, std::move(field), std::move(value), std::move(detail)};
}
field_error not_supported(std::string field, std::string value,
                          const std::vector<std::string>& supported) {
  std::string detail;
  if (!supported.empty()) {
    detail = "supported values: ";
    for (std::size_t i = 0; i < supported.size(); ++i) {
      if (i) detail += ", ";
      detail += go_quote(supported[i]);
    }
  }
  return {error_type::not_supported, std::move(field), std::move(value), std::move(detail)};
}
field_error duplicate(std::string field, std::string value) {
  return {error_type::duplicate, std::move(field), std::move(value), {}};
}
field_error forbidden(std::string field, std::string detail) {
  return {error_type::forbidden, std::move(field), std::string("\"\""), std::move(detail)};
}
field_error too_long(std::string field, long long max_bytes) {
  std::string detail = max_bytes < 0 ? std::string("value is too long")
                                     : "may not be more than " + std::to_string(max_bytes) +
                                           (max_bytes == 1 ? " byte" : " bytes");
  return {error_type::too_long, std::move(field), std::string("\"<value omitted>\""),
          std::move(detail)};
}
field_error too_many(std::string field, long long actual, long long max) {
  std::string detail = max < 0 ? std::string("has too many items")
                               : "must have at most " + std::to_string(max) +
                                     (max == 1 ? " item" : " items");
  std::optional<std::string> v;
  if (actual >= 0) v = std::to_string(actual);
  return {error_type::too_many, std::move(field), std::move(v), std::move(detail)};
}
field_error internal_error(std::string field, std::string detail) {
  return {error_type::internal, std::move(field), std::nullopt, std::move(detail)};
}

std::string aggregate_message(const std::vector<field_error>& errors) {
  std::set<std::string> seen;
  std::string out;
  for (auto& e : errors) {
    auto msg = e.to_string();
    if (!seen.insert(msg).second) continue;
    if (seen.size() > 1) out += ", ";
    out += msg;
  }
  return seen.size() > 1 ? "[" + out + "]" : out;
}

k8s::api_error invalid_error(std::string_view group, std::string_view kind, std::string_view name,
                             const std::vector<field_error>& errors) {
  k8s::api_error e;
  e.code = 422;
  e.reason = std::string(k8s::reasons::invalid);
  std::string qualified = group.empty() ? std::string(kind) : std::string(kind) + "." + std::string(group);
  e.message = qualified + " " + go_quote(name) + " is invalid";
  if (!errors.empty()) e.message += ": " + aggregate_message(errors);
  e.group = group;
  e.kind = kind;
  e.name = name;
  for (auto& fe : errors)
    e.causes.push_back({std::string(cause_type(fe.type)), fe.body(), fe.field});
  return e;
}

k8s::json_document invalid_status_body(std::string_view group, std::string_view kind,
                                       std::string_view name,
                                       const std::vector<field_error>& errors) {
  return k8s::make_status_body(invalid_error(group, kind, name, errors));
}

std::string invalid_status_text(std::string_view group, std::string_view kind,
                                std::string_view name, const std::vector<field_error>& errors) {
  // Member order is the one metav1.Status has; go_json would sort keys, so
  // write the envelope by hand with Go's escaping.
  auto e = invalid_error(group, kind, name, errors);
  auto str = [](std::string_view s) {
    k8s::json_document d;
    d.SetString(s.data(), static_cast<rapidjson::SizeType>(s.size()), d.GetAllocator());
    return go_json(d);
  };
  std::string out = R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":)";
  out += str(e.message) + R"(,"reason":"Invalid","details":{)";
  std::string det;
  auto add = [&](std::string_view k, const std::string& v) {
    if (v.empty()) return;
    if (!det.empty()) det += ',';
    det += str(k) + ":" + str(v);
  };
  add("name", e.name);
  add("group", e.group);
  add("kind", e.kind);
  if (!e.causes.empty()) {
    if (!det.empty()) det += ',';
    det += R"("causes":[)";
    for (std::size_t i = 0; i < e.causes.size(); ++i) {
      if (i) det += ',';
      std::string c;
      auto addc = [&](std::string_view k, const std::string& v) {
        if (v.empty()) return;
        if (!c.empty()) c += ',';
        c += str(k) + ":" + str(v);
      };
      addc("reason", e.causes[i].reason);
      addc("message", e.causes[i].message);
      addc("field", e.causes[i].field);
      det += "{" + c + "}";
    }
    det += "]";
  }
  out += det + R"(},"code":422})";
  return out;
}

}  // namespace c5c3::sim::validation
