#include "k8s/yaml.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

namespace c5c3::k8s {
namespace {

bool is_one_of(const std::string& s, std::initializer_list<const char*> set) {
  for (auto* x : set)
    if (s == x) return true;
  return false;
}

// A plain (unquoted) scalar, resolved as YAML 1.1 does in go-yaml v2.
json_value resolve_plain(const std::string& s, json_allocator& alloc) {
  if (s.empty() || is_one_of(s, {"~", "null", "Null", "NULL"})) return json_value();
  if (is_one_of(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y"}))
    return json_value(true);
  if (is_one_of(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N"}))
    return json_value(false);
  // Integers: decimal, 0x hex, 0o / leading-0 octal, optional sign and underscores.
  {
    std::string t;
    for (char c : s)
      if (c != '_') t.push_back(c);
    const char* p = t.c_str();
    bool neg = false;
    if (*p == '+' || *p == '-') {
      neg = *p == '-';
      ++p;
    }
    int base = 10;
    std::string digits = p;
    if (digits.rfind("0x", 0) == 0) {
      base = 16;
      digits = digits.substr(2);
    } else if (digits.rfind("0o", 0) == 0) {
      base = 8;
      digits = digits.substr(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
      base = 8;
      digits = digits.substr(1);
    }
    if (!digits.empty() && digits.find_first_not_of(base == 16   ? "0123456789abcdefABCDEF"
                                                    : base == 8 ? "01234567"
                                                                : "0123456789") ==
                               std::string::npos) {
      errno = 0;
      unsigned long long v = std::strtoull(digits.c_str(), nullptr, base);
      if (errno == 0) {
        if (!neg && v <= static_cast<unsigned long long>(INT64_MAX))
          return json_value(static_cast<int64_t>(v));
        if (!neg) return json_value(static_cast<uint64_t>(v));
        if (v <= static_cast<unsigned long long>(INT64_MAX) + 1ull)
          return json_value(static_cast<int64_t>(0 - v));
      }
    }
  }
  // Floats.
  if (is_one_of(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}))
    return json_value(HUGE_VAL);
  if (is_one_of(s, {"-.inf", "-.Inf", "-.INF"})) return json_value(-HUGE_VAL);
  if (s.find_first_of("0123456789") != std::string::npos &&
      s.find_first_not_of("0123456789+-.eE_") == std::string::npos) {
    std::string t;
    for (char c : s)
      if (c != '_') t.push_back(c);
    char* end = nullptr;
    double d = std::strtod(t.c_str(), &end);
    if (end && *end == '\0') return json_value(d);
  }
  return make_string(s, alloc);
}

struct yaml_refused {
  std::string why;
};

// YAML to JSON, refusing what would not end: an alias inside the node it
// names (yaml-cpp hands it over as a cycle), nesting past max_json_depth, and
// aliases multiplying the document past `budget` nodes ("billion laughs").
struct yaml_converter {
  json_allocator& alloc;
  std::size_t budget;
  std::vector<YAML::Node> path;

  json_value convert(const YAML::Node& n) {
    if (budget == 0) throw yaml_refused{"the document contains excessive aliasing"};
    --budget;
    if (n.IsSequence() || n.IsMap()) {
      for (const auto& p : path)
        if (p.is(n)) throw yaml_refused{"an anchor's value contains itself"};
      if (path.size() >= max_json_depth)
        throw yaml_refused{fmt::format("nested deeper than {} levels", max_json_depth)};
    }
    switch (n.Type()) {
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        return json_value();
      case YAML::NodeType::Scalar:
        if (n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str") return make_string(n.Scalar(), alloc);
        if (n.Tag() == "?" || n.Tag().empty()) {
          json_value v = resolve_plain(n.Scalar(), alloc);
          // sigs.k8s.io/yaml goes through encoding/json, which has no infinities.
          if (v.IsDouble() && !std::isfinite(v.GetDouble()))
            throw yaml_refused{v.GetDouble() > 0 ? "json: unsupported value: +Inf" : "json: unsupported value: -Inf"};
          return v;
        }
        return make_string(n.Scalar(), alloc);
      case YAML::NodeType::Sequence: {
        path.push_back(n);
        json_value arr(rapidjson::kArrayType);
        for (const auto& item : n) arr.PushBack(convert(item), alloc);
        path.pop_back();
        return arr;
      }
      case YAML::NodeType::Map: {
        path.push_back(n);
        json_value obj(rapidjson::kObjectType);
        for (const auto& kv : n) {
          std::string key = kv.first.Scalar();
          json_value v = convert(kv.second);
          set_member(obj, key, std::move(v), alloc);
        }
        path.pop_back();
        return obj;
      }
    }
    return json_value();
  }
};

void emit(YAML::Emitter& out, const json_value& v);

void emit_string(YAML::Emitter& out, std::string_view s) {
  json_document probe;
  std::string str(s);
  json_value resolved = resolve_plain(str, probe.GetAllocator());
  bool needs_quotes = !resolved.IsString() || str.empty() ||
                      str.find_first_of(":#{}[],&*!|>'\"%@`\n") != std::string::npos ||
                      str.front() == ' ' || str.back() == ' ' || str.front() == '-' ||
                      str.front() == '?';
  if (needs_quotes) out << YAML::DoubleQuoted << str;
  else out << str;
}

void emit(YAML::Emitter& out, const json_value& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      out << YAML::Null;
      break;
    case rapidjson::kFalseType:
      out << false;
      break;
    case rapidjson::kTrueType:
      out << true;
      break;
    case rapidjson::kStringType:
      emit_string(out, as_string_view(v));
      break;
    case rapidjson::kNumberType:
      if (v.IsInt64()) out << v.GetInt64();
      else if (v.IsUint64()) out << v.GetUint64();
      else out << v.GetDouble();
      break;
    case rapidjson::kArrayType:
      if (v.Empty()) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        break;
      }
      out << YAML::BeginSeq;
      for (auto& item : v.GetArray()) emit(out, item);
      out << YAML::EndSeq;
      break;
    case rapidjson::kObjectType:
      if (v.MemberCount() == 0) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        break;
      }
      out << YAML::BeginMap;
      for (auto& m : v.GetObject()) {
        out << YAML::Key;
        emit_string(out, as_string_view(m.name));
        out << YAML::Value;
        emit(out, m.value);
      }
      out << YAML::EndMap;
      break;
  }
}

}  // namespace

std::optional<json_document> yaml_to_json(std::string_view text, std::string* error) {
  auto docs = yaml_documents_to_json(text, error);
  if (!docs) return std::nullopt;
  if (docs->empty()) {
    json_document d;  // an empty document reads as null
    return d;
  }
  if (docs->size() > 1) {
    if (error) *error = "expected one YAML document, found several";
    return std::nullopt;
  }
  return std::move(docs->front());
}

namespace {

// yaml-cpp 0.7's LoadAll never returns when a document's node is followed
// by a token no node starts with (`,` after a quoted scalar, a flow collection
// or a tag: `"x",`, `[a], b`, `!t "x",`, found by fuzzing): the parser makes
// an empty document of it without consuming the token, again and again. A
// first pass through the event parser sees that as a document starting where
// the previous one started, and refuses the text there; the same pass
// reports the parser's own errors.
std::string invalid_at(const YAML::Mark& at, std::string_view what) {
  return fmt::format("invalid YAML at line {}, column {}: {}", at.line + 1, at.column + 1, what);
}

struct yaml_stuck {
  YAML::Mark at;
};

struct progress_check : YAML::EventHandler {
  int last = -1;
  void OnDocumentStart(const YAML::Mark& m) override {
    if (m.pos == last) throw yaml_stuck{m};
    last = m.pos;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

std::optional<std::string> first_pass_error(const std::string& text) {
  try {
    std::istringstream in(text);
    YAML::Parser parser(in);
    progress_check check;
    while (parser.HandleNextDocument(check)) {
    }
  } catch (const yaml_stuck& e) {
    auto pos = static_cast<std::size_t>(e.at.pos);
    auto what = pos < text.size() ? fmt::format("'{}'", text[pos]) : std::string("token");
    return invalid_at(e.at, "unexpected " + what);
  } catch (const YAML::Exception& e) {
    // Reported here: LoadAll skips some of these ("- [1]," gave no document).
    return invalid_at(e.mark, e.msg);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::vector<json_document>> yaml_documents_to_json(std::string_view text,
                                                                 std::string* error) {
  std::vector<json_document> out;
  std::string owned(text);
  if (auto why = first_pass_error(owned)) {
    if (error) *error = *why;
    return std::nullopt;
  }
  try {
    for (const auto& node : YAML::LoadAll(owned)) {
      if (node.IsNull() || !node.IsDefined()) continue;
      json_document d;
      yaml_converter c{d.GetAllocator(), 10 * text.size() + 10000, {}};
      json_value v = c.convert(node);
      static_cast<json_value&>(d).Swap(v);
      out.push_back(std::move(d));
    }
  } catch (const yaml_refused& e) {
    if (error) *error = "invalid YAML: " + e.why;
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    if (error) *error = invalid_at(e.mark, e.msg);
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<json_document>> read_yaml_file(const std::string& path,
                                                         std::string* error) {
  std::ifstream in(path);
  if (!in) {
    if (error) *error = fmt::format("cannot read {}", path);
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string err;
  auto docs = yaml_documents_to_json(ss.str(), &err);
  if (!docs && error) *error = fmt::format("{}: {}", path, err);
  return docs;
}

std::string json_to_yaml(const json_value& v) {
  YAML::Emitter out;
  emit(out, v);
  std::string s = out.c_str();
  if (s.empty() || s.back() != '\n') s.push_back('\n');
  return s;
}

}  // namespace c5c3::k8s
