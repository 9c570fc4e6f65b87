#include "actors/runtime/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace c5c3::runtime::metrics {

// -- values -------------------------------------------------------------------

void counter::inc(double v) {
  if (v < 0 || std::isnan(v)) return;
  v_.fetch_add(v, std::memory_order_relaxed);
}

histogram::histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void histogram::observe(double v) {
  // Buckets are "less than or equal" upper bounds.
  auto i = static_cast<std::size_t>(std::lower_bound(bounds_.begin(), bounds_.end(), v) -
                                    bounds_.begin());
  std::lock_guard<std::mutex> guard{mutex_};
  ++counts_[i];
  sum_ += v;
  ++count_;
}

histogram::snapshot histogram::snap() const {
  std::lock_guard<std::mutex> guard{mutex_};
  snapshot s;
  s.bounds = bounds_;
  std::uint64_t acc = 0;
  for (auto c : counts_) {
    acc += c;
    s.cumulative.push_back(acc);
  }
  s.sum = sum_;
  s.count = count_;
  return s;
}

// -- text format helpers ------------------------------------------------------

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  // Shortest round-trip digits in scientific form: "d.ddde±x".
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), v, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  auto epos = sci.find('e');
  std::string digits;
  for (std::size_t i = 0; i < epos; ++i)
    if (sci[i] != '.') digits += sci[i];
  int exp = std::stoi(sci.substr(epos + 1));
  std::string out = neg ? "-" : "";
  // Go's strconv 'g' with the shortest precision: %e when exp < -4 || exp >= 6.
  if (exp < -4 || exp >= 6) {
    out += digits[0];
    if (digits.size() > 1) out += "." + digits.substr(1);
    out += exp < 0 ? "e-" : "e+";
    auto e = std::to_string(std::abs(exp));
    if (e.size() < 2) e = "0" + e;
    out += e;
    return out;
  }
  if (exp < 0) {
    out += "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + digits;
  } else if (static_cast<std::size_t>(exp) + 1 >= digits.size()) {
    out += digits + std::string(static_cast<std::size_t>(exp) + 1 - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<std::size_t>(exp) + 1) + "." +
           digits.substr(static_cast<std::size_t>(exp) + 1);
  }
  return out;
}

std::string escape_label_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string escape_help(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

namespace {
bool name_char(char c, bool first, bool colon) {
  bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (colon && c == ':');
  return alpha || (!first && c >= '0' && c <= '9');
}

std::string label_set(const std::vector<std::string>& names, const label_values& values,
                      const char* extra_name = nullptr, const std::string& extra_value = {}) {
  if (names.empty() && !extra_name) return {};
  std::string out = "{";
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i) out += ',';
    out += names[i] + "=\"" + escape_label_value(values[i]) + "\"";
  }
  if (extra_name) {
    if (!names.empty()) out += ',';
    out += std::string(extra_name) + "=\"" + extra_value + "\"";
  }
  out += '}';
  return out;
}

const char* type_name(metric_type t) {
  switch (t) {
    case metric_type::counter: return "counter";
    case metric_type::gauge: return "gauge";
    case metric_type::histogram: return "histogram";
  }
  return "untyped";
}
}  // namespace

bool valid_metric_name(std::string_view name) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (!name_char(name[i], i == 0, true)) return false;
  return true;
}

bool valid_label_name(std::string_view name) {
  if (name.empty() || name.substr(0, 2) == "__") return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (!name_char(name[i], i == 0, false)) return false;
  return true;
}

std::vector<double> exponential_buckets(double start, double factor, int count) {
  if (start <= 0 || factor <= 1 || count < 1)
    throw std::invalid_argument("exponential_buckets: start > 0, factor > 1, count >= 1");
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(start);
    start *= factor;
  }
  return out;
}

// -- families -----------------------------------------------------------------

family_base::family_base(std::string name, std::string help, std::vector<std::string> label_names,
                         metric_type type)
    : name_(std::move(name)), help_(std::move(help)), label_names_(std::move(label_names)),
      type_(type) {
  if (!valid_metric_name(name_)) throw std::invalid_argument("invalid metric name: " + name_);
  for (const auto& l : label_names_) {
    if (!valid_label_name(l) || (type_ == metric_type::histogram && l == "le"))
      throw std::invalid_argument("invalid label name for " + name_ + ": " + l);
  }
}

void family_base::check_labels(const label_values& values) const {
  if (values.size() != label_names_.size())
    throw std::invalid_argument(name_ + ": expected " + std::to_string(label_names_.size()) +
                                " label values, got " + std::to_string(values.size()));
}

template <class Metric>
family<Metric>::family(std::string name, std::string help, std::vector<std::string> label_names,
                       metric_type type, std::vector<double> bounds)
    : family_base(std::move(name), std::move(help), std::move(label_names), type),
      bounds_(std::move(bounds)) {
  for (std::size_t i = 1; i < bounds_.size(); ++i)
    if (!(bounds_[i - 1] < bounds_[i]))
      throw std::invalid_argument(name_ + ": histogram bounds must increase");
}

template <class Metric>
Metric& family<Metric>::with(const label_values& values) {
  check_labels(values);
  std::lock_guard<std::mutex> guard{mutex_};
  auto& slot = series_[values];
  if (!slot) {
    if constexpr (std::is_same_v<Metric, histogram>)
      slot = std::make_unique<histogram>(bounds_);
    else
      slot = std::make_unique<Metric>();
  }
  return *slot;
}

template <class Metric>
bool family<Metric>::remove(const label_values& values) {
  std::lock_guard<std::mutex> guard{mutex_};
  return series_.erase(values) != 0;
}

template <class Metric>
void family<Metric>::render(std::string& out) const {
  std::lock_guard<std::mutex> guard{mutex_};
  if (series_.empty()) return;
  out += "# HELP " + name_ + " " + escape_help(help_) + "\n";
  out += "# TYPE " + name_ + " " + type_name(type_) + "\n";
  for (const auto& [values, metric] : series_) {
    if constexpr (std::is_same_v<Metric, histogram>) {
      auto s = metric->snap();
      for (std::size_t i = 0; i < s.bounds.size(); ++i)
        out += name_ + "_bucket" + label_set(label_names_, values, "le", format_value(s.bounds[i])) +
               " " + std::to_string(s.cumulative[i]) + "\n";
      out += name_ + "_bucket" + label_set(label_names_, values, "le", "+Inf") + " " +
             std::to_string(s.count) + "\n";
      out += name_ + "_sum" + label_set(label_names_, values) + " " + format_value(s.sum) + "\n";
      out += name_ + "_count" + label_set(label_names_, values) + " " + std::to_string(s.count) +
             "\n";
    } else {
      out += name_ + label_set(label_names_, values) + " " + format_value(metric->value()) + "\n";
    }
  }
}

template class family<counter>;
template class family<gauge>;
template class family<histogram>;

// -- registry -----------------------------------------------------------------

family_base& registry::add(std::unique_ptr<family_base> f) {
  std::lock_guard<std::mutex> guard{mutex_};
  auto i = families_.find(f->name());
  if (i != families_.end()) {
    if (i->second->type() != f->type() || i->second->label_names() != f->label_names())
      throw std::invalid_argument("metric " + f->name() +
                                  " registered again with another type or labels");
    return *i->second;
  }
  return *families_.emplace(f->name(), std::move(f)).first->second;
}

counter_family& registry::counter(const std::string& name, const std::string& help,
                                  std::vector<std::string> label_names) {
  bool plain = label_names.empty();
  auto& f = static_cast<counter_family&>(add(
      std::make_unique<counter_family>(name, help, std::move(label_names), metric_type::counter)));
  if (plain) f.get();
  return f;
}

gauge_family& registry::gauge(const std::string& name, const std::string& help,
                              std::vector<std::string> label_names) {
  bool plain = label_names.empty();
  auto& f = static_cast<gauge_family&>(
      add(std::make_unique<gauge_family>(name, help, std::move(label_names), metric_type::gauge)));
  if (plain) f.get();
  return f;
}

histogram_family& registry::histogram(const std::string& name, const std::string& help,
                                      std::vector<std::string> label_names,
                                      std::vector<double> bounds) {
  bool plain = label_names.empty();
  auto& f = static_cast<histogram_family&>(add(std::make_unique<histogram_family>(
      name, help, std::move(label_names), metric_type::histogram, std::move(bounds))));
  if (plain) f.get();
  return f;
}

void registry::add_collector(std::function<bool()> collect) {
  std::lock_guard<std::mutex> guard{collectors_mutex_};
  collectors_.push_back(std::move(collect));
}

void registry::collect() const {
  // One render at a time runs them; they lock only the families they set.
  std::lock_guard<std::mutex> guard{collectors_mutex_};
  std::erase_if(collectors_, [](const std::function<bool()>& c) { return !c(); });
}

std::string registry::render() const {
  collect();
  std::lock_guard<std::mutex> guard{mutex_};
  std::string out;
  for (const auto& [name, f] : families_) f->render(out);
  return out;
}

registry& default_registry() {
  static registry instance;
  return instance;
}

}  // namespace c5c3::runtime::metrics
