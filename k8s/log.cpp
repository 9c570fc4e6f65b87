#include "k8s/log.hpp"

#include "k8s/object.hpp"

#include <fmt/format.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace c5c3::k8s::log {

namespace {

constexpr char hex_digits[] = "0123456789abcdef";

// Length of the valid UTF-8 sequence at s[i], 0 when invalid.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) n = 2, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0) n = 3, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return n;
}

const char* level_text(level l) {
  switch (l) {
    case level::debug: return "debug";
    case level::info: return "info";
    case level::warn: return "warn";
    case level::error: return "error";
  }
  return "info";
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      std::size_t n = utf8_sequence(s, i);
      if (n == 0) {
        out += "\\ufffd";
        ++i;
      } else {
        out.append(s.substr(i, n));
        i += n;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += "\\u00";
          out += hex_digits[c >> 4];
          out += hex_digits[c & 0xF];
        } else {
          out += static_cast<char>(c);
        }
    }
    ++i;
  }
  out += '"';
}

std::string format_timestamp(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  auto ms = duration_cast<milliseconds>(t.time_since_epoch()).count();
  auto secs = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  auto milli = static_cast<int>(ms - static_cast<long long>(secs) * 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
                     tm.tm_hour, tm.tm_min, tm.tm_sec, milli);
}

object_ref ref(const k8s::object& o) { return ref(o.kind(), o.namespace_(), o.name()); }

object_ref ref(std::string_view kind, std::string_view namespace_, std::string_view name) {
  return object_ref{std::string(kind), std::string(namespace_), std::string(name)};
}

void value::append_json(std::string& out) const {
  switch (type_) {
    case type::null: out += "null"; return;
    case type::string: append_json_string(out, s_); return;
    case type::integer: out += fmt::format("{}", i_); return;
    case type::unsigned_integer: out += fmt::format("{}", u_); return;
    case type::boolean: out += b_ ? "true" : "false"; return;
    case type::floating:
      // zap writes NaN and infinities as strings; JSON has no such numbers.
      if (std::isnan(d_)) out += "\"NaN\"";
      else if (std::isinf(d_)) out += d_ > 0 ? "\"+Inf\"" : "\"-Inf\"";
      else out += fmt::format("{}", d_);
      return;
    case type::ref: {
      out += '{';
      bool first = true;
      auto part = [&](const char* key, const std::string& v) {
        if (v.empty()) return;
        if (!first) out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        append_json_string(out, v);
      };
      part("kind", ref_.kind);
      part("namespace", ref_.namespace_);
      part("name", ref_.name);
      out += '}';
      return;
    }
  }
}

sink_fn stderr_sink() {
  return [](std::string_view line) {
    std::string buf;
    buf.reserve(line.size() + 1);
    buf.append(line);
    buf += '\n';
    std::fwrite(buf.data(), 1, buf.size(), stderr);
    std::fflush(stderr);
  };
}

struct logger::core {
  std::mutex mutex;  // serialises sink calls
  sink_fn sink;
  clock_fn clock;
  std::atomic<int> min_level{static_cast<int>(level::info)};
  std::atomic<int> verbosity{0};
};

logger::logger(options opts) : core_(std::make_shared<core>()) {
  core_->sink = opts.sink ? std::move(opts.sink) : stderr_sink();
  core_->clock = opts.clock ? std::move(opts.clock) : [] { return std::chrono::system_clock::now(); };
  set_levels(opts.min_level, opts.verbosity);
}

logger logger::named(std::string_view name) const {
  logger l = *this;
  if (name.empty()) return l;
  l.name_ = name_.empty() ? std::string(name) : name_ + "." + std::string(name);
  return l;
}

logger logger::with(const fields& f) const {
  logger l = *this;
  for (const auto& x : f) {
    l.base_ += ',';
    append_json_string(l.base_, x.key);
    l.base_ += ':';
    x.val.append_json(l.base_);
  }
  return l;
}

void logger::set_levels(level min_level, int verbosity) const {
  core_->min_level.store(static_cast<int>(min_level), std::memory_order_relaxed);
  core_->verbosity.store(verbosity, std::memory_order_relaxed);
}

bool logger::enabled(level l) const {
  return static_cast<int>(l) >= core_->min_level.load(std::memory_order_relaxed);
}

bool logger::v_enabled(int v) const {
  if (v <= 0) return enabled(level::info);
  if (v <= core_->verbosity.load(std::memory_order_relaxed)) return true;
  return v == 1 && enabled(level::debug);
}

std::string logger::format(std::string_view lvl, std::string_view msg, std::string_view error_text,
                           const fields& f) const {
  std::string out;
  out.reserve(128 + base_.size());
  out += "{\"level\":";
  append_json_string(out, lvl);
  out += ",\"ts\":\"";
  out += format_timestamp(core_->clock());
  out += '"';
  if (!name_.empty()) {
    out += ",\"logger\":";
    append_json_string(out, name_);
  }
  out += ",\"msg\":";
  append_json_string(out, msg);
  out += base_;
  for (const auto& x : f) {
    out += ',';
    append_json_string(out, x.key);
    out += ':';
    x.val.append_json(out);
  }
  if (!error_text.empty()) {
    out += ",\"error\":";
    append_json_string(out, error_text);
  }
  out += '}';
  return out;
}

void logger::write(std::string_view lvl, std::string_view msg, std::string_view error_text,
                   const fields& f) const {
  std::string line = format(lvl, msg, error_text, f);
  std::lock_guard<std::mutex> lock(core_->mutex);
  core_->sink(line);
}

void logger::info(std::string_view msg, const fields& f) const {
  if (enabled(level::info)) write(level_text(level::info), msg, {}, f);
}

void logger::warn(std::string_view msg, const fields& f) const {
  if (enabled(level::warn)) write(level_text(level::warn), msg, {}, f);
}

void logger::error(std::string_view msg, std::string_view error_text, const fields& f) const {
  if (enabled(level::error)) write(level_text(level::error), msg, error_text, f);
}

verbose_logger logger::v(int level) const { return verbose_logger(*this, level); }

bool verbose_logger::enabled() const { return l_.v_enabled(v_); }

void verbose_logger::info(std::string_view msg, const fields& f) const {
  if (!enabled()) return;
  l_.write(v_ <= 0 ? level_text(level::info) : level_text(level::debug), msg, {}, f);
}

namespace {
std::mutex root_mutex;
logger& root_slot() {
  static logger l;
  return l;
}
}  // namespace

logger root() {
  std::lock_guard<std::mutex> lock(root_mutex);
  return root_slot();
}

void set_root(logger l) {
  std::lock_guard<std::mutex> lock(root_mutex);
  root_slot() = std::move(l);
}

}  // namespace c5c3::k8s::log
