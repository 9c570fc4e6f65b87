#include "k8s/time.hpp"

#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <ctime>

namespace c5c3::k8s {
namespace {

// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

bool digits(std::string_view s, std::size_t pos, std::size_t n, int& out) {
  if (pos + n > s.size()) return false;
  out = 0;
  for (std::size_t i = pos; i < pos + n; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

}  // namespace

std::string format_rfc3339(time_point t) {
  std::time_t tt = clock::to_time_t(std::chrono::floor<std::chrono::seconds>(t));
  std::tm tm{};
  gmtime_r(&tt, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::optional<time_point> parse_rfc3339(std::string_view s) {
  int y, mo, d, h, mi, se;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) ||
      s[7] != '-' || !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't') ||
      !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) || s[16] != ':' ||
      !digits(s, 17, 2, se))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return std::nullopt;
  std::size_t pos = 19;
  std::chrono::nanoseconds frac{0};
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    std::int64_t scale = 100000000, ns = 0;
    std::size_t start = pos;
    while (pos < s.size() && std::isdigit(static_cast<unsigned char>(s[pos]))) {
      if (scale > 0) ns += (s[pos] - '0') * scale;
      scale /= 10;
      ++pos;
    }
    if (pos == start) return std::nullopt;
    frac = std::chrono::nanoseconds(ns);
  }
  if (pos >= s.size()) return std::nullopt;
  std::int64_t offset = 0;
  if (s[pos] == 'Z' || s[pos] == 'z') {
    ++pos;
  } else if (s[pos] == '+' || s[pos] == '-') {
    int oh, om;
    if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' ||
        !digits(s, pos + 4, 2, om))
      return std::nullopt;
    offset = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;
  }
  if (pos != s.size()) return std::nullopt;
  std::int64_t secs = days_from_civil(y, static_cast<unsigned>(mo), static_cast<unsigned>(d)) *
                          86400 +
                      h * 3600 + mi * 60 + se - offset;
  // A time_point holds 1677..2262 (int64 nanoseconds); Go's times reach year
  // 9999. Past either end the nearest representable instant stands in.
  constexpr auto limit = std::chrono::duration_cast<std::chrono::seconds>(clock::duration::max()).count() - 1;
  if (secs >= limit) return time_point::max();
  if (secs <= -limit) return time_point::min();
  return time_point(std::chrono::duration_cast<clock::duration>(std::chrono::seconds(secs) + frac));
}

std::optional<std::chrono::nanoseconds> parse_go_duration(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool neg = false;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return std::chrono::nanoseconds(0);
  if (s.empty()) return std::nullopt;
  long double total = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    long double value = 0;
    bool any = false;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      value = value * 10 + (s[i] - '0');
      ++i;
      any = true;
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      long double scale = 0.1L;
      while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
        value += (s[i] - '0') * scale;
        scale /= 10;
        ++i;
        any = true;
      }
    }
    if (!any) return std::nullopt;
    std::size_t u = i;
    while (u < s.size() && !std::isdigit(static_cast<unsigned char>(s[u])) && s[u] != '.') ++u;
    std::string_view unit = s.substr(i, u - i);
    long double mult;
    if (unit == "ns") mult = 1;
    else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs") mult = 1e3L;
    else if (unit == "ms") mult = 1e6L;
    else if (unit == "s") mult = 1e9L;
    else if (unit == "m") mult = 60e9L;
    else if (unit == "h") mult = 3600e9L;
    else return std::nullopt;
    total += value * mult;
    if (total > 9.2e18L) return std::nullopt;  // overflows int64 nanoseconds
    s.remove_prefix(u);
  }
  auto ns = static_cast<std::int64_t>(std::llround(static_cast<double>(total)));
  return std::chrono::nanoseconds(neg ? -ns : ns);
}

std::string format_go_duration(std::chrono::nanoseconds d) {
  std::int64_t ns = d.count();
  if (ns == 0) return "0s";
  std::string sign = ns < 0 ? "-" : "";
  std::uint64_t u = ns < 0 ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
  auto frac_str = [](std::uint64_t v, std::uint64_t unit, int digits_n) {
    std::uint64_t whole = v / unit, frac = v % unit;
    std::string out = std::to_string(whole);
    if (frac) {
      std::string f = fmt::format("{:0{}}", frac, digits_n);
      while (!f.empty() && f.back() == '0') f.pop_back();
      out += "." + f;
    }
    return out;
  };
  if (u < 1000ull) return sign + std::to_string(u) + "ns";
  if (u < 1000000ull) return sign + frac_str(u, 1000ull, 3) + "\xc2\xb5s";
  if (u < 1000000000ull) return sign + frac_str(u, 1000000ull, 6) + "ms";
  std::uint64_t h = u / 3600000000000ull;
  u -= h * 3600000000000ull;
  std::uint64_t m = u / 60000000000ull;
  u -= m * 60000000000ull;
  std::string out = sign;
  if (h) out += std::to_string(h) + "h";
  if (h || m) out += std::to_string(m) + "m";
  out += frac_str(u, 1000000000ull, 9) + "s";
  return out;
}

}  // namespace c5c3::k8s
