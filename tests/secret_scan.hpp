// Does a secret value reach text a test captured (log lines, /metrics,
// conditions, events)? Give the scanner every value the test knows to be
// secret; it also looks for their usual encodings (base64 with and without
// padding, base64url, percent-escaping as in a URL (and as Go escapes a
// userinfo), JSON string escaping), so a value that was encoded on its way out is found too.
//
//   c5c3::testing::secret_scan scan;
//   scan.add(password, "password-v1");
//   scan.add_secret(delivered);                 // its secret keys' values
//   auto found = scan.scan(log_text, "log");
//   BOOST_TEST(found.empty(), c5c3::testing::secret_scan::report(found));
#pragma once

#include "k8s/base64.hpp"
#include "k8s/client/paths.hpp"
#include "k8s/log.hpp"
#include "k8s/object.hpp"

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::testing {

class secret_scan {
 public:
  struct finding {
    std::string label;    // which secret
    std::string where;    // which text
    std::string context;  // the text around it, with the value itself masked
  };

  // Values shorter than this are not searched (ports, "true"): they would
  // match by chance. Generated passwords and tokens are far longer.
  static constexpr std::size_t min_length = 8;

  void add(std::string_view value, std::string label = "secret") {
    if (value.size() < min_length) return;
    std::string v(value);
    for (auto form : {v, k8s::base64_encode(v), raw(k8s::base64_encode(v)), url(k8s::base64_encode(v)),
                      url(raw(k8s::base64_encode(v))), percent(v, ""), percent(v, "$&+,;="), json(v)})
      if (form.size() >= min_length) needles_.push_back({form, label});
  }

  // The values of a Secret's keys that hold secrets (password, token,
  // transport_url, connection_string, value, client-key-data, ...; a
  // kubeconfig's tokens, passwords and key data).
  void add_secret(const k8s::object& secret) {
    const auto label = "Secret " + secret.key().to_string();
    const auto* data = secret.get({"data"});
    if (data && data->IsObject()) {
      for (auto m = data->MemberBegin(); m != data->MemberEnd(); ++m) {
        std::string key(m->name.GetString(), m->name.GetStringLength());
        if (!m->value.IsString()) continue;
        auto decoded = k8s::base64_decode(std::string_view(m->value.GetString(), m->value.GetStringLength()));
        if (!decoded) continue;
        if (key == "kubeconfig")
          add_kubeconfig(*decoded, label + " kubeconfig");
        else if (secret_key(key))
          add(*decoded, label + " " + key);
      }
    }
  }

  // token:, password:, client-key-data: and the like of a kubeconfig.
  void add_kubeconfig(std::string_view text, const std::string& label) {
    std::size_t at = 0;
    while (at < text.size()) {
      auto end = text.find('\n', at);
      auto line = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
      at = end == std::string_view::npos ? text.size() : end + 1;
      auto colon = line.find(':');
      if (colon == std::string_view::npos) continue;
      auto key = trim(line.substr(0, colon));
      if (!key.empty() && key.front() == '-') key = trim(key.substr(1));
      if (key == "token" || key == "password" || key == "client-key-data")
        add(unquote(trim(line.substr(colon + 1))), label + " " + std::string(key));
    }
  }

  std::vector<finding> scan(std::string_view text, std::string_view where) const {
    std::vector<finding> out;
    std::set<std::string> seen;
    for (const auto& n : needles_) {
      auto at = text.find(n.value);
      if (at == std::string_view::npos || !seen.insert(n.label).second) continue;
      auto from = at > 40 ? at - 40 : 0;
      std::string context(text.substr(from, at - from));
      context += "<" + n.label + ">";
      context += text.substr(at + n.value.size(), 40);
      out.push_back({n.label, std::string(where), context});
    }
    return out;
  }

  std::size_t size() const { return needles_.size(); }

  static std::string report(const std::vector<finding>& found) {
    std::string out;
    for (const auto& f : found) out += f.label + " in " + f.where + ": ..." + f.context + "...\n";
    return out;
  }

 private:
  struct needle {
    std::string value;
    std::string label;
  };

  static bool secret_key(const std::string& key) {
    for (const char* k : {"password", "token", "transport_url", "connection_string", "value", "secret",
                          "client-key-data", "tls.key", "private", "credentials"})
      if (key.find(k) != std::string::npos) return true;
    return false;
  }
  static std::string raw(std::string s) {
    while (!s.empty() && s.back() == '=') s.pop_back();
    return s;
  }
  static std::string url(std::string s) {
    for (auto& c : s) c = c == '+' ? '-' : c == '/' ? '_' : c;
    return s;
  }
  // Percent-escaping of all but the unreserved characters and `also`
  // (Go's url.UserPassword keeps "$&+,;=").
  static std::string percent(std::string_view s, std::string_view also) {
    std::string out = k8s::query_escape(s);
    for (char c : also) {
      static constexpr char hex[] = "0123456789ABCDEF";
      const std::string escaped{'%', hex[static_cast<unsigned char>(c) >> 4], hex[c & 15]};
      for (auto at = out.find(escaped); at != std::string::npos; at = out.find(escaped, at + 1))
        out.replace(at, escaped.size(), 1, c);
    }
    return out;
  }
  static std::string json(std::string_view s) {
    std::string out;
    k8s::log::append_json_string(out, s);
    return out.substr(1, out.size() - 2);
  }
  static std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
  }
  static std::string_view unquote(std::string_view s) {
    if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front())
      return s.substr(1, s.size() - 2);
    return s;
  }

  std::vector<needle> needles_;
};

}  // namespace c5c3::testing
