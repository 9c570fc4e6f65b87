#include "sim/monitoring/standin_command.hpp"

#include "k8s/signals.hpp"
#include "sim/apiserver/pki.hpp"
#include "sim/monitoring/grafana.hpp"
#include "sim/monitoring/rancher.hpp"
#include "sim/monitoring/trickster.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>

namespace c5c3::sim::monitoring {

namespace {

struct flags {
  std::map<std::string, std::vector<std::string>> values;
  bool tls = false;
  std::string one(const std::string& k, const std::string& fallback = {}) const {
    auto it = values.find(k);
    return it == values.end() || it->second.empty() ? fallback : it->second.back();
  }
  std::vector<std::string> all(const std::string& k) const {
    auto it = values.find(k);
    return it == values.end() ? std::vector<std::string>{} : it->second;
  }
};

const std::map<std::string, std::vector<std::string>>& known() {
  static const std::map<std::string, std::vector<std::string>> k = {
      {"grafana", {"--listen", "--faults", "--env-out", "--admin-user", "--admin-password", "--api-key"}},
      {"trickster", {"--listen", "--faults", "--env-out", "--token", "--grafana-url", "--grafana-token", "--owner-id"}},
      {"rancher", {"--listen", "--faults", "--env-out", "--token", "--max-ttl"}},
      {"monitoring", {"--grafana-listen", "--trickster-listen", "--rancher-listen", "--env-out", "--token",
                      "--rancher-token", "--max-ttl", "--admin-user", "--admin-password", "--owner-id"}},
  };
  return k;
}

int usage(const std::string& name, const std::string& msg) {
  if (!msg.empty()) std::cerr << "c5c3-sim " << name << ": " << msg << "\n";
  std::cerr << "usage: c5c3-sim " << name << " [--tls]";
  for (auto& f : known().at(name)) std::cerr << " [" << f << " VALUE]";
  std::cerr << "\n(see sim/monitoring/standin_command.hpp)\n";
  return 2;
}

std::optional<flags> parse(const std::string& name, const std::vector<std::string>& args, std::string& err) {
  flags f;
  const auto& allowed = known().at(name);
  for (std::size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (a == "--tls") {
      f.tls = true;
      continue;
    }
    std::optional<std::string> v;
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      v = a.substr(eq + 1);
      a = a.substr(0, eq);
    }
    if (std::find(allowed.begin(), allowed.end(), a) == allowed.end()) {
      err = "unknown option " + a;
      return std::nullopt;
    }
    if (!v) {
      if (i + 1 >= args.size()) {
        err = "missing value for " + a;
        return std::nullopt;
      }
      v = args[++i];
    }
    f.values[a].push_back(*v);
  }
  return f;
}

std::int64_t duration_ms(const std::string& text) {
  if (text.empty()) return 0;
  auto d = k8s::parse_go_duration(text);
  if (!d) throw std::runtime_error("invalid duration " + text);
  return std::chrono::duration_cast<std::chrono::milliseconds>(*d).count();
}

std::unique_ptr<standin_server> make_grafana(const flags& f, const std::string& listen, const std::string& api_key) {
  grafana_options o;
  o.admin_user = f.one("--admin-user", "admin");
  o.admin_password = f.one("--admin-password", "admin");
  if (!api_key.empty()) o.api_keys.push_back({api_key, 1, "Admin"});
  for (auto& spec : f.all("--api-key")) {
    grafana_options::key k;
    auto c1 = spec.find(':');
    k.key = spec.substr(0, c1);
    if (c1 != std::string::npos) {
      auto c2 = spec.find(':', c1 + 1);
      k.org_id = std::stoll(spec.substr(c1 + 1, c2 - c1 - 1));
      if (c2 != std::string::npos) k.role = spec.substr(c2 + 1);
    }
    o.api_keys.push_back(k);
  }
  standin_options so{listen, f.tls, f.one("--faults")};
  return std::make_unique<standin_server>("grafana", std::make_shared<grafana_api>(o), so);
}

std::unique_ptr<standin_server> make_rancher(const flags& f, const std::string& listen,
                                             const std::vector<std::string>& seeds) {
  rancher_options o;
  for (auto& s : seeds) o.tokens.push_back(rancher_api::parse_seed(s));
  o.max_ttl_ms = duration_ms(f.one("--max-ttl"));
  standin_options so{listen, f.tls, f.one("--faults")};
  return std::make_unique<standin_server>("rancher", std::make_shared<rancher_api>(o), so);
}

}  // namespace

bool is_standin_command(const std::string& name) { return known().count(name) != 0; }

int run_standin_command(const std::string& name, const std::vector<std::string>& args) {
  for (auto& a : args)
    if (a == "-h" || a == "--help") {
      usage(name, "");
      return 0;
    }
  std::string err;
  auto f = parse(name, args, err);
  if (!f) return usage(name, err);

  const sigset_t set = k8s::block_termination_signals();  // before any thread starts

  std::vector<std::unique_ptr<standin_server>> servers;
  std::vector<std::pair<std::string, std::string>> env;
  try {
    if (name == "grafana") {
      servers.push_back(make_grafana(*f, f->one("--listen", "127.0.0.1:0"), ""));
    } else if (name == "rancher") {
      servers.push_back(make_rancher(*f, f->one("--listen", "127.0.0.1:0"), f->all("--token")));
    } else if (name == "trickster") {
      trickster_options o;
      o.token = f->one("--token");
      o.grafana_url = f->one("--grafana-url", o.grafana_url);
      o.grafana_token = f->one("--grafana-token");
      o.owner_id = std::stoll(f->one("--owner-id", "1"));
      standin_options so{f->one("--listen", "127.0.0.1:0"), f->tls, f->one("--faults")};
      servers.push_back(std::make_unique<standin_server>("trickster", std::make_shared<trickster_backend>(o), so));
      env.emplace_back("TRICKSTER_TOKEN", o.token);
    } else {  // monitoring: all three, wired
      std::string key = "c5c3sim-" + random_hex(16);
      auto grafana = make_grafana(*f, f->one("--grafana-listen", "127.0.0.1:0"), key);
      grafana->start();
      standin_server* g = grafana.get();
      trickster_options o;
      o.token = f->one("--token", "c5c3sim-platform-token");
      o.grafana_url = g->url();
      o.grafana_token = key;
      o.owner_id = std::stoll(f->one("--owner-id", "1"));
      o.link.issue_token = [g](const std::string& org) {
        return g->with_core([&](standin_core& c) {
          auto& api = static_cast<grafana_api&>(c);
          auto id = api.add_org("client-org-" + org);
          std::string k = "c5c3sim-org-" + org + "-" + random_hex(8);
          api.add_api_key(k, id, "Admin");
          return k;
        });
      };
      o.link.ensure_folder = [g](const std::string& title) {
        return g->with_core([&](standin_core& c) { return static_cast<grafana_api&>(c).ensure_folder(1, title); });
      };
      o.link.ensure_datasource = [g](const std::string& ds, const std::string& url) {
        g->with_core([&](standin_core& c) { static_cast<grafana_api&>(c).ensure_datasource(1, ds, "prometheus", url); });
      };
      standin_options so{f->one("--trickster-listen", "127.0.0.1:0"), f->tls, ""};
      servers.push_back(std::move(grafana));
      servers.push_back(std::make_unique<standin_server>("trickster", std::make_shared<trickster_backend>(o), so));
      auto seeds = f->all("--rancher-token");
      std::string rancher_token = "token-c5c3s:" + random_hex(20) + ":user-c5c3:720h";
      if (seeds.empty()) seeds.push_back(rancher_token);
      servers.push_back(make_rancher(*f, f->one("--rancher-listen", "127.0.0.1:0"), seeds));
      auto seed = rancher_api::parse_seed(seeds.front());
      env.emplace_back("GRAFANA_API_KEY", key);
      env.emplace_back("TRICKSTER_TOKEN", o.token);
      env.emplace_back("RANCHER_TOKEN", seed.full());
    }
    for (auto& s : servers) s->start();
  } catch (const std::exception& e) {
    std::cerr << "c5c3-sim " << name << ": " << e.what() << "\n";
    return 1;
  }
  for (auto& s : servers) {
    std::string upper;
    for (char c : s->name()) upper.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
    env.emplace_back(upper + "_URL", s->url() + (s->name() == "rancher" ? "/v3" : ""));
    if (f->tls) {
      std::string ca = f->one("--env-out", "standin") + "." + s->name() + "-ca.pem";
      std::ofstream(ca) << s->ca_pem();
      env.emplace_back(upper + "_CA_FILE", ca);
    }
    std::cout << s->name() << " listening on " << s->url() << std::endl;
  }
  if (auto out = f->one("--env-out"); !out.empty()) {
    std::ofstream e(out + ".tmp");
    for (auto& [k, v] : env) e << k << "=" << v << "\n";
    e.close();
    std::rename((out + ".tmp").c_str(), out.c_str());
  }
  k8s::wait_for_termination(set);
  for (auto& s : servers) s->stop();
  return 0;
}

}  // namespace c5c3::sim::monitoring
