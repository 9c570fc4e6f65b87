#include "actors/operator/live_table.hpp"

#include "sim/openapi/table.hpp"

#include <algorithm>
#include <sstream>

namespace c5c3::operator_::live {

namespace {

std::string one_line(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) out.push_back(c == '\n' || c == '\r' || c == '\t' ? ' ' : c);
  return out;
}

std::string dash(const std::string& s) { return s.empty() ? "-" : s; }

std::string ready_text(const order_row& r) {
  std::string t = dash(r.ready);
  if (r.terminating) t += ",Terminating";
  return t;
}

// Cuts a line to `width` bytes (multi-byte characters are not split).
void cut(std::string& line, std::size_t width) {
  if (width == 0 || line.size() <= width) return;
  std::size_t n = width;
  while (n > 0 && (static_cast<unsigned char>(line[n]) & 0xC0) == 0x80) --n;
  line.resize(n);
}

}  // namespace

order_row row_of(const k8s::object& order) {
  order_row r;
  r.namespace_ = std::string(order.namespace_());
  r.name = std::string(order.name());
  r.kind = std::string(order.kind());
  r.created = std::string(order.creation_timestamp());
  r.terminating = order.terminating();
  if (auto c = order.find_condition("Ready")) {
    r.ready = c->status;
    r.reason = one_line(c->reason);
    r.message = one_line(c->message);
  }
  return r;
}

snapshot snapshot_of(const std::vector<k8s::object>& orders) {
  snapshot s;
  for (const auto& o : orders) {
    auto r = row_of(o);
    s.emplace(row_key{r.kind, r.namespace_, r.name}, std::move(r));
  }
  return s;
}

bool is_order_crd(const k8s::object& crd) {
  return crd.kind() == "CustomResourceDefinition" && crd.get_string({"spec", "group"}) == "c5c3.io" &&
         crd.get_string({"spec", "names", "kind"}) != "ControlPlane";
}

std::string render_table(const snapshot& rows, k8s::time_point now, std::size_t width, const std::string& header,
                         std::size_t max_rows) {
  const std::vector<std::string> titles{"NAMESPACE", "NAME", "KIND", "READY", "REASON", "AGE", "MESSAGE"};
  std::vector<std::vector<std::string>> cells;
  cells.push_back(titles);
  std::size_t ready = 0;
  for (const auto& [k, r] : rows)
    if (r.ready == "True") ++ready;
  for (const auto& [k, r] : rows) {
    if (max_rows > 0 && cells.size() > max_rows) break;
    cells.push_back({r.namespace_, r.name, r.kind, ready_text(r), dash(r.reason),
                     r.created.empty() ? "<unknown>" : sim::openapi::age_since(r.created, now), dash(r.message)});
  }  std::vector<std::size_t> w(titles.size(), 0);
  for (const auto& row : cells)
    for (std::size_t i = 0; i < row.size(); ++i) w[i] = std::max(w[i], row[i].size());
  std::string out;
  {
    std::istringstream in(header);
    std::string line;
    while (std::getline(in, line)) {
      cut(line, width);
      out += line + "\n";
    }
  }
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(w[i] - row[i].size() + 3, ' ');
    }
    cut(line, width);
    out += line + "\n";
  }
  if (rows.empty()) {
    out += "(no orders)\n";
    return out;
  }
  if (cells.size() - 1 < rows.size()) out += "... and " + std::to_string(rows.size() - (cells.size() - 1)) + " more\n";
  std::string total = std::to_string(rows.size()) + (rows.size() == 1 ? " order, " : " orders, ") +
                      std::to_string(ready) + " Ready";
  cut(total, width);
  out += total + "\n";
  return out;
}

std::vector<std::string> changes(const snapshot& before, const snapshot& after, k8s::time_point now) {
  std::vector<std::string> lines;
  const std::string stamp = k8s::format_rfc3339(now);
  auto describe = [&](const order_row& r, std::string_view what) {
    std::string line = stamp + " " + std::string(what) + " " + r.kind + " " + r.namespace_ + "/" + r.name +
                       " READY=" + ready_text(r) + " REASON=" + dash(r.reason);
    if (!r.message.empty()) line += " MESSAGE=" + r.message;
    return line;
  };
  for (const auto& [k, r] : after) {
    auto it = before.find(k);
    if (it == before.end()) {
      lines.push_back(describe(r, "added"));
    } else if (it->second.ready != r.ready || it->second.reason != r.reason || it->second.message != r.message ||
               it->second.terminating != r.terminating) {
      lines.push_back(describe(r, "changed"));
    }
  }
  for (const auto& [k, r] : before)
    if (!after.contains(k)) lines.push_back(stamp + " deleted " + r.kind + " " + r.namespace_ + "/" + r.name);
  return lines;
}

}  // namespace c5c3::operator_::live
