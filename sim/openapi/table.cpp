#include "sim/openapi/table.hpp"

#include "sim/openapi/json_build.hpp"
#include "sim/openapi/jsonpath.hpp"
#include "sim/openapi/printers.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace c5c3::sim::openapi {

using detail::json_builder;
using k8s::json_document;
using k8s::json_value;

namespace {

// Go's fmt "%v" of a float64 (%g with the shortest precision): the shortest
// digits that round-trip, in exponent form ("1e+06") when the decimal
// exponent is below -4 or at least 6.
std::string go_float(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  if (ec != std::errc()) return "0";
  std::string sci(buf, end);  // e.g. "-1.2345e+06"
  auto epos = sci.find('e');
  int exp = std::stoi(sci.substr(epos + 1));
  std::string mant = sci.substr(0, epos);
  bool neg = !mant.empty() && mant[0] == '-';
  if (neg) mant.erase(0, 1);
  std::string digits;
  for (char c : mant)
    if (c != '.') digits.push_back(c);
  if (exp < -4 || exp >= 6) {
    std::string out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    return (neg ? "-" : "") + out + e;
  }
  std::string out;
  if (exp < 0) {
    out = "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  } else if (static_cast<std::size_t>(exp) + 1 >= digits.size()) {
    out = digits + std::string(static_cast<std::size_t>(exp) + 1 - digits.size(), '0');
  } else {
    out = digits.substr(0, static_cast<std::size_t>(exp) + 1) + "." +
          digits.substr(static_cast<std::size_t>(exp) + 1);
  }
  return (neg ? "-" : "") + out;
}

// jsonpath's PrintResults of one value: strings as they are, numbers and
// booleans as Go prints them, objects and arrays as compact JSON.
std::optional<std::string> print_value(const json_value& v) {
  if (v.IsString()) return std::string(k8s::as_string_view(v));
  if (v.IsBool()) return std::string(v.GetBool() ? "true" : "false");
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  if (v.IsNumber()) return go_float(v.GetDouble());
  if (v.IsObject() || v.IsArray()) return k8s::to_json(v);
  return std::nullopt;  // null: the printer cannot print it, the cell is empty
}

// The apiextensions table convertor's cellForJSONValue.
json_value cell_for(const k8s::printer_column& c, const json_value& v, k8s::time_point now,
                    json_builder& b) {
  if (c.type == "string") {
    auto text = print_value(v);
    return text ? b.str(*text) : json_value(rapidjson::kNullType);
  }
  if (v.IsNull()) return json_value(rapidjson::kNullType);
  if (c.type == "integer") {
    if (v.IsInt64()) return json_value(static_cast<int64_t>(v.GetInt64()));
    if (v.IsNumber()) {
      double d = v.GetDouble();
      if (std::isfinite(d) && std::fabs(d) < 9.2e18) return json_value(static_cast<int64_t>(d));
    }
  } else if (c.type == "number") {
    if (v.IsNumber()) return json_value(v.GetDouble());
  } else if (c.type == "boolean") {
    if (v.IsBool()) return json_value(v.GetBool());
  } else if (c.type == "date") {
    if (v.IsString()) {
      auto t = k8s::parse_rfc3339(k8s::as_string_view(v));
      if (!t) return b.str("<invalid>");
      return b.str(human_duration(now - *t));
    }
  }
  return json_value(rapidjson::kNullType);
}

// A CRD version without printer columns shows its age.
std::vector<k8s::printer_column> crd_columns(const k8s::api_resource& r) {
  if (!r.printer_columns.empty()) return r.printer_columns;
  k8s::printer_column age;
  age.name = "Age";
  age.type = "date";
  age.description = detail::creation_timestamp_description;
  age.json_path = ".metadata.creationTimestamp";
  return {age};
}

json_value partial_metadata(const k8s::object& obj, json_builder& b) {
  json_value p = json_builder::obj();
  b.add(p, "kind", "PartialObjectMetadata");
  b.add(p, "apiVersion", "meta.k8s.io/v1");
  if (const json_value* m = k8s::member(obj.json(), "metadata"))
    b.add(p, "metadata", b.copy(*m));
  else
    b.add(p, "metadata", json_builder::obj());
  return p;
}

json_value columns_json(const k8s::api_resource& r, json_builder& b) {
  json_value cols = json_builder::arr();
  for (const auto& c : table_columns(r)) {
    json_value o = json_builder::obj();
    b.add(o, "name", c.name);
    b.add(o, "type", c.type);
    b.add(o, "format", c.format);
    b.add(o, "description", c.description);
    b.add_int(o, "priority", c.priority);
    b.push(cols, std::move(o));
  }
  return cols;
}

json_value row_json(const k8s::api_resource& r, const k8s::object& obj, const table_options& opt,
                    json_builder& b) {
  json_value row = json_builder::obj();
  json_value cells = json_builder::arr();
  for (auto& c : table_cells(r, obj, opt.now, b.alloc())) b.push(cells, std::move(c));
  b.add(row, "cells", std::move(cells));
  switch (opt.include) {
    case include_object::none:
      b.add(row, "object", json_value(rapidjson::kNullType));
      break;
    case include_object::metadata:
      b.add(row, "object", partial_metadata(obj, b));
      break;
    case include_object::object:
      b.add(row, "object", b.copy(obj.json()));
      break;
  }
  return row;
}

json_document make_table(const k8s::api_resource& r, const std::vector<const k8s::object*>& items,
                         const list_meta& meta, const table_options& opt) {
  json_document d(rapidjson::kObjectType);
  json_builder b(d.GetAllocator());
  b.add(d, "kind", "Table");
  b.add(d, "apiVersion", "meta.k8s.io/v1");
  json_value m = json_builder::obj();
  if (!meta.resource_version.empty()) b.add(m, "resourceVersion", meta.resource_version);
  if (!meta.continue_token.empty()) b.add(m, "continue", meta.continue_token);
  if (meta.remaining_item_count) b.add_int(m, "remainingItemCount", *meta.remaining_item_count);
  b.add(d, "metadata", std::move(m));
  // Go marshals the unset column slice as null.
  b.add(d, "columnDefinitions",
        opt.no_headers ? json_value(rapidjson::kNullType) : columns_json(r, b));
  json_value rows = json_builder::arr();
  for (const auto* obj : items) b.push(rows, row_json(r, *obj, opt, b));
  b.add(d, "rows", std::move(rows));
  return d;
}

}  // namespace

std::optional<include_object> parse_include_object(std::string_view value) {
  if (value.empty() || value == "Metadata") return include_object::metadata;
  if (value == "None") return include_object::none;
  if (value == "Object") return include_object::object;
  return std::nullopt;
}

std::vector<column_definition> table_columns(const k8s::api_resource& r) {
  if (const auto* p = detail::builtin_printer(r.group, r.plural)) return p->columns;
  std::vector<column_definition> out;
  out.push_back({"Name", "string", "name", detail::name_description, 0});
  for (const auto& c : crd_columns(r)) {
    std::string desc = c.description.empty()
                           ? "Custom resource definition column (in JSONPath format): " + c.json_path
                           : c.description;
    out.push_back({c.name, c.type, c.format, desc, c.priority});
  }
  return out;
}

std::vector<json_value> table_cells(const k8s::api_resource& r, const k8s::object& obj,
                                    k8s::time_point now, k8s::json_allocator& alloc) {
  json_builder b(alloc);
  std::vector<json_value> out;
  if (const auto* p = detail::builtin_printer(r.group, r.plural)) {
    p->cells(obj.json(), now, b, out);
    return out;
  }
  out.push_back(b.str(obj.name()));
  for (const auto& c : crd_columns(r)) {
    auto path = jsonpath::parse(c.json_path);
    std::vector<const json_value*> found;
    if (path) found = path->find(obj.json());
    // Only the first value a column selects is shown.
    out.push_back(found.empty() ? json_value(rapidjson::kNullType) : cell_for(c, *found[0], now, b));
  }
  return out;
}

json_document render_table(const k8s::api_resource& r, const k8s::object& obj,
                           const table_options& opt) {
  list_meta meta;
  meta.resource_version = std::string(obj.resource_version());
  return make_table(r, {&obj}, meta, opt);
}

json_document render_table(const k8s::api_resource& r, const std::vector<k8s::object>& items,
                           const list_meta& meta, const table_options& opt) {
  std::vector<const k8s::object*> ptrs;
  ptrs.reserve(items.size());
  for (const auto& o : items) ptrs.push_back(&o);
  return make_table(r, ptrs, meta, opt);
}

std::string human_duration(std::chrono::nanoseconds d) {
  using namespace std::chrono;
  const auto secs = duration_cast<seconds>(d).count();  // truncates toward zero, as Go's int()
  if (secs < -1) return "<invalid>";
  if (secs < 0) return "0s";
  if (secs < 60 * 2) return std::to_string(secs) + "s";
  const auto minutes = secs / 60;
  if (minutes < 10) {
    const auto s = secs % 60;
    return s == 0 ? std::to_string(minutes) + "m"
                  : std::to_string(minutes) + "m" + std::to_string(s) + "s";
  }
  if (minutes < 60 * 3) return std::to_string(minutes) + "m";
  const auto hours = secs / 3600;
  if (hours < 8) {
    const auto m = minutes % 60;
    return m == 0 ? std::to_string(hours) + "h"
                  : std::to_string(hours) + "h" + std::to_string(m) + "m";
  }
  if (hours < 48) return std::to_string(hours) + "h";
  if (hours < 24 * 8) {
    const auto h = hours % 24;
    return h == 0 ? std::to_string(hours / 24) + "d"
                  : std::to_string(hours / 24) + "d" + std::to_string(h) + "h";
  }
  if (hours < 24 * 365 * 2) return std::to_string(hours / 24) + "d";
  if (hours < 24 * 365 * 8) {
    const auto dy = (hours / 24) % 365;
    return dy == 0 ? std::to_string(hours / 24 / 365) + "y"
                   : std::to_string(hours / 24 / 365) + "y" + std::to_string(dy) + "d";
  }
  return std::to_string(hours / 24 / 365) + "y";
}

std::string age_since(std::string_view rfc3339, k8s::time_point now) {
  auto t = k8s::parse_rfc3339(rfc3339);
  if (rfc3339.empty() || !t) return "<unknown>";
  return human_duration(now - *t);
}

}  // namespace c5c3::sim::openapi
