#include "k8s/base64.hpp"

namespace c5c3::k8s {
namespace {

constexpr std::string_view std_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr std::string_view url_alphabet =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

int value_of(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

std::string encode(std::string_view raw, std::string_view alphabet, bool pad) {
  std::string out;
  out.reserve((raw.size() + 2) / 3 * 4);
  auto byte = [&](std::size_t i) { return static_cast<unsigned>(static_cast<unsigned char>(raw[i])); };
  std::size_t i = 0;
  for (; i + 2 < raw.size(); i += 3) {
    unsigned v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    out += {alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63], alphabet[v & 63]};
  }
  if (i + 1 == raw.size()) {
    unsigned v = byte(i) << 16;
    out += {alphabet[v >> 18], alphabet[(v >> 12) & 63]};
    if (pad) out += "==";
  } else if (i + 2 == raw.size()) {
    unsigned v = (byte(i) << 16) | (byte(i + 1) << 8);
    out += {alphabet[v >> 18], alphabet[(v >> 12) & 63], alphabet[(v >> 6) & 63]};
    if (pad) out += '=';
  }
  return out;
}

}  // namespace

std::string base64_encode(std::string_view raw) { return encode(raw, std_alphabet, true); }

std::string base64_raw_url_encode(std::string_view raw) { return encode(raw, url_alphabet, false); }

std::optional<std::string> base64_decode(std::string_view text, std::size_t* bad) {
  std::string t;
  t.reserve(text.size());
  for (char c : text)
    if (c != '\r' && c != '\n') t.push_back(c);
  auto set_bad = [&](std::size_t at) -> std::optional<std::string> {
    if (bad) *bad = at;
    return std::nullopt;
  };
  std::size_t n = t.size();
  for (std::size_t i = 0; i < n; ++i)
    if (value_of(t[i]) < 0 && t[i] != '=') return set_bad(i);
  if (n % 4 != 0) return set_bad(n - n % 4);
  std::string out;
  out.reserve(n / 4 * 3);
  for (std::size_t i = 0; i < n; i += 4) {
    int v[4];
    int pad = 0;
    for (int j = 0; j < 4; ++j) {
      char c = t[i + j];
      if (c == '=' && j >= 2) {
        if (j == 2 && t[i + 3] != '=') return set_bad(i + 2);
        if (i + 4 != n) return set_bad(i + 4);  // data after the padding
        v[j] = 0;
        ++pad;
        continue;
      }
      if (pad) return set_bad(i + j);
      v[j] = value_of(c);
      if (v[j] < 0) return set_bad(i + j);
    }
    unsigned x = (unsigned(v[0]) << 18) | (unsigned(v[1]) << 12) | (unsigned(v[2]) << 6) | unsigned(v[3]);
    out.push_back(static_cast<char>(x >> 16));
    if (pad < 2) out.push_back(static_cast<char>((x >> 8) & 255));
    if (pad < 1) out.push_back(static_cast<char>(x & 255));
  }
  return out;
}

}  // namespace c5c3::k8s
