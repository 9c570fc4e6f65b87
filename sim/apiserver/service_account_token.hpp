// ServiceAccount tokens as the emulator issues them (TokenRequest,
// `POST .../serviceaccounts/NAME/token`, what `kubectl create token` sends) and
// accepts them: a JWT with kube's claims (iss, sub, aud, exp, iat, nbf, jti and
// kubernetes.io {namespace, serviceaccount {name, uid}}), signed with HMAC-SHA256
// under a key derived from the emulator's persisted admin token, so tokens
// survive a restart with --data-dir. Unlike kube-apiserver (RS256 with the
// service account key), a client cannot verify the signature; none needs to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::sim {

// kube-apiserver's default --service-account-issuer and API audience.
inline constexpr std::string_view service_account_issuer = "https://kubernetes.default.svc.cluster.local";

struct service_account_claims {
  std::string namespace_;
  std::string name;
  std::string uid;  // the ServiceAccount's uid: the token dies with it
  std::vector<std::string> audiences;
  std::int64_t issued_at = 0;   // seconds since the epoch
  std::int64_t expires_at = 0;  // seconds since the epoch
};

// The signing key for `secret` (the admin token).
std::string service_account_signing_key(std::string_view secret);

std::string issue_service_account_token(std::string_view key, const service_account_claims& c);

// The claims of a token this key signed, unexpired at `now` and meant for the
// API server's audience; nullopt otherwise (not a JWT, bad signature, expired,
// not yet valid, wrong issuer or audience, missing claims).
std::optional<service_account_claims> verify_service_account_token(std::string_view key,
                                                                   std::string_view token,
                                                                   std::int64_t now);

}  // namespace c5c3::sim
