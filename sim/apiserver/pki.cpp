#include "sim/apiserver/pki.hpp"

#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <stdexcept>

namespace c5c3::sim {

namespace {

template <class T, void (*F)(T*)>
struct deleter {
  void operator()(T* p) const { F(p); }
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, deleter<EVP_PKEY, EVP_PKEY_free>>;
using x509_ptr = std::unique_ptr<X509, deleter<X509, X509_free>>;
using bio_ptr = std::unique_ptr<BIO, deleter<BIO, BIO_free_all>>;

[[noreturn]] void fail(const char* what) { throw std::runtime_error(std::string("pki: ") + what); }

pkey_ptr new_key() {
  pkey_ptr k{EVP_EC_gen("P-256")};
  if (!k) fail("cannot generate a key");
  return k;
}

std::string bio_text(BIO* b) {
  char* data = nullptr;
  long n = BIO_get_mem_data(b, &data);
  return std::string(data, static_cast<std::size_t>(n));
}

std::string cert_pem(X509* c) {
  bio_ptr b{BIO_new(BIO_s_mem())};
  PEM_write_bio_X509(b.get(), c);
  return bio_text(b.get());
}

std::string key_pem(EVP_PKEY* k) {
  bio_ptr b{BIO_new(BIO_s_mem())};
  PEM_write_bio_PrivateKey(b.get(), k, nullptr, nullptr, 0, nullptr, nullptr);
  return bio_text(b.get());
}

x509_ptr read_cert(const std::string& pem) {
  bio_ptr b{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
  x509_ptr c{PEM_read_bio_X509(b.get(), nullptr, nullptr, nullptr)};
  if (!c) fail("cannot read the CA certificate");
  return c;
}

pkey_ptr read_key(const std::string& pem) {
  bio_ptr b{BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size()))};
  pkey_ptr k{PEM_read_bio_PrivateKey(b.get(), nullptr, nullptr, nullptr)};
  if (!k) fail("cannot read the CA key");
  return k;
}

void add_ext(X509* cert, X509* issuer, int nid, const std::string& value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
  if (!ext) fail("cannot make a certificate extension");
  X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
}

x509_ptr new_cert(EVP_PKEY* key, long days) {
  x509_ptr c{X509_new()};
  X509_set_version(c.get(), 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f;
  BIGNUM* bn = BN_bin2bn(serial, sizeof serial, nullptr);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c.get()));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(c.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(c.get()), days * 24 * 3600);
  X509_set_pubkey(c.get(), key);
  return c;
}

void add_name(X509_NAME* n, const char* field, const std::string& v) {
  X509_NAME_add_entry_by_txt(n, field, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(v.c_str()),
                             -1, -1, 0);
}

}  // namespace

key_pair_pem make_ca(const std::string& common_name) {
  auto key = new_key();
  auto cert = new_cert(key.get(), 3650);
  X509_NAME* name = X509_get_subject_name(cert.get());
  add_name(name, "CN", common_name);
  X509_set_issuer_name(cert.get(), name);
  add_ext(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE");
  add_ext(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
  add_ext(cert.get(), cert.get(), NID_subject_key_identifier, "hash");
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) fail("cannot sign the CA");
  return {cert_pem(cert.get()), key_pem(key.get())};
}

key_pair_pem make_signed(const key_pair_pem& ca, const std::string& cn,
                         const std::vector<std::string>& orgs, bool server,
                         const std::vector<std::string>& dns, const std::vector<std::string>& ips) {
  auto ca_cert = read_cert(ca.cert_pem);
  auto ca_key = read_key(ca.key_pem);
  auto key = new_key();
  auto cert = new_cert(key.get(), server ? 3650 : 365);
  X509_NAME* name = X509_get_subject_name(cert.get());
  for (const auto& o : orgs) add_name(name, "O", o);
  add_name(name, "CN", cn);
  X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get()));
  add_ext(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE");
  add_ext(cert.get(), ca_cert.get(), NID_key_usage, "critical,digitalSignature,keyEncipherment");
  add_ext(cert.get(), ca_cert.get(), NID_ext_key_usage, server ? "serverAuth" : "clientAuth");
  add_ext(cert.get(), ca_cert.get(), NID_authority_key_identifier, "keyid:always");
  if (server) {
    std::string san;
    for (const auto& d : dns) san += (san.empty() ? "" : ",") + std::string("DNS:") + d;
    for (const auto& i : ips) san += (san.empty() ? "" : ",") + std::string("IP:") + i;
    if (!san.empty()) add_ext(cert.get(), ca_cert.get(), NID_subject_alt_name, san);
  }
  if (X509_sign(cert.get(), ca_key.get(), EVP_sha256()) == 0) fail("cannot sign a certificate");
  return {cert_pem(cert.get()), key_pem(key.get())};
}

std::string random_hex(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1)
    fail("no randomness");
  static const char* hex = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out.push_back(hex[c >> 4]);
    out.push_back(hex[c & 15]);
  }
  return out;
}

}  // namespace c5c3::sim
