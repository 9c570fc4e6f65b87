#include "sim/ssa/strategic_merge.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace c5c3::sim::ssa {

using k8s::json_allocator;
using k8s::json_document;
using k8s::json_value;

namespace {

constexpr std::string_view kPatch = "$patch";
constexpr std::string_view kRetainKeys = "$retainKeys";
constexpr std::string_view kSetElementOrder = "$setElementOrder/";
constexpr std::string_view kDeleteFromPrimitiveList = "$deleteFromPrimitiveList/";

struct context {
  json_allocator& alloc;
  std::optional<strategic_merge_error> error;

  void fail(int code, std::string message) {
    if (!error) error = strategic_merge_error{code, std::move(message)};
  }
};

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool is_directive(std::string_view key) { return !key.empty() && key[0] == '$'; }

std::string_view patch_directive(const json_value& v) {
  const json_value* d = k8s::member(v, kPatch);
  return d && d->IsString() ? k8s::as_string_view(*d) : std::string_view();
}

void merge_map(json_value& orig, const json_value& patch, const schema_node* s, context& cx);

// A value from the patch for a place the original has nothing: directives
// are processed against an empty original.
json_value fresh_value(const json_value& pv, const schema_node* s, context& cx) {
  if (pv.IsObject()) {
    json_value out(rapidjson::kObjectType);
    merge_map(out, pv, s, cx);
    return out;
  }
  if (pv.IsArray()) {
    json_value out(rapidjson::kArrayType);
    const schema_node* is = s ? s->items.get() : nullptr;
    for (auto& item : pv.GetArray()) {
      if (item.IsObject() && !patch_directive(item).empty() && patch_directive(item) != "merge")
        continue;  // $patch: replace/delete entries have nothing to act on
      out.PushBack(fresh_value(item, is, cx), cx.alloc);
    }
    return out;
  }
  return json_value(pv, cx.alloc);
}

// The index of `item` in `list` (by merge key for maps, else by value), or -1.
int index_of(const json_value& list, const json_value& item, const std::string& key) {
  if (!list.IsArray()) return -1;
  for (rapidjson::SizeType i = 0; i < list.Size(); ++i) {
    const json_value& x = list[i];
    if (!key.empty() && item.IsObject()) {
      const json_value* a = k8s::member(x, key);
      const json_value* b = k8s::member(item, key);
      if (a && b && k8s::json_equal(*a, *b)) return static_cast<int>(i);
    } else if (k8s::json_equal(x, item)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// kube's normalizeElementOrder: items named by `order` first in that order,
// interleaved with server-only items by their place in `server_order`.
json_value normalize_order(json_value& merged, const json_value& order,
                           const json_value& server_order, const std::string& key,
                           json_allocator& alloc) {
  std::vector<json_value*> ordered, server_only;
  for (auto& item : merged.GetArray())
    (index_of(order, item, key) >= 0 ? ordered : server_only).push_back(&item);
  std::stable_sort(ordered.begin(), ordered.end(), [&](json_value* a, json_value* b) {
    return index_of(order, *a, key) < index_of(order, *b, key);
  });
  std::stable_sort(server_only.begin(), server_only.end(), [&](json_value* a, json_value* b) {
    return index_of(server_order, *a, key) < index_of(server_order, *b, key);
  });
  json_value out(rapidjson::kArrayType);
  std::size_t i = 0, j = 0;
  while (i < ordered.size() || j < server_only.size()) {
    if (i >= ordered.size()) {
      out.PushBack(std::move(*server_only[j++]), alloc);
    } else if (j >= server_only.size()) {
      out.PushBack(std::move(*ordered[i++]), alloc);
    } else {
      int li = index_of(server_order, *ordered[i], key);
      int ri = index_of(server_order, *server_only[j], key);
      if (li >= 0 && ri >= 0 && li < ri)
        out.PushBack(std::move(*ordered[i++]), alloc);
      else
        out.PushBack(std::move(*server_only[j++]), alloc);
    }
  }
  return out;
}

// Merges patch list `patch` into `orig` (a list with strategy "merge").
json_value merge_list(const json_value* orig, const json_value& patch, const schema_node& s,
                      const json_value* order, context& cx) {
  const std::string& key = s.patch_merge_key;
  const schema_node* is = s.items.get();
  static const json_value empty_list(rapidjson::kArrayType);
  const json_value& server = orig && orig->IsArray() ? *orig : empty_list;

  // {"$patch": "replace"} anywhere in the patch list: the list is the patch.
  for (auto& p : patch.GetArray())
    if (p.IsObject() && patch_directive(p) == "replace") return fresh_value(patch, &s, cx);

  json_value result(server, cx.alloc);
  json_value effective_order(rapidjson::kArrayType);  // the patch items kept
  for (auto& p : patch.GetArray()) {
    if (p.IsObject() && !key.empty()) {
      std::string_view directive = patch_directive(p);
      const json_value* kv = k8s::member(p, key);
      if (!kv) {
        cx.fail(422, fmt::format("map: {} does not contain declared merge key: {}", k8s::to_json(p),
                                 key));
        return result;
      }
      int at = index_of(result, p, key);
      if (directive == "delete") {
        while (at >= 0) {
          result.Erase(result.Begin() + at);
          at = index_of(result, p, key);
        }
        continue;
      }
      if (!directive.empty() && directive != "merge") {
        cx.fail(400, fmt::format("unknown patch type: {} in map: {}", directive, k8s::to_json(p)));
        return result;
      }
      if (at >= 0)
        merge_map(result[static_cast<rapidjson::SizeType>(at)], p, is, cx);
      else
        result.PushBack(fresh_value(p, is, cx), cx.alloc);
      effective_order.PushBack(json_value(p, cx.alloc), cx.alloc);
      continue;
    }
    if (index_of(result, p, "") < 0) result.PushBack(json_value(p, cx.alloc), cx.alloc);
    effective_order.PushBack(json_value(p, cx.alloc), cx.alloc);
  }
  return normalize_order(result, order ? *order : effective_order, server, key, cx.alloc);
}

void merge_map(json_value& orig, const json_value& patch, const schema_node* s, context& cx) {
  if (!orig.IsObject()) orig.SetObject();
  std::string_view directive = patch_directive(patch);
  if (directive == "replace") {
    orig.SetObject();
    for (auto& m : patch.GetObject()) {
      std::string_view k = k8s::as_string_view(m.name);
      if (k == kPatch) continue;
      if (is_directive(k)) continue;
      if (m.value.IsNull()) continue;
      orig.AddMember(json_value(m.name, cx.alloc),
                     fresh_value(m.value, s ? s->field(k).get() : nullptr, cx), cx.alloc);
    }
    return;
  }
  if (directive == "delete") {
    orig.SetObject();
    return;
  }
  if (!directive.empty() && directive != "merge") {
    cx.fail(400, fmt::format("unknown patch type: {} in map: {}", directive, k8s::to_json(patch)));
    return;
  }

  if (const json_value* retain = k8s::member(patch, kRetainKeys)) {
    if (!retain->IsArray()) {
      cx.fail(400, "invalid patch format of retainKeys");
      return;
    }
    auto listed = [&](std::string_view k) {
      for (auto& r : retain->GetArray())
        if (r.IsString() && k8s::as_string_view(r) == k) return true;
      return false;
    };
    // Every field the patch sets must be listed.
    for (auto& m : patch.GetObject()) {
      std::string_view k = k8s::as_string_view(m.name);
      if (is_directive(k) || m.value.IsNull()) continue;
      if (!listed(k)) {
        cx.fail(400, "invalid patch format of retainKeys");
        return;
      }
    }
    std::vector<std::string> drop;
    for (auto& m : orig.GetObject())
      if (!listed(k8s::as_string_view(m.name))) drop.emplace_back(k8s::as_string_view(m.name));
    for (const auto& k : drop) k8s::remove_member(orig, k);
  }

  for (auto& m : patch.GetObject()) {
    std::string_view k = k8s::as_string_view(m.name);
    if (!starts_with(k, kDeleteFromPrimitiveList)) continue;
    if (!m.value.IsArray()) {
      cx.fail(400, "invalid patch format of primitive list");
      return;
    }
    json_value* list = k8s::member(orig, k.substr(kDeleteFromPrimitiveList.size()));
    if (!list || !list->IsArray()) continue;
    for (auto& v : m.value.GetArray()) {
      for (auto it = list->Begin(); it != list->End();) {
        if (k8s::json_equal(*it, v))
          it = list->Erase(it);
        else
          ++it;
      }
    }
  }

  for (auto& m : patch.GetObject()) {
    std::string_view k = k8s::as_string_view(m.name);
    if (is_directive(k)) continue;
    const schema_node* cs = s ? s->field(k).get() : nullptr;
    const json_value& pv = m.value;
    json_value* existing = k8s::member(orig, k);
    if (pv.IsNull()) {
      k8s::remove_member(orig, k);
      continue;
    }
    if (pv.IsObject()) {
      if (patch_directive(pv) == "delete") {
        k8s::remove_member(orig, k);
        continue;
      }
      if (existing && existing->IsObject()) {
        merge_map(*existing, pv, cs, cx);
      } else {
        k8s::set_member(orig, k, fresh_value(pv, cs, cx), cx.alloc);
      }
      continue;
    }
    if (pv.IsArray() && cs && cs->kind == schema_node::kind_t::list && cs->has_strategy("merge")) {
      std::string order_key = std::string(kSetElementOrder) + std::string(k);
      const json_value* order = k8s::member(patch, order_key);
      if (order && !order->IsArray()) {
        cx.fail(400, "invalid patch format of setElementOrder list");
        return;
      }
      json_value merged = merge_list(existing, pv, *cs, order, cx);
      k8s::set_member(orig, k, std::move(merged), cx.alloc);
      continue;
    }
    k8s::set_member(orig, k, fresh_value(pv, cs, cx), cx.alloc);
  }

  // $setElementOrder without a patch list: reorder the original list.
  for (auto& m : patch.GetObject()) {
    std::string_view k = k8s::as_string_view(m.name);
    if (!starts_with(k, kSetElementOrder)) continue;
    std::string_view field = k.substr(kSetElementOrder.size());
    if (k8s::member(patch, field)) continue;
    if (!m.value.IsArray()) {
      cx.fail(400, "invalid patch format of setElementOrder list");
      return;
    }
    json_value* list = k8s::member(orig, field);
    const schema_node* cs = s ? s->field(field).get() : nullptr;
    if (!list || !list->IsArray() || !cs) continue;
    json_value server(*list, cx.alloc);
    json_value reordered = normalize_order(*list, m.value, server, cs->patch_merge_key, cx.alloc);
    *list = std::move(reordered);
  }
}

}  // namespace

std::optional<strategic_merge_error> apply_strategic_merge_patch(json_document& target,
                                                                 const json_value& patch,
                                                                 const type_schema& schema) {
  if (!patch.IsObject())
    return strategic_merge_error{400, "a strategic merge patch must be a JSON object"};
  json_document work = k8s::copy_document(target);
  context cx{work.GetAllocator(), std::nullopt};
  merge_map(work, patch, schema.root.get(), cx);
  if (cx.error) return cx.error;
  target.Swap(work);
  return std::nullopt;
}

}  // namespace c5c3::sim::ssa
