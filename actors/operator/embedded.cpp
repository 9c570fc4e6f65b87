#include "actors/operator/embedded.hpp"

#include "actors/operator/embedded_paths.hpp"
#include "actors/operator/embedded_table.hpp"
#include "actors/operator/embedded_world.hpp"
#include "k8s/client/blocking.hpp"
#include "k8s/yaml.hpp"
#include "sim/apiserver/apiserver.hpp"
#include "sim/monitoring/standin_server.hpp"
#include "sim/monitoring/trickster.hpp"

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

namespace fs = std::filesystem;

namespace c5c3::operator_ {

namespace {

// The field manager of what the embedded default applies.
constexpr std::string_view field_manager = "c5c3-operator-embedded";
// Written once the samples are applied: later starts leave them to the user.
constexpr std::string_view samples_marker = "samples-applied";
// The embedded backend stand-in's token (a loopback test peer, not a secret).
constexpr std::string_view backend_token = "c5c3-embedded-platform-token";

// Server-side applies every document of `file`; false with `error` set on the first failure.
bool apply_file(k8s::client& c, const std::string& file, bool force, std::string& error) {
  std::string err;
  auto docs = k8s::read_yaml_file(file, &err);
  if (!docs) {
    error = file + ": " + err;
    return false;
  }
  for (auto& d : *docs) {
    if (!d.IsObject()) continue;
    k8s::object obj(std::move(d));
    auto r = k8s::wait_for<k8s::object>([&](k8s::callback<k8s::object> cb) {
      c.apply(obj, {std::string(field_manager), force, false, false}, std::move(cb));
    });
    if (!r) {
      error = file + ": " + std::string(obj.kind()) + " " + obj.key().to_string() + ": " + r.error().describe();
      return false;
    }
  }
  return true;
}

class stack final : public embedded_stack {
 public:
  stack(const config::operator_options& opts, const embedded_manifests& m, std::string data_dir,
        k8s::log::logger log)
      : m_(m), data_dir_(std::move(data_dir)), log_(std::move(log)),
        monitoring_(opts.runs("monitoring")), own_backend_(monitoring_ && opts.monitoring.base_url.empty()) {
    sim::apiserver_options so;
    so.listen = "127.0.0.1:" + std::to_string(opts.embedded_port);
    so.data_dir = data_dir_;
    so.crd_dirs = {m_.sim_crds()};  // the simulated kinds, created when missing
    server_ = std::make_unique<sim::apiserver>(so);
    kubeconfig_ = (fs::path(data_dir_) / "kubeconfig").string();
  }

  ~stack() override {
    stop();
    if (lock_fd_ >= 0) ::close(lock_fd_);
  }

  // One process per data directory: an exclusive lock on <data-dir>/lock, held until exit.
  bool lock(std::string& error) {
    auto path = (fs::path(data_dir_) / "lock").string();
    lock_fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (lock_fd_ < 0) {
      error = "--data-dir " + data_dir_ + ": cannot open " + path;
      return false;
    }
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
      error = "--data-dir " + data_dir_ + " is in use by another c5c3-operator --embedded";
      return false;
    }
    return true;
  }

  // Starts everything but the table; false with `error` set when it cannot.
  bool start(std::string& error) {
    try {
      server_->start();
      server_->write_kubeconfig(kubeconfig_);
    } catch (const std::exception& e) {
      error = std::string("--embedded: the API server emulator cannot start: ") + e.what();
      return false;
    }
    if (own_backend_) {
      sim::monitoring::trickster_options to;
      to.token = std::string(backend_token);
      backend_ = std::make_unique<sim::monitoring::standin_server>(
          "trickster", std::make_shared<sim::monitoring::trickster_backend>(to));
      try {
        backend_->start();
      } catch (const std::exception& e) {
        error = std::string("--embedded: the backend stand-in cannot start: ") + e.what();
        return false;
      }
    }
    io_thread_ = std::thread([this] { io_.run(); });
    auto conn = config::load_connection({kubeconfig_, ""});
    if (!conn) {
      error = "--embedded: " + conn.error();
      return false;
    }
    auto client = k8s::client::create(io_, conn->client);
    if (!client) {
      error = "--embedded: " + client.error();
      return false;
    }
    client_ = *client;
    for (const auto& f : yaml_files(m_.crds()))
      if (!apply_file(*client_, f, true, error)) return false;
    log_.info("Applied the CRDs", {{"dir", m_.crds()}});
    auto marker = fs::path(data_dir_) / samples_marker;
    if (!fs::exists(marker)) {
      for (const auto& f : sample_files(m_, monitoring_))
        if (!apply_file(*client_, f, false, error)) return false;
      std::ofstream(marker) << "The samples were applied; delete this file to apply them again.\n";
      log_.info("Applied the samples", {{"dir", m_.samples()}});
    } else {
      log_.info("Samples applied on an earlier start; left as they are", {{"dataDir", data_dir_}});
    }
    world_ = std::make_unique<embedded_world>(client_, log_.named("world"));
    // The operator's first passes then meet a world that has answered the
    // samples (the RabbitmqCluster ready, the store valid).
    if (!world_->wait_settled(std::chrono::seconds(10)))
      log_.info("The simulated world is still busy; starting the operator anyway");
    std::cerr << "c5c3-operator --embedded: API server emulator at " << server_->url() << ", state in "
              << data_dir_ << "\n"
              << "Point kubectl at it:\n"
              << "  export KUBECONFIG=" << kubeconfig_ << "\n"
              << "  kubectl get c5c3 -A\n"
              << std::flush;
    return true;
  }

  const std::string& kubeconfig_path() const override { return kubeconfig_; }

  std::pair<std::string, std::string> monitoring_backend() const override {
    if (!backend_) return {};
    return {backend_->url(), std::string(backend_token)};
  }

  void start_table() override {
    if (table_) return;
    table_ = std::make_unique<embedded_table>(*server_, "KUBECONFIG=" + kubeconfig_ + "  (" + server_->url() + ")   Ctrl-C stops");
  }

  void stop() override {
    if (stopped_) return;
    stopped_ = true;
    if (table_) table_->stop();
    if (world_) world_->stop();
    world_.reset();
    client_.reset();
    guard_.reset();
    io_.stop();
    if (io_thread_.joinable()) io_thread_.join();
    server_->stop();
    if (backend_) backend_->stop();
  }

 private:
  embedded_manifests m_;
  std::string data_dir_;
  k8s::log::logger log_;
  std::string kubeconfig_;
  std::unique_ptr<sim::apiserver> server_;
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_ = boost::asio::make_work_guard(io_);
  std::thread io_thread_;
  std::shared_ptr<k8s::client> client_;
  std::unique_ptr<embedded_world> world_;
  std::unique_ptr<embedded_table> table_;
  bool stopped_ = false;
  int lock_fd_ = -1;
  bool monitoring_ = false;
  bool own_backend_ = false;
  std::unique_ptr<sim::monitoring::standin_server> backend_;
};

}  // namespace

std::unique_ptr<embedded_stack> start_embedded(const config::operator_options& opts, const config::env_lookup& env,
                                               const k8s::log::logger& log, std::string& error) {
  auto m = find_manifests(opts.source_dir, default_manifest_roots());
  if (!m) {
    error = m.error();
    return nullptr;
  }
  auto dir = data_dir_of(opts.data_dir, env);
  if (!dir) {
    error = dir.error();
    return nullptr;
  }
  std::error_code ec;
  fs::create_directories(*dir, ec);
  if (ec || !fs::is_directory(*dir)) {
    error = "--data-dir " + *dir + " cannot be created: " + ec.message();
    return nullptr;
  }
  fs::permissions(*dir, fs::perms::owner_all, ec);  // it holds the admin token and the CA key
  // The emulator writes to clients that may have gone; a closed socket must not end the process.
  std::signal(SIGPIPE, SIG_IGN);
  auto s = std::make_unique<stack>(opts, *m, *dir, log);
  if (!s->lock(error) || !s->start(error)) return nullptr;
  return s;
}

}  // namespace c5c3::operator_
