// A small Prometheus registry: counters, gauges and histograms with labels,
// rendered in the text exposition format 0.0.4 (what /metrics serves; Debian
// ships no prometheus-cpp). Thread-safe: actors update metrics from any
// scheduler thread while the HTTP endpoint renders.
//
//   metrics::registry reg;
//   auto& total = reg.counter("controller_runtime_reconcile_total", "...", {"controller", "result"});
//   total.with({"keystoneuser", "success"}).inc();
//   std::string body = reg.render();
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace c5c3::runtime::metrics {

// The Content-Type of render()'s output.
inline constexpr const char* content_type = "text/plain; version=0.0.4; charset=utf-8";

using label_values = std::vector<std::string>;

class counter {
 public:
  void inc(double v = 1);  // v must be >= 0 (a negative v is ignored)
  double value() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> v_{0};
};

class gauge {
 public:
  void set(double v) { v_.store(v, std::memory_order_relaxed); }
  void inc(double v = 1) { v_.fetch_add(v, std::memory_order_relaxed); }
  void dec(double v = 1) { v_.fetch_sub(v, std::memory_order_relaxed); }
  double value() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> v_{0};
};

class histogram {
 public:
  // `bounds`: the upper bounds of the buckets, strictly increasing; +Inf is implied.
  explicit histogram(std::vector<double> bounds);
  void observe(double v);

  struct snapshot {
    std::vector<double> bounds;
    std::vector<std::uint64_t> cumulative;  // per bound, then +Inf
    double sum = 0;
    std::uint64_t count = 0;
  };
  snapshot snap() const;

 private:
  mutable std::mutex mutex_;
  std::vector<double> bounds_;
  std::vector<std::uint64_t> counts_;  // per bucket (non-cumulative), last is +Inf
  double sum_ = 0;
  std::uint64_t count_ = 0;
};

enum class metric_type { counter, gauge, histogram };

class family_base {
 public:
  family_base(std::string name, std::string help, std::vector<std::string> label_names,
              metric_type type);
  virtual ~family_base() = default;
  const std::string& name() const { return name_; }
  metric_type type() const { return type_; }
  const std::vector<std::string>& label_names() const { return label_names_; }
  // Appends this family's HELP, TYPE and sample lines; nothing when it has no series.
  virtual void render(std::string& out) const = 0;

 protected:
  void check_labels(const label_values& values) const;
  std::string name_;
  std::string help_;
  std::vector<std::string> label_names_;
  metric_type type_;
};

// One metric per distinct label values. References returned by with() stay
// valid for the registry's lifetime.
template <class Metric>
class family : public family_base {
 public:
  using family_base::family_base;
  family(std::string name, std::string help, std::vector<std::string> label_names,
         metric_type type, std::vector<double> bounds);

  Metric& with(const label_values& values);
  // The metric without labels (only for a family with no label names).
  Metric& get() { return with({}); }
  // Drops the series of `values` (a target cluster that went away); a
  // reference with() gave for them must not be used afterwards.
  bool remove(const label_values& values);
  void render(std::string& out) const override;

 private:
  mutable std::mutex mutex_;
  std::vector<double> bounds_;  // histograms only
  std::map<label_values, std::unique_ptr<Metric>> series_;
};

using counter_family = family<counter>;
using gauge_family = family<gauge>;
using histogram_family = family<histogram>;

class registry {
 public:
  // Registering a name again returns the same family when type and label
  // names match; a mismatch, or an invalid metric or label name, throws
  // std::invalid_argument. A family without labels starts with its one series
  // at 0.
  counter_family& counter(const std::string& name, const std::string& help,
                          std::vector<std::string> label_names = {});
  gauge_family& gauge(const std::string& name, const std::string& help,
                      std::vector<std::string> label_names = {});
  histogram_family& histogram(const std::string& name, const std::string& help,
                              std::vector<std::string> label_names, std::vector<double> bounds);

  // The exposition text, families sorted by name, series by label values.
  // Runs the collectors first.
  std::string render() const;

  // A function render() calls before it renders (a gauge whose value is a
  // function of the time, set from the state it describes); one that returns
  // false is dropped (its owner is gone).
  void add_collector(std::function<bool()> collect);

 private:
  family_base& add(std::unique_ptr<family_base> f);
  void collect() const;
  mutable std::mutex mutex_;
  mutable std::mutex collectors_mutex_;
  mutable std::vector<std::function<bool()>> collectors_;
  std::map<std::string, std::unique_ptr<family_base>> families_;
};

// The process-wide registry the operator serves on /metrics.
registry& default_registry();

// prometheus.ExponentialBuckets(start, factor, count).
std::vector<double> exponential_buckets(double start, double factor, int count);

// A sample value as Go's client writes it (strconv 'g', shortest; +Inf, -Inf, NaN).
std::string format_value(double v);
// Label values escape \, " and newline; HELP text escapes \ and newline.
std::string escape_label_value(std::string_view v);
std::string escape_help(std::string_view v);
bool valid_metric_name(std::string_view name);
bool valid_label_name(std::string_view name);

}  // namespace c5c3::runtime::metrics
