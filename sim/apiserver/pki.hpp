// The emulator's certificates, made with OpenSSL at start: a self-signed CA,
// a serving certificate for 127.0.0.1 / localhost, and client certificates
// (CN = user, O = groups) signed by the CA.
#pragma once

#include <string>
#include <vector>

namespace c5c3::sim {

struct key_pair_pem {
  std::string cert_pem;
  std::string key_pem;
};

// A new self-signed CA (EC P-256), valid ten years.
key_pair_pem make_ca(const std::string& common_name);
// A certificate signed by `ca`. `server`: serverAuth with SANs `dns` and `ips`;
// otherwise clientAuth with subject CN=`cn`, O=each of `orgs`.
key_pair_pem make_signed(const key_pair_pem& ca, const std::string& cn,
                         const std::vector<std::string>& orgs, bool server,
                         const std::vector<std::string>& dns = {},
                         const std::vector<std::string>& ips = {});

// A random token of `bytes` random bytes, hex encoded.
std::string random_hex(std::size_t bytes);

}  // namespace c5c3::sim
