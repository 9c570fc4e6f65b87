// Structured logging: one JSON object per line, as controller-runtime's zap
// production encoder writes them, with klog-style verbosity.
//
//   {"level":"info","ts":"2026-12-01T00:15:31.123Z","logger":"controller","msg":"Reconciling",
//    "controller":"rabbitmqvhost","namespace":"a","name":"b","reconcileID":"..."}
//
//   auto log = k8s::log::root().named("controller").with({{"controller", "rabbitmqvhost"}});
//   log.info("Reconciling", {{"namespace", ns}, {"name", name}});
//   log.v(2).info("cache hit", {{"kind", "Secret"}});     // only with -v 2 or more
//   log.error("Reconciler error", err_text, {{"object", log::ref(obj)}});
//
// Keys: level, ts (RFC 3339 UTC, milliseconds), logger (dot-joined names,
// omitted when empty), msg, then the logger's fields, then the line's; an
// error line carries "error". V-levels above 0 are written as level "debug".
//
// Enabled lines: info/warn/error by --log-level; a V(n) line (n >= 1) when n
// <= the verbosity (-v N), or n == 1 with --log-level debug.
//
// Secrets: there is deliberately no way to log a whole object; ref() renders
// only kind, namespace and name.
//
// Thread-safe: lines from any thread are written whole, one at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace c5c3::k8s {
class object;
}

namespace c5c3::k8s::log {

enum class level { debug, info, warn, error };

// An object reference: {"kind":"Secret","namespace":"a","name":"b"} (empty
// parts are left out).
struct object_ref {
  std::string kind;
  std::string namespace_;
  std::string name;
};
object_ref ref(const k8s::object& o);
object_ref ref(std::string_view kind, std::string_view namespace_, std::string_view name);

// A field value: string, integer, floating point, bool, duration (seconds,
// as zap's production encoder writes it), an object reference, or null.
class value {
 public:
  enum class type { null, string, integer, unsigned_integer, floating, boolean, ref };
  value() = default;
  value(std::nullptr_t) {}
  value(const char* s) : type_(s ? type::string : type::null), s_(s ? s : "") {}
  value(std::string_view s) : type_(type::string), s_(s) {}
  value(const std::string& s) : type_(type::string), s_(s) {}
  value(std::string&& s) : type_(type::string), s_(std::move(s)) {}
  value(bool b) : type_(type::boolean), b_(b) {}
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> && std::is_signed_v<I>, int> = 0>
  value(I i) : type_(type::integer), i_(static_cast<std::int64_t>(i)) {}
  template <class I, std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_signed_v<I>, int> = 0>
  value(I i) : type_(type::unsigned_integer), u_(static_cast<std::uint64_t>(i)) {}
  value(double d) : type_(type::floating), d_(d) {}
  template <class Rep, class Period>
  value(std::chrono::duration<Rep, Period> d)
      : type_(type::floating), d_(std::chrono::duration<double>(d).count()) {}
  value(object_ref r) : type_(type::ref), ref_(std::move(r)) {}

  // Appends the JSON text of this value.
  void append_json(std::string& out) const;

 private:
  type type_ = type::null;
  std::string s_;
  std::int64_t i_ = 0;
  std::uint64_t u_ = 0;
  double d_ = 0;
  bool b_ = false;
  object_ref ref_;
};

struct field {
  std::string key;
  value val;
};
using fields = std::vector<field>;

// Where lines go: each call gets one complete line without the newline.
using sink_fn = std::function<void(std::string_view line)>;
using clock_fn = std::function<std::chrono::system_clock::time_point()>;

// stderr, one write per line.
sink_fn stderr_sink();

struct options {
  level min_level = level::info;
  int verbosity = 0;  // klog -v
  sink_fn sink;       // default: stderr_sink()
  clock_fn clock;     // default: system_clock::now
};

class verbose_logger;

class logger {
 public:
  // A logger writing with `opts` (one shared core: copies and derived loggers
  // share the sink, its lock and the levels).
  explicit logger(options opts = {});

  // Derived loggers: a name appended with "." (zap's Named), extra fields.
  logger named(std::string_view name) const;
  logger with(const fields& f) const;

  void info(std::string_view msg, const fields& f = {}) const;
  void warn(std::string_view msg, const fields& f = {}) const;
  // "error" holds the error's text; an empty text leaves the key out.
  void error(std::string_view msg, std::string_view error_text, const fields& f = {}) const;
  // A logger for V-level `level` lines (klog's V(n)).
  verbose_logger v(int level) const;

  bool enabled(level l) const;
  bool v_enabled(int v) const;

  // Changes the levels of this logger's core (and all loggers sharing it).
  void set_levels(level min_level, int verbosity) const;

  // The line that would be written (for tests and for enabled checks elsewhere).
  std::string format(std::string_view level_text, std::string_view msg, std::string_view error_text,
                     const fields& f) const;

  struct core;

 private:
  friend class verbose_logger;
  void write(std::string_view level_text, std::string_view msg, std::string_view error_text,
             const fields& f) const;
  std::shared_ptr<core> core_;
  std::string name_;
  std::string base_;  // the JSON of the logger's fields, each preceded by ','
};

// A logger at one V-level; from logger::v(n).
class verbose_logger {
 public:
  bool enabled() const;
  void info(std::string_view msg, const fields& f = {}) const;

 private:
  friend class logger;
  verbose_logger(logger l, int v) : l_(std::move(l)), v_(v) {}
  logger l_;
  int v_;
};

// The process-wide logger (stderr, info) and its replacement.
logger root();
void set_root(logger l);

// RFC 3339 in UTC with milliseconds: 2026-12-01T00:15:31.123Z.
std::string format_timestamp(std::chrono::system_clock::time_point t);
// Appends s as a JSON string (quoted; ", \ and control characters escaped,
// invalid UTF-8 replaced by U+FFFD).
void append_json_string(std::string& out, std::string_view s);

}  // namespace c5c3::k8s::log
