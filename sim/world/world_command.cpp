#include "sim/world/world_command.hpp"

#include "config/connection.hpp"
#include "k8s/client/blocking.hpp"
#include "k8s/yaml.hpp"
#include "sim/world/client_world_api.hpp"
#include "sim/world/http_identity.hpp"
#include "sim/world/management_broker.hpp"
#include "sim/world/memory_broker.hpp"
#include "sim/world/world_driver.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <thread>

#ifndef C5C3_SIM_CRDS_DIR
#define C5C3_SIM_CRDS_DIR "sim/crds"
#endif

namespace c5c3::sim::world {
namespace {

int usage(const std::string& msg) {
  if (!msg.empty()) std::cerr << "c5c3-sim world: " << msg << "\n";
  std::cerr << "usage: c5c3-sim world [--kubeconfig FILE] [--context NAME] [--crds DIR]\n"
               "         [--rabbitmq-management-url URL --rabbitmq-amqp-port PORT [--rabbitmq-host HOST]\n"
               "          [--rabbitmq-admin-user USER] [--rabbitmq-admin-password-file FILE]]\n"
               "         [--keystone-url URL --keystone-admin-password-file FILE [--keystone-auth-url URL]]\n"
               "         [--no-topology-operator]   (Vhosts, Users, Permissions left to a real operator)\n";
  return 2;
}

struct options {
  config::load_options connection;
  std::string crds = C5C3_SIM_CRDS_DIR;
  std::string management_url;
  std::string admin_user = "guest";
  std::string admin_password_file;
  std::string host = "127.0.0.1";
  int amqp_port = 0;
  bool topology_operator = true;
  std::string keystone_url;
  std::string keystone_auth_url;
  std::string keystone_password_file;
};

// The first line of `file` (a password), or nullopt.
std::optional<std::string> first_line(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

// The CRDs under `dir` that define a simulated kind, created where missing.
bool install_crds(k8s::client& c, const std::string& dir) {
  std::set<std::string> simulated;
  for (const auto& k : simulated_kinds()) simulated.insert(k.group + "/" + k.kind);
  std::error_code ec;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  }
  if (ec) {
    std::cerr << "c5c3-sim world: cannot read " << dir << ": " << ec.message() << "\n";
    return false;
  }
  std::sort(files.begin(), files.end());
  bool ok = true;
  for (const auto& f : files) {
    std::string err;
    auto docs = k8s::read_yaml_file(f.string(), &err);
    if (!docs) {
      std::cerr << "c5c3-sim world: " << f << ": " << err << "\n";
      ok = false;
      continue;
    }
    for (auto& d : *docs) {
      k8s::object crd(std::move(d));
      auto id = std::string(crd.get_string({"spec", "group"})) + "/" +
                std::string(crd.get_string({"spec", "names", "kind"}));
      if (crd.kind() != "CustomResourceDefinition" || !simulated.contains(id)) continue;
      auto r = k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
        c.create(crd, {std::string(client_world_api::field_manager), false}, std::move(cb));
      });
      if (r) {
        std::cout << "installed CRD " << crd.name() << std::endl;
      } else if (!r.error().already_exists()) {
        std::cerr << "c5c3-sim world: CRD " << crd.name() << ": " << r.error().describe() << "\n";
        ok = false;
      }
    }
  }
  return ok;
}

std::optional<options> parse(const std::vector<std::string>& args, int& rc) {
  options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    std::optional<std::string> inline_value;
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      inline_value = a.substr(eq + 1);
      a = a.substr(0, eq);
    }
    if (a == "-h" || a == "--help") {
      usage("");
      rc = 0;
      return std::nullopt;
    }
    if (a == "--no-topology-operator" && !inline_value) {
      o.topology_operator = false;
      continue;
    }
    std::optional<std::string> v = inline_value;
    if (!v && i + 1 < args.size()) v = args[++i];
    if (!v) {
      rc = usage("missing value for " + a);
      return std::nullopt;
    }
    if (a == "--kubeconfig") {
      o.connection.kubeconfig = *v;
    } else if (a == "--context") {
      o.connection.context = *v;
    } else if (a == "--crds") {
      o.crds = *v;
    } else if (a == "--rabbitmq-management-url") {
      o.management_url = *v;
    } else if (a == "--rabbitmq-admin-user") {
      o.admin_user = *v;
    } else if (a == "--rabbitmq-admin-password-file") {
      o.admin_password_file = *v;
    } else if (a == "--keystone-url") {
      o.keystone_url = *v;
    } else if (a == "--keystone-auth-url") {
      o.keystone_auth_url = *v;
    } else if (a == "--keystone-admin-password-file") {
      o.keystone_password_file = *v;
    } else if (a == "--rabbitmq-host") {
      o.host = *v;
    } else if (a == "--rabbitmq-amqp-port") {
      try {
        o.amqp_port = std::stoi(*v);
      } catch (const std::exception&) {
        o.amqp_port = 0;
      }
      if (o.amqp_port < 1 || o.amqp_port > 65535) {
        rc = usage("--rabbitmq-amqp-port must be 1..65535");
        return std::nullopt;
      }
    } else {
      rc = usage("unknown option " + a);
      return std::nullopt;
    }
  }
  if (!o.management_url.empty() && o.amqp_port == 0) {
    rc = usage("--rabbitmq-management-url needs --rabbitmq-amqp-port");
    return std::nullopt;
  }
  if (!o.keystone_url.empty() && o.keystone_password_file.empty()) {
    rc = usage("--keystone-url needs --keystone-admin-password-file");
    return std::nullopt;
  }
  return o;
}

}  // namespace

int run_world_command(const std::vector<std::string>& args) {
  int rc = 0;
  auto o = parse(args, rc);
  if (!o) return rc;

  world_options wo;
  wo.openbao = std::make_shared<kv_store>();
  wo.topology_operator = o->topology_operator;
  wo.log = [](const std::string& m) { std::cerr << "c5c3-sim world: " << m << "\n"; };
  if (o->management_url.empty()) {
    wo.rabbitmq = std::make_shared<memory_broker>();
  } else {
    std::string password = "guest";
    if (!o->admin_password_file.empty()) {
      auto p = first_line(o->admin_password_file);
      if (!p) return usage("cannot read --rabbitmq-admin-password-file");
      password = *p;
    }
    try {
      wo.rabbitmq = std::make_shared<management_broker>(
          std::shared_ptr<management_http>(make_blocking_management_http(o->management_url, o->admin_user, password)));
    } catch (const std::exception& e) {
      return usage(e.what());
    }
    wo.real_broker = real_broker_endpoint{o->host, o->amqp_port, o->admin_user, password};
  }

  if (!o->keystone_url.empty()) {
    auto p = first_line(o->keystone_password_file);
    if (!p) return usage("cannot read --keystone-admin-password-file");
    try {
      auto ks = std::make_shared<http_identity>(o->keystone_url);
      wo.admin = {*p, o->keystone_auth_url.empty() ? ks->url() + "/v3" : o->keystone_auth_url};
      wo.identity = std::move(ks);
    } catch (const std::exception& e) {
      return usage(std::string("--keystone-url: ") + e.what());
    }
  }

  auto conn = config::load_connection(o->connection);
  if (!conn) {
    std::cerr << "c5c3-sim world: " << conn.error() << "\n";
    return 1;
  }

  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);  // before any thread starts
  std::signal(SIGPIPE, SIG_IGN);

  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  std::thread io_thread([&io] { io.run(); });
  auto finish = [&](int code) {
    guard.reset();
    io.stop();
    io_thread.join();
    return code;
  };
  // Its writes are told from the operator's in the emulator's write log (the
  // client's default User-Agent is the operator's).
  conn->client.user_agent = "c5c3-sim-world";
  auto client = k8s::client::create(io, conn->client);
  if (!client) {
    std::cerr << "c5c3-sim world: " << client.error() << "\n";
    return finish(1);
  }
  if (!install_crds(**client, o->crds)) return finish(1);

  client_world_api api(*client);
  world_driver driver(api, std::move(wo));
  std::cout << "c5c3-sim world: simulating against " << conn->source
            << (o->management_url.empty() ? " with an in-memory broker" : " with RabbitMQ at " + o->management_url)
            << (o->keystone_url.empty() ? " and an in-memory Keystone" : " and Keystone at " + o->keystone_url)
            << std::endl;
  int sig = 0;
  sigwait(&set, &sig);
  driver.stop();
  return finish(0);
}

}  // namespace c5c3::sim::world
