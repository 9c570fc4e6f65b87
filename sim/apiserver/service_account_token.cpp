// ServiceAccount tokens: an HS256 JWT with kube's claims (see the header).
#include "sim/apiserver/service_account_token.hpp"

#include "k8s/base64.hpp"
#include "k8s/json.hpp"
#include "sim/apiserver/rbac.hpp"

#include <fmt/format.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

#include <array>

namespace c5c3::sim {

namespace {

std::string hmac_sha256(std::string_view key, std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out.data(), &len);
  return std::string(reinterpret_cast<const char*>(out.data()), len);
}

// RawURLEncoding, strictly: the URL alphabet, no padding.
std::optional<std::string> raw_url_decode(std::string_view s) {
  std::string t;
  t.reserve(s.size() + 3);
  for (char c : s) {
    if (c == '+' || c == '/' || c == '=') return std::nullopt;
    t.push_back(c == '-' ? '+' : c == '_' ? '/' : c);
  }
  if (t.size() % 4 == 1) return std::nullopt;
  while (t.size() % 4) t.push_back('=');
  return k8s::base64_decode(t);
}

std::string random_jti() {
  std::array<unsigned char, 16> b{};
  RAND_bytes(b.data(), static_cast<int>(b.size()));
  b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40);
  b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80);
  std::string hex;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) hex += '-';
    hex += fmt::format("{:02x}", b[i]);
  }
  return hex;
}

constexpr std::string_view header = R"({"alg":"HS256","kid":"c5c3-sim","typ":"JWT"})";

}  // namespace

std::string service_account_signing_key(std::string_view secret) {
  std::string material = "c5c3-sim service account signing key\n" + std::string(secret);
  std::array<unsigned char, SHA256_DIGEST_LENGTH> sum{};
  SHA256(reinterpret_cast<const unsigned char*>(material.data()), material.size(), sum.data());
  return std::string(reinterpret_cast<const char*>(sum.data()), sum.size());
}

std::string issue_service_account_token(std::string_view key, const service_account_claims& c) {
  k8s::json_document d(rapidjson::kObjectType);
  auto& a = d.GetAllocator();
  k8s::json_value aud(rapidjson::kArrayType);
  for (const auto& s : c.audiences) aud.PushBack(k8s::make_string(s, a), a);
  d.AddMember("aud", aud, a);
  d.AddMember("exp", c.expires_at, a);
  d.AddMember("iat", c.issued_at, a);
  d.AddMember("iss", k8s::make_string(service_account_issuer, a), a);
  d.AddMember("jti", k8s::make_string(random_jti(), a), a);
  k8s::json_value sa(rapidjson::kObjectType);
  sa.AddMember("name", k8s::make_string(c.name, a), a);
  sa.AddMember("uid", k8s::make_string(c.uid, a), a);
  k8s::json_value kio(rapidjson::kObjectType);
  kio.AddMember("namespace", k8s::make_string(c.namespace_, a), a);
  kio.AddMember("serviceaccount", sa, a);
  d.AddMember("kubernetes.io", kio, a);
  d.AddMember("nbf", c.issued_at, a);
  d.AddMember("sub", k8s::make_string(rbac::service_account_user(c.namespace_, c.name), a), a);
  std::string signing_input = k8s::base64_raw_url_encode(header) + "." + k8s::base64_raw_url_encode(k8s::to_json(d));
  return signing_input + "." + k8s::base64_raw_url_encode(hmac_sha256(key, signing_input));
}

std::optional<service_account_claims> verify_service_account_token(std::string_view key,
                                                                   std::string_view token,
                                                                   std::int64_t now) {
  auto dot1 = token.find('.');
  if (dot1 == std::string_view::npos) return std::nullopt;
  auto dot2 = token.find('.', dot1 + 1);
  if (dot2 == std::string_view::npos || token.find('.', dot2 + 1) != std::string_view::npos) return std::nullopt;
  auto signing_input = token.substr(0, dot2);
  auto sig = raw_url_decode(token.substr(dot2 + 1));
  if (!sig) return std::nullopt;
  auto want = hmac_sha256(key, signing_input);
  if (sig->size() != want.size() || CRYPTO_memcmp(sig->data(), want.data(), want.size()) != 0) return std::nullopt;
  auto payload = raw_url_decode(token.substr(dot1 + 1, dot2 - dot1 - 1));
  if (!payload) return std::nullopt;
  auto d = k8s::parse_json(*payload);
  if (!d || !d->IsObject()) return std::nullopt;
  service_account_claims c;
  c.namespace_ = k8s::get_string(*d, {"kubernetes.io", "namespace"});
  c.name = k8s::get_string(*d, {"kubernetes.io", "serviceaccount", "name"});
  c.uid = k8s::get_string(*d, {"kubernetes.io", "serviceaccount", "uid"});
  c.issued_at = k8s::get_int(*d, {"iat"}).value_or(0);
  c.expires_at = k8s::get_int(*d, {"exp"}).value_or(0);
  auto nbf = k8s::get_int(*d, {"nbf"}).value_or(0);
  if (const auto* aud = k8s::member(*d, "aud"); aud && aud->IsArray())
    for (const auto& v : aud->GetArray())
      if (v.IsString()) c.audiences.emplace_back(k8s::as_string_view(v));
  bool for_us = false;
  for (const auto& a : c.audiences) for_us |= a == service_account_issuer;
  if (c.namespace_.empty() || c.name.empty() || c.uid.empty() || !for_us) return std::nullopt;
  if (k8s::get_string(*d, {"iss"}) != service_account_issuer) return std::nullopt;
  if (k8s::get_string(*d, {"sub"}) != rbac::service_account_user(c.namespace_, c.name)) return std::nullopt;
  if (now >= c.expires_at || now < nbf) return std::nullopt;
  return c;
}

}  // namespace c5c3::sim
