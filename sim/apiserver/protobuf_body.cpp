#include "sim/apiserver/protobuf_body.hpp"

#include "k8s/base64.hpp"

#include <cstdint>
#include <ctime>
#include <functional>
#include <map>

namespace c5c3::sim {

using k8s::json_document;
using k8s::json_value;

namespace {

struct decode_error {
  std::string what;
};

// One field of a protobuf message: its number and, by wire type, either an
// integer (varint, fixed32, fixed64) or the bytes of a length-delimited value.
struct field {
  std::uint32_t number = 0;
  int wire = 0;
  std::uint64_t integer = 0;
  std::string_view bytes;
};

class reader {
 public:
  explicit reader(std::string_view data) : data_(data) {}
  bool done() const { return at_ >= data_.size(); }

  field next() {
    field f;
    auto key = varint();
    f.number = static_cast<std::uint32_t>(key >> 3);
    f.wire = static_cast<int>(key & 7);
    if (f.number == 0) throw decode_error{"field number 0"};
    switch (f.wire) {
      case 0: f.integer = varint(); break;
      case 1: f.integer = fixed(8); break;
      case 5: f.integer = fixed(4); break;
      case 2: {
        auto n = varint();
        if (n > data_.size() - at_) throw decode_error{"length-delimited field past the end"};
        f.bytes = data_.substr(at_, n);
        at_ += n;
        break;
      }
      default: throw decode_error{"unsupported wire type " + std::to_string(f.wire)};
    }
    return f;
  }

 private:
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at_ >= data_.size()) throw decode_error{"truncated varint"};
      auto b = static_cast<unsigned char>(data_[at_++]);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    throw decode_error{"varint longer than 10 bytes"};
  }
  std::uint64_t fixed(std::size_t n) {
    if (n > data_.size() - at_) throw decode_error{"truncated fixed-width field"};
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i)
      v |= static_cast<std::uint64_t>(static_cast<unsigned char>(data_[at_ + i])) << (8 * i);
    at_ += n;
    return v;
  }

  std::string_view data_;
  std::size_t at_ = 0;
};

// Calls `fn` for every field of `msg`.
void each_field(std::string_view msg, const std::function<void(const field&)>& fn) {
  reader r(msg);
  while (!r.done()) fn(r.next());
}

std::string_view need_bytes(const field& f) {
  if (f.wire != 2) throw decode_error{"field " + std::to_string(f.number) + " is not length-delimited"};
  return f.bytes;
}

class builder {
 public:
  explicit builder(json_document& d) : a_(d.GetAllocator()) {}

  // A default std::string_view has no data pointer, which RapidJSON rejects.
  json_value str(std::string_view s) { return k8s::make_string(s.empty() ? std::string_view("") : s, a_); }
  void set(json_value& obj, std::string_view name, json_value v) {
    k8s::set_member(obj, name.empty() ? std::string_view("") : name, std::move(v), a_);
  }
  // Go's omitempty: empty strings are left out.
  void set_string(json_value& obj, std::string_view name, std::string_view v) {
    if (!v.empty()) set(obj, name, str(v));
  }
  void append(json_value& obj, std::string_view name, json_value v) {
    auto* arr = k8s::member(obj, name);
    if (!arr) {
      set(obj, name, json_value(rapidjson::kArrayType));
      arr = k8s::member(obj, name);
    }
    arr->PushBack(std::move(v), a_);
  }
  // A map<string, string|bytes> entry (key 1, value 2).
  void map_entry(json_value& obj, std::string_view name, std::string_view entry, bool bytes_value) {
    std::string_view key, value;
    each_field(entry, [&](const field& f) {
      if (f.number == 1) key = need_bytes(f);
      if (f.number == 2) value = need_bytes(f);
    });
    auto* m = k8s::member(obj, name);
    if (!m) {
      set(obj, name, json_value(rapidjson::kObjectType));
      m = k8s::member(obj, name);
    }
    set(*m, key, bytes_value ? str(k8s::base64_encode(value)) : str(value));
  }

 private:
  k8s::json_allocator& a_;
};

// metav1.Time {seconds = 1, nanos = 2} as RFC 3339; nullopt for the zero time.
std::optional<std::string> time_of(std::string_view msg) {
  std::int64_t seconds = 0;
  each_field(msg, [&](const field& f) {
    if (f.number == 1) seconds = static_cast<std::int64_t>(f.integer);
  });
  if (seconds == 0) return std::nullopt;
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return std::string(buf);
}

json_value owner_reference(builder& b, std::string_view msg) {
  json_value o(rapidjson::kObjectType);
  each_field(msg, [&](const field& f) {
    switch (f.number) {
      case 1: b.set_string(o, "kind", need_bytes(f)); break;
      case 3: b.set_string(o, "name", need_bytes(f)); break;
      case 4: b.set_string(o, "uid", need_bytes(f)); break;
      case 5: b.set_string(o, "apiVersion", need_bytes(f)); break;
      case 6: b.set(o, "controller", json_value(f.integer != 0)); break;
      case 7: b.set(o, "blockOwnerDeletion", json_value(f.integer != 0)); break;
      default: break;
    }
  });
  return o;
}

json_value object_meta(builder& b, std::string_view msg) {
  json_value md(rapidjson::kObjectType);
  each_field(msg, [&](const field& f) {
    switch (f.number) {
      case 1: b.set_string(md, "name", need_bytes(f)); break;
      case 2: b.set_string(md, "generateName", need_bytes(f)); break;
      case 3: b.set_string(md, "namespace", need_bytes(f)); break;
      case 5: b.set_string(md, "uid", need_bytes(f)); break;
      case 6: b.set_string(md, "resourceVersion", need_bytes(f)); break;
      case 7:
        if (f.integer) b.set(md, "generation", json_value(static_cast<std::int64_t>(f.integer)));
        break;
      case 8:
        if (auto t = time_of(need_bytes(f))) b.set(md, "creationTimestamp", b.str(*t));
        break;
      case 11: b.map_entry(md, "labels", need_bytes(f), false); break;
      case 12: b.map_entry(md, "annotations", need_bytes(f), false); break;
      case 13: b.append(md, "ownerReferences", owner_reference(b, need_bytes(f))); break;
      case 14: b.append(md, "finalizers", b.str(need_bytes(f))); break;
      default: break;  // selfLink, deletion fields, managedFields: the server sets them
    }
  });
  return md;
}

using kind_decoder = void (*)(builder&, json_value&, const field&);

void config_map(builder& b, json_value& o, const field& f) {
  switch (f.number) {
    case 2: b.map_entry(o, "data", need_bytes(f), false); break;
    case 3: b.map_entry(o, "binaryData", need_bytes(f), true); break;
    case 4: b.set(o, "immutable", json_value(f.integer != 0)); break;
    default: break;
  }
}

void secret(builder& b, json_value& o, const field& f) {
  switch (f.number) {
    case 2: b.map_entry(o, "data", need_bytes(f), true); break;
    case 3: b.set_string(o, "type", need_bytes(f)); break;
    case 4: b.map_entry(o, "stringData", need_bytes(f), false); break;
    case 5: b.set(o, "immutable", json_value(f.integer != 0)); break;
    default: break;
  }
}

void namespace_(builder& b, json_value& o, const field& f) {
  if (f.number == 2) {
    json_value spec(rapidjson::kObjectType);
    each_field(need_bytes(f), [&](const field& s) {
      if (s.number == 1) b.append(spec, "finalizers", b.str(need_bytes(s)));
    });
    b.set(o, "spec", std::move(spec));
  } else if (f.number == 3) {
    json_value status(rapidjson::kObjectType);
    each_field(need_bytes(f), [&](const field& s) {
      if (s.number == 1) b.set_string(status, "phase", need_bytes(s));
    });
    b.set(o, "status", std::move(status));
  }
}

void service_account(builder& b, json_value& o, const field& f) {
  if (f.number == 2) {
    json_value ref(rapidjson::kObjectType);
    static const char* names[] = {"", "kind", "namespace", "name", "uid", "apiVersion", "resourceVersion",
                                  "fieldPath"};
    each_field(need_bytes(f), [&](const field& s) {
      if (s.number >= 1 && s.number <= 7) b.set_string(ref, names[s.number], need_bytes(s));
    });
    b.append(o, "secrets", std::move(ref));
  } else if (f.number == 3) {
    json_value ref(rapidjson::kObjectType);
    each_field(need_bytes(f), [&](const field& s) {
      if (s.number == 1) b.set_string(ref, "name", need_bytes(s));
    });
    b.append(o, "imagePullSecrets", std::move(ref));
  } else if (f.number == 4) {
    b.set(o, "automountServiceAccountToken", json_value(f.integer != 0));
  }
}

// intstr.IntOrString {type = 1 (0 int, 1 string), intVal = 2, strVal = 3};
// nullopt for the zero value (the field left out).
std::optional<json_value> int_or_string(builder& b, std::string_view msg) {
  std::uint64_t type = 0, int_val = 0;
  std::string_view str_val;
  each_field(msg, [&](const field& f) {
    if (f.number == 1) type = f.integer;
    if (f.number == 2) int_val = f.integer;
    if (f.number == 3) str_val = need_bytes(f);
  });
  if (type == 1) return str_val.empty() ? std::nullopt : std::optional<json_value>(b.str(str_val));
  if (int_val == 0) return std::nullopt;
  return json_value(static_cast<std::int64_t>(static_cast<std::int32_t>(int_val)));
}

json_value service_port(builder& b, std::string_view msg) {
  json_value p(rapidjson::kObjectType);
  each_field(msg, [&](const field& f) {
    switch (f.number) {
      case 1: b.set_string(p, "name", need_bytes(f)); break;
      case 2: b.set_string(p, "protocol", need_bytes(f)); break;
      case 3: b.set(p, "port", json_value(static_cast<std::int64_t>(static_cast<std::int32_t>(f.integer)))); break;
      case 4:
        if (auto t = int_or_string(b, need_bytes(f))) b.set(p, "targetPort", std::move(*t));
        break;
      case 5:
        if (f.integer) b.set(p, "nodePort", json_value(static_cast<std::int64_t>(f.integer)));
        break;
      case 6: b.set(p, "appProtocol", b.str(need_bytes(f))); break;
      default: break;
    }
  });
  return p;
}

// Service: metadata (1), spec (2); status (3) is the server's.
void service(builder& b, json_value& o, const field& f) {
  if (f.number != 2) return;
  json_value spec(rapidjson::kObjectType);
  each_field(need_bytes(f), [&](const field& s) {
    switch (s.number) {
      case 1: b.append(spec, "ports", service_port(b, need_bytes(s))); break;
      case 2: b.map_entry(spec, "selector", need_bytes(s), false); break;
      case 3: b.set_string(spec, "clusterIP", need_bytes(s)); break;
      case 4: b.set_string(spec, "type", need_bytes(s)); break;
      case 5: b.append(spec, "externalIPs", b.str(need_bytes(s))); break;
      case 7: b.set_string(spec, "sessionAffinity", need_bytes(s)); break;
      case 8: b.set_string(spec, "loadBalancerIP", need_bytes(s)); break;
      case 9: b.append(spec, "loadBalancerSourceRanges", b.str(need_bytes(s))); break;
      case 10: b.set_string(spec, "externalName", need_bytes(s)); break;
      case 11: b.set_string(spec, "externalTrafficPolicy", need_bytes(s)); break;
      case 12:
        if (s.integer) b.set(spec, "healthCheckNodePort", json_value(static_cast<std::int64_t>(s.integer)));
        break;
      case 13:
        if (s.integer) b.set(spec, "publishNotReadyAddresses", json_value(true));
        break;
      case 17: b.set(spec, "ipFamilyPolicy", b.str(need_bytes(s))); break;
      case 18: b.append(spec, "clusterIPs", b.str(need_bytes(s))); break;
      case 19: b.append(spec, "ipFamilies", b.str(need_bytes(s))); break;
      case 20: b.set(spec, "allocateLoadBalancerNodePorts", json_value(s.integer != 0)); break;
      case 21: b.set(spec, "loadBalancerClass", b.str(need_bytes(s))); break;
      case 22: b.set(spec, "internalTrafficPolicy", b.str(need_bytes(s))); break;
      default: break;  // sessionAffinityConfig, trafficDistribution: not decoded
    }
  });
  b.set(o, "spec", std::move(spec));
}

json_value policy_rule(builder& b, std::string_view msg) {
  json_value r(rapidjson::kObjectType);
  static const char* names[] = {"", "verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"};
  each_field(msg, [&](const field& f) {
    if (f.number >= 1 && f.number <= 5) b.append(r, names[f.number], b.str(need_bytes(f)));
  });
  return r;
}

void role(builder& b, json_value& o, const field& f) {
  if (f.number == 2) {
    b.append(o, "rules", policy_rule(b, need_bytes(f)));
  } else if (f.number == 3) {  // ClusterRole aggregationRule: clusterRoleSelectors are not decoded
    b.set(o, "aggregationRule", json_value(rapidjson::kObjectType));
  }
}

void role_binding(builder& b, json_value& o, const field& f) {
  if (f.number == 2) {
    json_value s(rapidjson::kObjectType);
    static const char* names[] = {"", "kind", "apiGroup", "name", "namespace"};
    each_field(need_bytes(f), [&](const field& x) {
      if (x.number >= 1 && x.number <= 4) b.set_string(s, names[x.number], need_bytes(x));
    });
    b.append(o, "subjects", std::move(s));
  } else if (f.number == 3) {
    json_value ref(rapidjson::kObjectType);
    static const char* names[] = {"", "apiGroup", "kind", "name"};
    each_field(need_bytes(f), [&](const field& x) {
      if (x.number >= 1 && x.number <= 3) b.set(ref, names[x.number], b.str(need_bytes(x)));
    });
    b.set(o, "roleRef", std::move(ref));
  }
}

// TokenRequest (kubectl create token): spec {audiences: 1, boundObjectRef: 3
// (not decoded), expirationSeconds: 4}.
void token_request(builder& b, json_value& o, const field& f) {
  if (f.number != 2) return;
  json_value spec(rapidjson::kObjectType);
  each_field(need_bytes(f), [&](const field& s) {
    if (s.number == 1) b.append(spec, "audiences", b.str(need_bytes(s)));
    if (s.number == 4) b.set(spec, "expirationSeconds", json_value(static_cast<std::int64_t>(s.integer)));
  });
  b.set(o, "spec", std::move(spec));
}

// metav1.DeleteOptions, the body of a typed client's DELETE (helm's release
// Secrets): gracePeriodSeconds 1, preconditions 2 {uid 1, resourceVersion 2},
// orphanDependents 3, propagationPolicy 4, dryRun 5. It has no ObjectMeta.
void delete_options(builder& b, json_value& o, std::string_view raw) {
  each_field(raw, [&](const field& f) {
    if (f.number == 1 && f.wire == 0) {
      b.set(o, "gracePeriodSeconds", json_value(static_cast<std::int64_t>(f.integer)));
    } else if (f.number == 2) {
      json_value pre(rapidjson::kObjectType);
      each_field(need_bytes(f), [&](const field& x) {
        if (x.number == 1) b.set_string(pre, "uid", need_bytes(x));
        if (x.number == 2) b.set_string(pre, "resourceVersion", need_bytes(x));
      });
      b.set(o, "preconditions", std::move(pre));
    } else if (f.number == 3 && f.wire == 0) {
      b.set(o, "orphanDependents", json_value(f.integer != 0));
    } else if (f.number == 4) {
      b.set_string(o, "propagationPolicy", need_bytes(f));
    } else if (f.number == 5) {
      b.append(o, "dryRun", b.str(need_bytes(f)));
    }
  });
}

const std::map<std::string, kind_decoder, std::less<>>& decoders() {
  static const std::map<std::string, kind_decoder, std::less<>> m = {
      {"v1/ConfigMap", config_map},
      {"v1/Secret", secret},
      {"v1/Namespace", namespace_},
      {"v1/ServiceAccount", service_account},
      {"v1/Service", service},
      {"rbac.authorization.k8s.io/v1/Role", role},
      {"rbac.authorization.k8s.io/v1/ClusterRole", role},
      {"rbac.authorization.k8s.io/v1/RoleBinding", role_binding},
      {"rbac.authorization.k8s.io/v1/ClusterRoleBinding", role_binding},
      {"authentication.k8s.io/v1/TokenRequest", token_request},
  };
  return m;
}

}  // namespace

protobuf_decode_result decode_protobuf_object(std::string_view body) {
  protobuf_decode_result out;
  static constexpr std::string_view magic("k8s\0", 4);
  if (body.substr(0, 4) != magic) {
    out.error = "provided object does not have the Kubernetes protobuf prefix";
    return out;
  }
  try {
    std::string_view api_version, kind, raw, content_encoding, content_type;
    each_field(body.substr(4), [&](const field& f) {
      if (f.number == 1) {
        each_field(need_bytes(f), [&](const field& t) {
          if (t.number == 1) api_version = need_bytes(t);
          if (t.number == 2) kind = need_bytes(t);
        });
      } else if (f.number == 2) {
        raw = need_bytes(f);
      } else if (f.number == 3) {
        content_encoding = need_bytes(f);
      } else if (f.number == 4) {
        content_type = need_bytes(f);
      }
    });
    if (!content_encoding.empty()) {
      out.error = "unsupported content encoding " + std::string(content_encoding);
      return out;
    }
    std::string key = std::string(api_version) + "/" + std::string(kind);
    auto it = decoders().find(key);
    bool options = kind == "DeleteOptions" && (api_version == "v1" || api_version == "meta.k8s.io/v1");
    if (it == decoders().end() && !options) return out;
    out.known_kind = true;
    json_document d;
    d.SetObject();
    builder b(d);
    b.set(d, "apiVersion", b.str(api_version));
    b.set(d, "kind", b.str(kind));
    if (options) {
      delete_options(b, d, raw);
      out.object = std::move(d);
      return out;
    }
    each_field(raw, [&](const field& f) {
      if (f.number == 1)
        b.set(d, "metadata", object_meta(b, need_bytes(f)));
      else
        it->second(b, d, f);
    });
    out.object = std::move(d);
  } catch (const decode_error& e) {
    out.error = e.what;
    out.object.reset();
  }
  return out;
}

}  // namespace c5c3::sim
