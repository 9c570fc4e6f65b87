#include "actors/operator/explain.hpp"

#include "k8s/client/blocking.hpp"
#include "k8s/client/client.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <thread>

namespace c5c3::operator_ {

namespace {

constexpr std::string_view prefix = "/debug/orders/";

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

const char* phase_name(std::uint8_t p) {
  switch (static_cast<protocol::order_phase>(p)) {
    case protocol::order_phase::idle: return "idle";
    case protocol::order_phase::waiting_for_token: return "waiting for a reconcile slot";
    case protocol::order_phase::running: return "running a pass";
    case protocol::order_phase::stopping: return "stopping";
    case protocol::order_phase::parked: return "parked (converged; an event or its next timer wakes it)";
  }
  return "?";
}

void line(std::string& out, std::string_view label, std::string_view value) {
  out += "  ";
  out += label;
  out += std::string(std::max<std::size_t>(13, label.size() + 1) - label.size(), ' ');
  out += value.empty() ? "-" : value;
  out += "\n";
}

}  // namespace

std::optional<explain_request> parse_debug_path(std::string_view path, std::string_view cluster_param) {
  if (path.substr(0, prefix.size()) != prefix) return std::nullopt;
  auto rest = path.substr(prefix.size());
  std::vector<std::string> parts;
  while (!rest.empty()) {
    auto slash = rest.find('/');
    parts.emplace_back(rest.substr(0, slash));
    if (slash == std::string_view::npos) break;
    rest = rest.substr(slash + 1);
  }
  if (parts.size() != 3 || std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); }))
    return std::nullopt;
  return explain_request{parts[0], parts[1], parts[2], std::string(cluster_param)};
}

std::string debug_path(const explain_request& r) {
  std::string p = std::string(prefix) + r.controller + "/" + r.namespace_ + "/" + r.name;
  if (!r.cluster.empty()) p += "?cluster=" + r.cluster;
  return p;
}

std::optional<std::string> controller_for(std::string_view kind, const std::vector<std::string>& controllers) {
  auto k = lower(kind);
  for (const auto& c : controllers)
    if (k == c || k == c + "s" || k == c + "es") return c;
  return std::nullopt;
}

std::string render_explain(const explain_request& r, const std::optional<protocol::order_probe>& probe) {
  std::string out = r.controller + " " + r.namespace_ + "/" + r.name + " on " +
                    (r.cluster.empty() ? std::string("the management cluster") : "target cluster \"" + r.cluster + "\"") +
                    "\n";
  if (!probe || probe->passes_started == 0) {
    out += "  no order actor holds it: the order does not exist, its cluster is not engaged, or its kind is not served\n";
    return out;
  }
  const auto& p = *probe;
  const auto& rep = p.report;
  line(out, "Ready:", rep.ready);
  if (!rep.blocked_by.empty()) line(out, "Blocked by:", rep.blocked_by);
  line(out, "Stopped at:", rep.stage);
  line(out, "Waiting for:", rep.waiting_for.empty() ? "" : rep.waiting_for + ": " + rep.waiting_condition);
  line(out, "Last pass:", p.last_pass_at.empty() ? "" : p.last_pass_at + " (" + rep.result + ")");
  line(out, "Now:", phase_name(p.phase) + std::string(p.wake_pending ? ", another pass queued" : ""));
  std::string timers;
  for (const auto& t : p.timers_due) timers += (timers.empty() ? "" : "; ") + t;
  line(out, "Timers:", timers);
  line(out, "Last error:", p.last_error.empty() ? "" : p.last_error + " (" + p.last_error_at + ")");
  line(out, "Failures:", p.failures ? std::to_string(p.failures) + " in a row (backing off)" : "0");
  line(out, "Passes:", std::to_string(p.passes_finished) + " finished");
  return out;
}

int run_explain(const std::vector<std::string>& args, const std::vector<std::string>& controllers) {
  explain_request r;
  std::string what, address = "127.0.0.1:8081";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    auto value = [&](std::string& into) {
      if (i + 1 >= args.size()) return false;
      into = args[++i];
      return true;
    };
    bool ok = true;
    if (a == "-n" || a == "--namespace") ok = value(r.namespace_);
    else if (a.rfind("--namespace=", 0) == 0) r.namespace_ = a.substr(12);
    else if (a == "--cluster") ok = value(r.cluster);
    else if (a.rfind("--cluster=", 0) == 0) r.cluster = a.substr(10);
    else if (a == "--health-probe-bind-address") ok = value(address);
    else if (a.rfind("--health-probe-bind-address=", 0) == 0) address = a.substr(28);
    else if (what.empty() && a[0] != '-') what = a;
    else ok = false;
    if (!ok) {
      std::cerr << "explain: unexpected argument \"" << a << "\"\n";
      return 2;
    }
  }
  auto slash = what.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == what.size()) {
    std::cerr << "usage: c5c3-operator explain KIND/NAME [-n NAMESPACE] [--cluster NAME] "
                 "[--health-probe-bind-address HOST:PORT]\n";
    return 2;
  }
  auto controller = controller_for(what.substr(0, slash), controllers);
  if (!controller) {
    std::cerr << "explain: the operator runs no controller for kind \"" << what.substr(0, slash) << "\"\n";
    return 2;
  }
  r.controller = *controller;
  r.name = what.substr(slash + 1);
  if (r.namespace_.empty()) r.namespace_ = "default";
  if (address.front() == ':') address = "127.0.0.1" + address;

  boost::asio::io_context io;
  k8s::client_config cfg;
  cfg.server = "http://" + address;
  auto made = k8s::client::create(io, cfg);
  if (!made.ok()) {
    std::cerr << "explain: " << made.error() << "\n";
    return 1;
  }
  auto work = std::thread([&io] {
    auto guard = boost::asio::make_work_guard(io);
    io.run();
  });
  k8s::rest_request req;
  req.target = debug_path(r);
  req.accept = "text/plain";
  req.timeout = std::chrono::seconds(10);
  auto answer = k8s::wait_for<k8s::rest_response>(
      [&](k8s::callback<k8s::rest_response> done) { made.value()->send(req, std::move(done)); });
  io.stop();
  work.join();
  if (!answer.ok()) {
    std::cerr << "explain: the operator's health address " << address << " answered: " << answer.error().message
              << "\n";
    return 1;
  }
  std::cout << answer.value().body;
  return 0;
}

}  // namespace c5c3::operator_
