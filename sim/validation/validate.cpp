// Validation of a custom resource against its compiled schema, in the order
// and wording of apiextensions-apiserver's customResourceStrategy:
//   1. kube-openapi schema validation (names like "spec.list[0].x"),
//   2. x-kubernetes-list-type set/map uniqueness (field.Path names),
//   3. x-kubernetes-validations, unless a blocking error came before.
// On update, errors on values unchanged from the old object are ratcheted.
#include "sim/validation/validation.hpp"

#include "k8s/time.hpp"
#include "sim/validation/cel_eval.hpp"
#include "sim/validation/cel_value.hpp"
#include "sim/validation/go_format.hpp"
#include "sim/validation/re2.hpp"

#include <algorithm>
#include <map>
#include <cmath>
#include <set>

namespace c5c3::sim::validation {

namespace {

using k8s::json_value;

std::string field_of(const std::string& name) { return name.empty() ? "<nil>" : name; }
std::string child(const std::string& p, const std::string& name) { return p.empty() ? name : p + "." + name; }
std::string indexed(const std::string& p, std::size_t i) { return p + "[" + std::to_string(i) + "]"; }
std::string keyed(const std::string& p, const std::string& k) { return p + "[" + k + "]"; }

// The value as field.Error prints a decoded JSON value.
std::string render(const json_value& v) {
  if (v.IsString()) return go_quote(k8s::as_string_view(v));
  if (v.IsNumber()) return go_number(v);
  if (v.IsBool()) return v.GetBool() ? "true" : "false";
  return go_json(v);
}

std::string json_type(const json_value& v) {
  if (v.IsBool()) return "boolean";
  if (v.IsInt64() || v.IsUint64()) return "integer";
  if (v.IsNumber()) return "number";
  if (v.IsString()) return "string";
  if (v.IsArray()) return "array";
  if (v.IsObject()) return "object";
  return "null";
}

bool integral(const json_value& v) {
  if (v.IsInt64() || v.IsUint64()) return true;
  double d = v.GetDouble();
  return std::floor(d) == d && std::isfinite(d);
}

std::int64_t code_points(std::string_view s) {
  std::int64_t n = 0;
  for (unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

const re2_pattern& format_pattern(const char* source) {
  // Patterns of fixed text, compiled once per thread.
  thread_local std::map<const char*, re2_pattern> cache;
  auto it = cache.find(source);
  if (it == cache.end()) it = cache.emplace(source, *re2_pattern::compile(source)).first;
  return it->second;
}

bool valid_format(const std::string& format, const std::string& s) {
  if (format == "date-time") return k8s::parse_rfc3339(s).has_value();
  if (format == "date")
    return format_pattern("^[0-9]{4}-[0-9]{2}-[0-9]{2}$").search(s) && k8s::parse_rfc3339(s + "T00:00:00Z").has_value();
  if (format == "uuid")
    return format_pattern("^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$").search(s);
  if (format == "ipv4")
    return format_pattern("^((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])$").search(s);
  if (format == "ipv6")
    return s.find(':') != std::string::npos && s.find_first_not_of("0123456789abcdefABCDEF:.") == std::string::npos;
  if (format == "byte") return s.size() % 4 == 0 && format_pattern("^[A-Za-z0-9+/]*={0,2}$").search(s);
  if (format == "duration") return k8s::parse_go_duration(s).has_value();
  return true;  // formats kube does not check, or this emulator does not know
}

// The old item a map-list item correlates with (same values for every key).
const json_value* correlated_item(const schema_node& list, const json_value* old, const json_value& item) {
  if (!old || !old->IsArray() || list.list_type != "map" || !item.IsObject()) return nullptr;
  for (auto& o : old->GetArray()) {
    if (!o.IsObject()) continue;
    bool same = true;
    for (auto& k : list.list_map_keys) {
      auto* a = k8s::member(item, k);
      auto* b = k8s::member(o, k);
      if ((a == nullptr) != (b == nullptr) || (a && !k8s::json_equal(*a, *b))) {
        same = false;
        break;
      }
    }
    if (same) return &o;
  }
  return nullptr;
}

// Ratcheting state of a node: whether errors found at it are dropped.
bool ratchet_here(bool correlatable, const json_value& v, const json_value* old, bool parent) {
  if (!correlatable) return parent;
  return old && k8s::json_equal(v, *old);
}

class openapi_walker {
 public:
  std::vector<field_error> errors;

  void walk(const schema_node& n, const json_value& v, const json_value* old, const std::string& name,
            bool ratcheted) {
    auto add = [&](field_error e) {
      if (!ratcheted) errors.push_back(std::move(e));
    };
    std::vector<std::string> types;
    if (n.int_or_string) types = {"integer", "string"};
    else if (!n.type.empty()) types = {n.type};
    auto type_list = [&] {
      std::string t;
      for (auto& x : types) t += (t.empty() ? "" : ",") + x;
      return t;
    };
    std::string in = name + " in body";

    if (v.IsNull()) {
      if (!types.empty() && !n.nullable)
        add(type_invalid(field_of(name), go_quote("null"), in + " must be of type " + type_list() + ": \"null\""));
      check_enum(n, v, name, add);
      return;
    }
    std::string dtype = json_type(v);
    if (!types.empty()) {
      auto has = [&](const char* t) { return std::find(types.begin(), types.end(), t) != types.end(); };
      bool ok = has(dtype.c_str()) || (dtype == "number" && integral(v) && has("integer")) ||
                (dtype == "integer" && has("number"));
      if (!ok) add(type_invalid(field_of(name), go_quote(dtype), in + " must be of type " + type_list() + ": " + go_quote(dtype)));
    }
    if (v.IsString()) {
      std::string s(k8s::as_string_view(v));
      std::int64_t len = code_points(s);
      if (n.max_length && len > *n.max_length) {
        add(too_long(field_of(name), *n.max_length));
      } else if (n.min_length && len < *n.min_length) {
        add(invalid(field_of(name), render(v), in + " should be at least " + std::to_string(*n.min_length) + " chars long"));
      } else if (n.pattern_re && !n.pattern_re->re.search(s)) {
        add(invalid(field_of(name), render(v), in + " should match '" + n.pattern + "'"));
      }
      bool string_typed = types.empty() || std::find(types.begin(), types.end(), "string") != types.end();
      if (!n.format.empty() && string_typed && !valid_format(n.format, s))
        add(type_invalid(field_of(name), render(v), in + " must be of type " + n.format + ": " + render(v)));
    }
    if (v.IsNumber()) numbers(n, v, name, add);
    if (v.IsArray()) {
      std::size_t i = 0;
      for (auto& item : v.GetArray()) {
        if (n.items) {
          const json_value* o = correlated_item(n, old, item);
          bool corr = n.list_type == "map";
          walk(*n.items, item, o, indexed(name, i), ratchet_here(corr, item, o, ratcheted));
        }
        ++i;
      }
      auto size = static_cast<long long>(v.Size());
      if (n.min_items && size < *n.min_items)
        add(invalid(field_of(name), std::to_string(size), in + " should have at least " + std::to_string(*n.min_items) + " items"));
      if (n.max_items && size > *n.max_items) add(too_many(field_of(name), size, *n.max_items));
    }
    check_enum(n, v, name, add);
    if (v.IsObject()) {
      auto count = static_cast<long long>(v.MemberCount());
      if (n.min_properties && count < *n.min_properties)
        add(invalid(field_of(name), std::to_string(count), in + " should have at least " + std::to_string(*n.min_properties) + " properties"));
      if (n.max_properties && count > *n.max_properties) add(too_many(field_of(name), count, *n.max_properties));
      if (n.additional_properties) {
        for (auto& m : v.GetObject()) {
          std::string key(k8s::as_string_view(m.name));
          if (n.property(key)) continue;
          const json_value* o = old && old->IsObject() ? k8s::member(*old, key) : nullptr;
          walk(*n.additional_properties, m.value, o, name + "." + key, ratchet_here(true, m.value, o, ratcheted));
        }
      }
      for (auto& [pname, pnode] : n.properties) {
        auto* pv = k8s::member(v, pname);
        if (!pv) continue;
        const json_value* o = old && old->IsObject() ? k8s::member(*old, pname) : nullptr;
        walk(pnode, *pv, o, child(name, pname), ratchet_here(true, *pv, o, ratcheted));
      }
      for (auto& r : n.required)
        if (!k8s::member(v, r)) add(required(child(name, r)));
    }
  }

 private:
  template <class Add>
  void check_enum(const schema_node& n, const json_value& v, const std::string& name, Add& add) {
    if (!n.enum_values || n.enum_values->Empty()) return;
    std::vector<std::string> allowed;
    for (auto& e : n.enum_values->GetArray()) {
      if (k8s::json_equal(e, v)) return;
      allowed.push_back(e.IsString() ? std::string(k8s::as_string_view(e)) : go_json(e));
    }
    add(not_supported(field_of(name), v.IsNull() ? std::string("null") : render(v), allowed));
  }

  template <class Add>
  void numbers(const schema_node& n, const json_value& v, const std::string& name, Add& add) {
    std::string in = name + " in body";
    double d = v.GetDouble();
    auto bound = [](double b) { return go_float(b); };
    if (n.multiple_of) {
      double q = d / *n.multiple_of;
      if (std::fabs(q - std::round(q)) > 1e-9)
        add(invalid(field_of(name), render(v), in + " should be a multiple of " + bound(*n.multiple_of)));
    }
    if (n.minimum) {
      bool bad = n.exclusive_minimum ? d <= *n.minimum : d < *n.minimum;
      if (bad)
        add(invalid(field_of(name), render(v), in + (n.exclusive_minimum ? " should be greater than " : " should be greater than or equal to ") + bound(*n.minimum)));
    }
    if (n.maximum) {
      bool bad = n.exclusive_maximum ? d >= *n.maximum : d > *n.maximum;
      if (bad)
        add(invalid(field_of(name), render(v), in + (n.exclusive_maximum ? " should be less than " : " should be less than or equal to ") + bound(*n.maximum)));
    }
  }
};

// x-kubernetes-list-type set/map uniqueness.
class list_walker {
 public:
  std::vector<field_error> errors;

  void walk(const schema_node& n, const json_value& v, const std::string& path) {
    if (v.IsObject()) {
      for (auto& m : v.GetObject()) {
        std::string key(k8s::as_string_view(m.name));
        if (auto* p = n.property(key)) walk(*p, m.value, child(path, key));
        else if (n.additional_properties) walk(*n.additional_properties, m.value, keyed(path, key));
      }
      return;
    }
    if (!v.IsArray()) return;
    if (n.list_type == "set") set(v, path);
    if (n.list_type == "map") map(n, v, path);
    if (n.items) {
      std::size_t i = 0;
      for (auto& item : v.GetArray()) walk(*n.items, item, indexed(path, i++));
    }
  }

 private:
  void set(const json_value& v, const std::string& path) {
    for (rapidjson::SizeType i = 1; i < v.Size(); ++i) {
      int seen_before = 0;
      for (rapidjson::SizeType k = 0; k < i; ++k)
        if (k8s::json_equal(v[k], v[i])) ++seen_before;
      if (seen_before == 1) errors.push_back(duplicate(indexed(path, i), render(v[i])));
    }
  }

  void map(const schema_node& n, const json_value& v, const std::string& path) {
    for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
      if (!v[i].IsObject() && !v[i].IsNull()) {
        errors.push_back(invalid(indexed(path, i), render(v[i]), "must be an object for an array of list-type map"));
        return;
      }
    }
    // The key object of each item; absent keys are left out.
    std::vector<k8s::json_document> keys;
    for (auto& item : v.GetArray()) {
      k8s::json_document k;
      k.SetObject();
      for (auto& name : n.list_map_keys) {
        if (auto* kv = item.IsObject() ? k8s::member(item, name) : nullptr)
          k8s::set_member(k, name, k8s::copy_json(*kv, k.GetAllocator()), k.GetAllocator());
      }
      keys.push_back(std::move(k));
    }
    for (std::size_t i = 1; i < keys.size(); ++i) {
      int seen_before = 0;
      for (std::size_t k = 0; k < i; ++k)
        if (k8s::json_equal(keys[k], keys[i])) ++seen_before;
      if (seen_before == 1) errors.push_back(duplicate(indexed(path, i), go_json(keys[i])));
    }
  }
};

bool blocking(const std::vector<field_error>& errs) {
  for (auto& e : errs)
    if (e.type == error_type::not_supported || e.type == error_type::required ||
        e.type == error_type::too_long || e.type == error_type::too_many ||
        e.type == error_type::type_invalid)
      return true;
  return false;
}

std::string rule_error_string(const compiled_rule& r) {
  auto trim = [](std::string s) {
    auto b = s.find_first_not_of(" \t\n\r");
    if (b == std::string::npos) return std::string();
    auto e = s.find_last_not_of(" \t\n\r");
    return s.substr(b, e - b + 1);
  };
  return r.message.empty() ? trim(r.rule) : trim(r.message);
}

class cel_walker {
 public:
  std::vector<field_error> errors;

  void walk(const schema_node& n, const json_value& v, const json_value* old, const std::string& path,
            bool ratcheted, bool root) {
    if (v.IsNull()) return;
    if (!n.rules.empty()) rules(n, v, old, path, ratcheted, root);
    if (v.IsObject()) {
      bool map_corr = n.map_type.empty() || n.map_type == "granular" || n.map_type == "atomic";
      for (auto& m : v.GetObject()) {
        std::string key(k8s::as_string_view(m.name));
        const json_value* o = old && old->IsObject() ? k8s::member(*old, key) : nullptr;
        if (auto* p = n.property(key)) {
          if (p->has_rules_below()) walk(*p, m.value, o, child(path, key), ratchet_here(true, m.value, o, ratcheted), false);
        } else if (n.additional_properties && n.additional_properties->has_rules_below()) {
          if (!map_corr) o = nullptr;
          walk(*n.additional_properties, m.value, o, keyed(path, key), ratchet_here(map_corr, m.value, o, ratcheted), false);
        }
      }
    } else if (v.IsArray() && n.items && n.items->has_rules_below()) {
      std::size_t i = 0;
      for (auto& item : v.GetArray()) {
        const json_value* o = correlated_item(n, old, item);
        walk(*n.items, item, o, indexed(path, i++), ratchet_here(n.list_type == "map", item, o, ratcheted), false);
      }
    }
  }

 private:
  void rules(const schema_node& n, const json_value& v, const json_value* old, const std::string& path,
             bool ratcheted, bool root) {
    auto self = cel::from_json(v, &n, root);
    std::optional<cel::value> old_self;
    if (old && !old->IsNull()) old_self = cel::from_json(*old, &n, root);
    std::string type_value = go_quote(n.type);
    for (auto& r : n.rules) {
      if (r.uses_old_self && !old_self) continue;  // transition rules need an old value
      auto result = cel::evaluate(*r.program, self, old_self ? &*old_self : nullptr);
      if (result.is_error()) {
        errors.push_back(invalid(field_of(path), type_value, result.s + " evaluating rule: " + rule_error_string(r)));
        continue;
      }
      if (result.is_true()) continue;
      if (!r.uses_old_self && ratcheted) continue;
      std::string fpath = r.field_path.empty() ? path : child(path, r.field_path);
      std::string message = r.message.empty() ? "failed rule: " + rule_error_string(r) : rule_error_string(r);
      if (r.message_program) {
        auto m = cel::evaluate(*r.message_program, self, old_self ? &*old_self : nullptr);
        if (m.kind == cel::value_kind::string) {
          auto b = m.s.find_first_not_of(" \t\n\r");
          auto e = m.s.find_last_not_of(" \t\n\r");
          std::string t = b == std::string::npos ? std::string() : m.s.substr(b, e - b + 1);
          if (!t.empty() && t.find('\n') == std::string::npos && t.size() <= 5 * 1024) message = t;
        }
      }
      if (r.reason == "FieldValueForbidden") errors.push_back(forbidden(field_of(fpath), message));
      else if (r.reason == "FieldValueRequired") errors.push_back(required(field_of(fpath), message));
      else if (r.reason == "FieldValueDuplicate") errors.push_back(duplicate(field_of(fpath), type_value));
      else errors.push_back(invalid(field_of(fpath), type_value, message));
    }
  }
};

}  // namespace

std::vector<field_error> validate_openapi(const schema_node& node, const json_value& v, const std::string& path) {
  openapi_walker w;
  w.walk(node, v, nullptr, path, false);
  return std::move(w.errors);
}

std::vector<field_error> validate(const compiled_schema& schema, const json_value& obj, const json_value* old,
                                  std::vector<field_error> prior) {
  std::vector<field_error> errs = std::move(prior);
  const schema_node& root = schema.root;
  bool root_ratcheted = old != nullptr && k8s::json_equal(obj, *old);

  openapi_walker ow;
  ow.walk(root, obj, old, "", root_ratcheted);
  errs.insert(errs.end(), ow.errors.begin(), ow.errors.end());

  list_walker lw;
  bool old_lists_valid = true;
  if (old) {
    list_walker olw;
    olw.walk(root, *old, "");
    old_lists_valid = olw.errors.empty();
  }
  if (old_lists_valid) {
    lw.walk(root, obj, "");
    errs.insert(errs.end(), lw.errors.begin(), lw.errors.end());
  }

  if (root.has_rules_below()) {
    if (blocking(errs)) {
      errs.push_back(invalid("<nil>", std::string("null"),
                             "some validation rules were not checked because the object was invalid; "
                             "correct the existing errors to complete validation"));
    } else {
      cel_walker cw;
      cw.walk(root, obj, old, "", root_ratcheted, true);
      errs.insert(errs.end(), cw.errors.begin(), cw.errors.end());
    }
  }
  return errs;
}

}  // namespace c5c3::sim::validation
