// c5c3-sim: the simulators' command line.
//   c5c3-sim apiserver --listen 127.0.0.1:PORT --kubeconfig-out FILE [--plain-http]
//                      [--crds DIR]... [--data-dir DIR] [--faults FILE] [--token-file FILE]
//                      [--authorization-mode AlwaysAllow|RBAC] [--enable-admission-plugins P,...]
//                      [--record-write-bodies]
//   c5c3-sim world ...; c5c3-sim grafana|trickster|rancher|monitoring ... (sim/monitoring)
#include "k8s/signals.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "sim/monitoring/standin_command.hpp"
#include "sim/world/world_command.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace {

int usage(const char* msg) {
  if (msg) std::cerr << "c5c3-sim: " << msg << "\n";
  std::cerr << "usage: c5c3-sim apiserver --listen HOST:PORT --kubeconfig-out FILE [--plain-http]\n"
               "                          [--crds DIR]... [--data-dir DIR] [--faults FILE]\n"
               "                          [--token-file FILE] [--authorization-mode AlwaysAllow|RBAC]\n"
               "                          [--enable-admission-plugins OwnerReferencesPermissionEnforcement]\n"
               "                          [--record-write-bodies] (GET /sim/writelog shows each write's request)\n"
               "       c5c3-sim world [--kubeconfig FILE] [--rabbitmq-management-url URL ...] (world --help)\n"
               "       c5c3-sim grafana|trickster|rancher|monitoring [--listen HOST:PORT] ... (the\n"
               "                monitoring stand-ins; <name> --help)\n";
  return 2;
}

int run_apiserver(const std::vector<std::string>& args) {
  c5c3::sim::apiserver_options opts;
  std::string kubeconfig;
  bool listen_given = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::optional<std::string> inline_value;
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = a.substr(eq + 1);
      a = a.substr(0, eq);
    }
    auto value = [&]() -> std::optional<std::string> {
      if (inline_value) return inline_value;
      if (i + 1 < args.size()) return args[++i];
      return std::nullopt;
    };
    if (a == "--plain-http") {
      opts.plain_http = true;
      continue;
    }
    if (a == "--record-write-bodies") {
      opts.record_write_bodies = true;
      continue;
    }
    if (a == "-h" || a == "--help") {
      usage(nullptr);
      return 0;
    }
    auto v = value();
    if (!v) return usage(("missing value for " + a).c_str());
    if (a == "--listen") {
      opts.listen = *v;
      listen_given = true;
    } else if (a == "--kubeconfig-out") {
      kubeconfig = *v;
    } else if (a == "--crds") {
      opts.crd_dirs.push_back(*v);
    } else if (a == "--data-dir") {
      opts.data_dir = *v;
    } else if (a == "--faults") {
      opts.faults_file = *v;
    } else if (a == "--token-file") {
      opts.token_file = *v;
    } else if (a == "--authorization-mode") {
      opts.authorization_mode = *v;
    } else if (a == "--enable-admission-plugins") {
      for (std::size_t at = 0; at <= v->size();) {
        auto comma = v->find(',', at);
        if (comma == std::string::npos) comma = v->size();
        if (comma > at) opts.admission_plugins.push_back(v->substr(at, comma - at));
        at = comma + 1;
      }
    } else {
      return usage(("unknown option " + a).c_str());
    }
  }
  if (!listen_given) return usage("--listen is required");

  const sigset_t set = c5c3::k8s::block_termination_signals();  // before any thread starts

  c5c3::sim::apiserver server(opts);
  try {
    server.start();
    if (!kubeconfig.empty()) server.write_kubeconfig(kubeconfig);
  } catch (const std::exception& e) {
    std::cerr << "c5c3-sim: " << e.what() << "\n";
    return 1;
  }
  std::cout << "listening on " << server.url() << std::endl;
  c5c3::k8s::wait_for_termination(set);
  server.stop();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage("missing subcommand");
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  if (cmd == "apiserver") return run_apiserver(args);
  if (cmd == "world") return c5c3::sim::world::run_world_command(args);
  if (c5c3::sim::monitoring::is_standin_command(cmd)) return c5c3::sim::monitoring::run_standin_command(cmd, args);
  if (cmd == "-h" || cmd == "--help") {
    usage(nullptr);
    return 0;
  }
  return usage(("unknown subcommand " + cmd).c_str());
}
