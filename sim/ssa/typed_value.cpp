#include "sim/ssa/typed_value.hpp"

#include <fmt/format.h>

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace c5c3::sim::ssa {

using k8s::json_allocator;
using k8s::json_value;

namespace {

enum class shape { leaf, map, list };

const schema_node* node_of(const schema_ptr& s) { return s.get(); }

// How a value (or a pair of values) walks under `s`.
shape shape_of(const schema_node* s, const json_value* v) {
  bool is_obj = v && v->IsObject();
  bool is_arr = v && v->IsArray();
  bool absent = !v || v->IsNull();
  if (!s || s->kind == schema_node::kind_t::untyped) return is_obj ? shape::map : shape::leaf;
  switch (s->kind) {
    case schema_node::kind_t::object:
      if (s->map == map_type::atomic) return shape::leaf;
      return (is_obj || absent) ? shape::map : shape::leaf;
    case schema_node::kind_t::list:
      if (s->list == list_type::atomic) return shape::leaf;
      return (is_arr || absent) ? shape::list : shape::leaf;
    default:
      return shape::leaf;
  }
}

shape shape_of_pair(const schema_node* s, const json_value* a, const json_value* b) {
  shape sa = shape_of(s, a), sb = shape_of(s, b);
  if (!a) return sb;
  if (!b) return sa;
  if (sa != sb) return shape::leaf;
  // An untyped pair where one side is not an object.
  if (sa == shape::map && (!a->IsObject() || !b->IsObject()) &&
      (!s || s->kind == schema_node::kind_t::untyped))
    return shape::leaf;
  return sa;
}

schema_ptr child_schema(const schema_node* s, std::string_view key) {
  if (!s) return nullptr;
  return s->field(key);
}

schema_ptr item_schema(const schema_node* s) { return s ? s->items : nullptr; }

bool is_empty_map(const json_value* v) {
  return !v || v->IsNull() || (v->IsObject() && v->MemberCount() == 0);
}
bool is_empty_list(const json_value* v) {
  return !v || v->IsNull() || (v->IsArray() && v->Size() == 0);
}

path extend(const path& p, path_element pe) {
  path out = p;
  out.push_back(std::move(pe));
  return out;
}

// Items of a set/map list, indexed by element; first occurrence wins.
struct indexed_list {
  std::vector<path_element> order;
  std::map<path_element, const json_value*> items;
  std::string error;
};

indexed_list index_list(const json_value* v, const schema_node& s, bool allow_duplicates) {
  indexed_list out;
  if (!v || !v->IsArray()) return out;
  std::size_t n = 0;
  for (auto& item : v->GetArray()) {
    std::string err;
    auto pe = list_item_element(item, s, &err);
    if (!pe) {
      if (out.error.empty()) out.error = fmt::format("element {}: {}", n, err);
      ++n;
      continue;
    }
    ++n;
    if (out.items.count(*pe)) {
      if (!allow_duplicates && out.error.empty())
        out.error = fmt::format("duplicate entries for key {}", pe->to_string());
      continue;
    }
    out.items.emplace(*pe, &item);
    out.order.push_back(*pe);
  }
  return out;
}

// ---- ToFieldSet ----

void field_set_walk(const json_value& v, const schema_node* s, const path& p, field_set& out,
                    std::string* error) {
  switch (shape_of(s, &v)) {
    case shape::leaf:
      if (!p.empty()) out.insert(p);
      return;
    case shape::map: {
      if (!v.IsObject()) return;
      for (auto& m : v.GetObject()) {
        std::string_view key = k8s::as_string_view(m.name);
        path cp = extend(p, path_element::field(std::string(key)));
        auto cs = child_schema(s, key);
        field_set_walk(m.value, cs.get(), cp, out, error);
        bool declared = s && s->declares(key);
        if (m.value.IsNull() || (m.value.IsObject() && m.value.MemberCount() == 0) || !declared)
          out.insert(cp);
      }
      return;
    }
    case shape::list: {
      if (!v.IsArray()) return;
      auto idx = index_list(&v, *s, false);
      if (!idx.error.empty() && error && error->empty())
        *error = path_to_string(p) + ": " + idx.error;
      auto is = item_schema(s);
      for (const auto& pe : idx.order) {
        path cp = extend(p, pe);
        field_set_walk(*idx.items[pe], is.get(), cp, out, error);
        out.insert(cp);
      }
      return;
    }
  }
}

// ---- Compare ----

void compare_walk(const json_value* lhs, const json_value* rhs, const schema_node* s,
                  const path& p, comparison& out);

void compare_leaf(const json_value* lhs, const json_value* rhs, const path& p, comparison& out) {
  if (!lhs && !rhs) return;
  if (lhs && rhs && k8s::json_equal(*lhs, *rhs)) return;
  if (p.empty()) return;
  if (!lhs)
    out.added.insert(p);
  else if (!rhs)
    out.removed.insert(p);
  else
    out.modified.insert(p);
}

void compare_item(const json_value* lhs, const json_value* rhs, const schema_node* s,
                  const path& cp, comparison& out) {
  compare_walk(lhs, rhs, s, cp, out);
  if (!lhs)
    out.added.insert(cp);
  else if (!rhs)
    out.removed.insert(cp);
}

void compare_walk(const json_value* lhs, const json_value* rhs, const schema_node* s,
                  const path& p, comparison& out) {
  switch (shape_of_pair(s, lhs, rhs)) {
    case shape::leaf:
      compare_leaf(lhs, rhs, p, out);
      return;
    case shape::map: {
      if (is_empty_map(lhs) && is_empty_map(rhs)) {
        compare_leaf(lhs, rhs, p, out);
        return;
      }
      std::set<std::string> seen;
      auto visit = [&](std::string_view key) {
        if (!seen.insert(std::string(key)).second) return;
        const json_value* l = lhs ? k8s::member(*lhs, key) : nullptr;
        const json_value* r = rhs ? k8s::member(*rhs, key) : nullptr;
        auto cs = child_schema(s, key);
        compare_item(l, r, cs.get(), extend(p, path_element::field(std::string(key))), out);
      };
      if (lhs && lhs->IsObject())
        for (auto& m : lhs->GetObject()) visit(k8s::as_string_view(m.name));
      if (rhs && rhs->IsObject())
        for (auto& m : rhs->GetObject()) visit(k8s::as_string_view(m.name));
      return;
    }
    case shape::list: {
      if (is_empty_list(lhs) && is_empty_list(rhs)) {
        compare_leaf(lhs, rhs, p, out);
        return;
      }
      auto li = index_list(lhs, *s, true);
      auto ri = index_list(rhs, *s, true);
      auto is = item_schema(s);
      for (const auto& pe : li.order) {
        auto r = ri.items.find(pe);
        compare_item(li.items[pe], r == ri.items.end() ? nullptr : r->second, is.get(),
                     extend(p, pe), out);
      }
      for (const auto& pe : ri.order)
        if (!li.items.count(pe)) compare_item(nullptr, ri.items[pe], is.get(), extend(p, pe), out);
      return;
    }
  }
}

// ---- Merge ----

json_value merge_walk(const json_value* live, const json_value* config, const schema_node* s,
                      json_allocator& alloc) {
  if (!config) return json_value(*live, alloc);
  switch (shape_of_pair(s, live, config)) {
    case shape::leaf:
      return json_value(*config, alloc);
    case shape::map: {
      if (!config->IsObject()) return json_value(*config, alloc);
      json_value out(rapidjson::kObjectType);
      if (live && live->IsObject()) {
        for (auto& m : live->GetObject()) {
          std::string_view key = k8s::as_string_view(m.name);
          const json_value* c = k8s::member(*config, key);
          if (c && c->IsNull()) continue;
          auto cs = child_schema(s, key);
          out.AddMember(json_value(m.name, alloc), merge_walk(&m.value, c, cs.get(), alloc), alloc);
        }
      }
      for (auto& m : config->GetObject()) {
        std::string_view key = k8s::as_string_view(m.name);
        if (m.value.IsNull() || k8s::member(out, key)) continue;
        auto cs = child_schema(s, key);
        out.AddMember(json_value(m.name, alloc), merge_walk(nullptr, &m.value, cs.get(), alloc),
                      alloc);
      }
      return out;
    }
    case shape::list: {
      if (!config->IsArray()) return json_value(*config, alloc);
      auto li = index_list(live, *s, true);
      auto ri = index_list(config, *s, true);
      auto is = item_schema(s);
      json_value out(rapidjson::kArrayType);
      std::set<path_element> seen;
      auto emit = [&](const path_element& pe, const json_value* l, const json_value* r) {
        if (!seen.insert(pe).second) return;
        out.PushBack(merge_walk(l, r, is.get(), alloc), alloc);
      };
      std::size_t l_len = li.order.size(), r_len = ri.order.size();
      for (std::size_t lI = 0, rI = 0; lI < l_len || rI < r_len;) {
        if (lI < l_len && rI < r_len) {
          const auto& pe = li.order[lI];
          if (pe == ri.order[rI]) {
            emit(pe, li.items[pe], ri.items[pe]);
            ++lI;
            ++rI;
            continue;
          }
          if (!ri.items.count(pe)) {
            emit(pe, li.items[pe], nullptr);
            ++lI;
            continue;
          }
        }
        if (rI < r_len) {
          const auto& pe = ri.order[rI];
          auto l = li.items.find(pe);
          emit(pe, l == li.items.end() ? nullptr : l->second, ri.items[pe]);
          ++rI;
          continue;
        }
        if (lI < l_len) {
          const auto& pe = li.order[lI];
          emit(pe, li.items[pe], nullptr);
          ++lI;
        }
      }
      return out;
    }
  }
  return json_value(*config, alloc);
}

}  // namespace

std::optional<path_element> list_item_element(const json_value& item, const schema_node& list,
                                              std::string* error) {
  if (list.list == list_type::set) return path_element::make_value(k8s::to_json(item));
  if (list.list == list_type::map) {
    std::vector<std::pair<std::string, std::string>> fields;
    for (const auto& k : list.keys) {
      const json_value* v = k8s::member(item, k);
      if (v && !v->IsNull()) {
        fields.emplace_back(k, k8s::to_json(*v));
        continue;
      }
      auto ks = list.items ? list.items->field(k) : nullptr;
      if (ks && !ks->default_json.empty()) {
        fields.emplace_back(k, ks->default_json);
        continue;
      }
      if (error)
        *error = fmt::format(
            "associative list with keys has an element that omits key field \"{}\" (and doesn't "
            "have default value)",
                             k);
      return std::nullopt;
    }
    return path_element::make_key(std::move(fields));
  }
  return std::nullopt;
}

field_set to_field_set(const json_value& v, const schema_ptr& schema, std::string* error) {
  field_set out;
  field_set_walk(v, node_of(schema), {}, out, error);
  return out;
}

comparison compare(const json_value* lhs, const json_value* rhs, const schema_ptr& schema) {
  comparison out;
  compare_walk(lhs, rhs, node_of(schema), {}, out);
  return out;
}

json_value merge(const json_value* live, const json_value* config, const schema_ptr& schema,
                 json_allocator& alloc) {
  if (!live && !config) return json_value(rapidjson::kNullType);
  return merge_walk(live, config, node_of(schema), alloc);
}

bool remove_path(json_value& v, const path& p, const schema_ptr& schema) {
  json_value* cur = &v;
  const schema_node* s = node_of(schema);
  schema_ptr hold = schema;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const path_element& pe = p[i];
    bool last = i + 1 == p.size();
    if (pe.kind == path_element::kind_t::field) {
      if (!cur->IsObject()) return false;
      if (last) return k8s::remove_member(*cur, pe.name);
      json_value* next = k8s::member(*cur, pe.name);
      if (!next) return false;
      hold = child_schema(s, pe.name);
      s = hold.get();
      cur = next;
      continue;
    }
    if (!cur->IsArray()) return false;
    json_value* found = nullptr;
    rapidjson::SizeType found_at = 0;
    for (rapidjson::SizeType k = 0; k < cur->Size(); ++k) {
      json_value& item = (*cur)[k];
      bool match = false;
      if (pe.kind == path_element::kind_t::index) {
        match = static_cast<int>(k) == pe.index;
      } else if (s) {
        auto ipe = list_item_element(item, *s, nullptr);
        match = ipe && *ipe == pe;
      }
      if (match) {
        found = &item;
        found_at = k;
        break;
      }
    }
    if (!found) return false;
    if (last) {
      cur->Erase(cur->Begin() + found_at);
      return true;
    }
    hold = item_schema(s);
    s = hold.get();
    cur = found;
  }
  return false;
}

}  // namespace c5c3::sim::ssa
