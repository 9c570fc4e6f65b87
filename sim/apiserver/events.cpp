#include "sim/apiserver/events.hpp"

#include "sim/apiserver/builtin_kinds.hpp"
#include "sim/validation/go_format.hpp"

#include <fmt/format.h>

#include <regex>
#include <utility>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;
namespace v = validation;

namespace {

// (core name, events.k8s.io/v1 name, what Go writes when the field is zero)
enum class zero { omit, null_value, empty_object, empty_string };
struct field_map {
  std::string_view core, events;
  zero core_zero, events_zero;
};

// In Go struct order of core/v1 Event; the events.k8s.io order differs and is
// applied by `events_order`.
constexpr field_map fields[] = {
    {"involvedObject", "regarding", zero::empty_object, zero::empty_object},
    {"reason", "reason", zero::omit, zero::omit},
    {"message", "note", zero::omit, zero::omit},
    {"source", "deprecatedSource", zero::empty_object, zero::empty_object},
    {"firstTimestamp", "deprecatedFirstTimestamp", zero::null_value, zero::null_value},
    {"lastTimestamp", "deprecatedLastTimestamp", zero::null_value, zero::null_value},
    {"count", "deprecatedCount", zero::omit, zero::omit},
    {"type", "type", zero::omit, zero::omit},
    {"eventTime", "eventTime", zero::null_value, zero::null_value},
    {"series", "series", zero::omit, zero::omit},
    {"action", "action", zero::omit, zero::omit},
    {"related", "related", zero::omit, zero::omit},
    {"reportingComponent", "reportingController", zero::empty_string, zero::omit},
    {"reportingInstance", "reportingInstance", zero::empty_string, zero::omit},
};

constexpr std::string_view events_order[] = {
    "eventTime", "series", "reportingController", "reportingInstance", "action", "reason",
    "regarding", "related", "note", "type", "deprecatedSource", "deprecatedFirstTimestamp",
    "deprecatedLastTimestamp", "deprecatedCount"};

bool is_zero(const json_value* x) {
  if (!x || x->IsNull()) return true;
  if (x->IsString()) return x->GetStringLength() == 0;
  if (x->IsNumber()) return x->IsInt64() ? x->GetInt64() == 0 : x->GetDouble() == 0;
  if (x->IsBool()) return !x->GetBool();
  return false;  // objects and arrays are kept as sent
}

json_value zero_value(zero z, k8s::json_allocator& a) {
  switch (z) {
    case zero::null_value: return json_value(rapidjson::kNullType);
    case zero::empty_object: return json_value(rapidjson::kObjectType);
    case zero::empty_string: return k8s::make_string("", a);
    case zero::omit: break;
  }
  return json_value(rapidjson::kNullType);
}

// A new document: apiVersion, kind and metadata of `from`, then `put` fills it.
template <class Put>
json_document rebuilt(const json_value& from, std::string_view api_version, Put put) {
  json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  d.AddMember("apiVersion", k8s::make_string(api_version, a), a);
  d.AddMember("kind", "Event", a);
  if (const json_value* md = k8s::member(from, "metadata"))
    d.AddMember("metadata", k8s::copy_json(*md, a), a);
  else
    d.AddMember("metadata", json_value(rapidjson::kObjectType), a);
  put(d, a);
  return d;
}

const json_value* at(const json_value& o, std::string_view name) { return k8s::member(o, name); }

std::string_view str(const json_value& o, std::initializer_list<std::string_view> path) {
  return k8s::get_string(o, path);
}

bool set(const json_value& o, std::string_view name) { return !is_zero(at(o, name)); }

}  // namespace

bool is_events_group_event(const k8s::api_resource& r) {
  return r.group == "events.k8s.io" && r.plural == "events";
}

bool is_core_event(const k8s::api_resource& r) { return r.group.empty() && r.plural == "events"; }

std::string storage_resource(const k8s::api_resource& r) {
  return is_events_group_event(r) ? std::string("events") : r.qualified();
}

void canonicalize_core_event(json_document& doc) {
  // Copied back into `doc`, whose allocator callers may hold on to.
  auto out = rebuilt(doc, "v1", [&](json_document& d, k8s::json_allocator& a) {
    for (const auto& f : fields) {
      const json_value* x = at(doc, f.core);
      if (!is_zero(x))
        d.AddMember(k8s::make_string(f.core, a), k8s::copy_json(*x, a), a);
      else if (f.core_zero != zero::omit)
        d.AddMember(k8s::make_string(f.core, a), zero_value(f.core_zero, a), a);
    }
  });
  doc.CopyFrom(out, doc.GetAllocator());
}

json_document event_to_core(const json_value& ev) {
  json_document d = rebuilt(ev, "v1", [&](json_document& out, k8s::json_allocator& a) {
    for (const auto& f : fields) {
      const json_value* x = at(ev, f.events);
      if (!is_zero(x)) out.AddMember(k8s::make_string(f.core, a), k8s::copy_json(*x, a), a);
    }
  });
  canonicalize_core_event(d);
  return d;
}

json_document event_from_core(const json_value& core) {
  return rebuilt(core, "events.k8s.io/v1", [&](json_document& d, k8s::json_allocator& a) {
    for (auto name : events_order)
      for (const auto& f : fields) {
        if (f.events != name) continue;
        const json_value* x = at(core, f.core);
        if (!is_zero(x))
          d.AddMember(k8s::make_string(f.events, a), k8s::copy_json(*x, a), a);
        else if (f.events_zero != zero::omit)
          d.AddMember(k8s::make_string(f.events, a), zero_value(f.events_zero, a), a);
      }
  });
}

std::vector<std::string> qualified_name_errors(std::string_view value) {
  static const std::regex name_re("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  const std::string regex_text =
      "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
      "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for "
      "validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  std::vector<std::string> errs;
  std::string_view name = value;
  if (auto slash = value.find('/'); slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos)
      return {"a qualified name " + regex_text +
              " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"};
    auto prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty())
      errs.push_back("prefix part must be non-empty");
    else
      for (auto& m : validate_dns1123_subdomain(prefix)) errs.push_back("prefix part " + m);
  }
  if (name.empty())
    errs.push_back("name part must be non-empty");
  else if (name.size() > 63)
    errs.push_back("name part must be no more than 63 characters");
  if (!std::regex_match(name.begin(), name.end(), name_re)) errs.push_back("name part " + regex_text);
  return errs;
}

std::vector<v::field_error> validate_event(const json_value& ev, bool strict, const json_value* old) {
  std::vector<v::field_error> errs;
  const std::string ns(str(ev, {"metadata", "namespace"}));
  const std::string involved_ns(str(ev, {"involvedObject", "namespace"}));
  const bool has_time = set(ev, "eventTime");
  auto len = [&](std::string_view name) { return str(ev, {name}).size(); };
  // legacyValidateEvent: every request.
  if (!has_time) {
    if (involved_ns.empty() ? (!ns.empty() && ns != "default") : ns != involved_ns)
      errs.push_back(v::invalid("involvedObject.namespace", v::go_quote(involved_ns),
                                "does not match event.namespace"));
  } else {
    if (involved_ns.empty() && ns != "default" && ns != "kube-system")
      errs.push_back(v::invalid("involvedObject.namespace", v::go_quote(involved_ns),
                                "does not match event.namespace"));
    std::string controller(str(ev, {"reportingComponent"}));
    if (controller.empty()) errs.push_back(v::required("reportingController"));
    for (auto& m : qualified_name_errors(controller))
      errs.push_back(v::invalid("reportingController", v::go_quote(controller), m));
    auto bounded = [&](std::string_view core, std::string_view path, std::size_t limit) {
      if (len(core) == 0) errs.push_back(v::required(std::string(path)));
      if (len(core) > limit)
        errs.push_back(v::invalid(std::string(path), v::go_quote(""),
                                  fmt::format("can have at most {} characters", limit)));
    };
    bounded("reportingInstance", "reportingInstance", 128);
    bounded("action", "action", 128);
    bounded("reason", "reason", 128);
    if (len("message") > 1024)
      errs.push_back(v::invalid("message", v::go_quote(""), "can have at most 1024 characters"));
  }
  for (auto& m : validate_dns1123_subdomain(ns)) errs.push_back(v::invalid("namespace", v::go_quote(ns), m));
  if (!strict) return errs;
  // The strict rules of events.k8s.io/v1.
  auto series_rules = [&] {
    const json_value* s = at(ev, "series");
    if (!s || s->IsNull()) return;
    if (k8s::get_int(*s, {"count"}).value_or(0) < 2)
      errs.push_back(v::invalid("series.count", v::go_quote(""), "should be at least 2"));
    if (is_zero(k8s::member(*s, "lastObservedTime"))) errs.push_back(v::required("series.lastObservedTime"));
  };
  if (!old) {
    series_rules();
    if (!has_time) errs.push_back(v::required("eventTime"));
    std::string type(str(ev, {"type"}));
    if (type != "Normal" && type != "Warning")
      errs.push_back(v::invalid("type", v::go_quote(""), "has invalid value: " + type));
    for (auto f : {"firstTimestamp", "lastTimestamp", "count"})
      if (set(ev, f)) errs.push_back(v::invalid(f, v::go_quote(""), "needs to be unset"));
    if (!str(ev, {"source", "component"}).empty() || !str(ev, {"source", "host"}).empty())
      errs.push_back(v::invalid("source", v::go_quote(""), "needs to be unset"));
    return errs;
  }
  auto same = [](const json_value* a, const json_value* b) {
    if (is_zero(a) || is_zero(b)) return is_zero(a) == is_zero(b);
    return k8s::json_equal(*a, *b);
  };
  if (!same(at(ev, "series"), at(*old, "series"))) series_rules();
  // (core name, reported path); reason is checked twice, as upstream does.
  constexpr std::pair<std::string_view, std::string_view> immutable[] = {
      {"involvedObject", "involvedObject"}, {"reason", "reason"},
      {"message", "message"},               {"source", "source"},
      {"firstTimestamp", "firstTimestamp"}, {"lastTimestamp", "lastTimestamp"},
      {"count", "count"},                   {"reason", "reason"},
      {"type", "type"},                     {"eventTime", "eventTime"},
      {"action", "action"},                 {"related", "related"},
      {"reportingComponent", "reportingController"}, {"reportingInstance", "reportingInstance"}};
  for (auto [core, path] : immutable) {
    const json_value* now = at(ev, core);
    if (same(now, at(*old, core))) continue;
    errs.push_back(v::invalid(std::string(path), now ? v::go_json(*now) : "null", "field is immutable"));
  }
  return errs;
}

std::optional<std::string> event_field_path(std::string_view label, bool events_group) {
  static constexpr std::string_view involved[] = {"kind", "namespace", "name", "uid", "apiVersion",
                                                  "resourceVersion", "fieldPath"};
  if (label == "metadata.name" || label == "metadata.namespace" || label == "reason" || label == "type")
    return std::string(label);
  if (label == "source") return std::string("source.component");
  std::string_view prefix = events_group ? "regarding." : "involvedObject.";
  if (label.substr(0, prefix.size()) == prefix) {
    auto rest = label.substr(prefix.size());
    for (auto f : involved)
      if (rest == f) return "involvedObject." + std::string(f);
    return std::nullopt;
  }
  if (label == (events_group ? "reportingController" : "reportingComponent"))
    return std::string("reportingComponent");
  return std::nullopt;
}

}  // namespace c5c3::sim
