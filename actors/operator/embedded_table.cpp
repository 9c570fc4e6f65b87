#include "actors/operator/embedded_table.hpp"

#include "actors/operator/live_table.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>

namespace c5c3::operator_ {

namespace {

// Columns and rows of the terminal on stdout (0 when unknown).
std::pair<std::size_t, std::size_t> terminal_size() {
  winsize ws{};
  if (::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) return {ws.ws_col, ws.ws_row};
  return {0, 0};
}

// Every order of every c5c3.io order kind the emulator serves.
std::vector<k8s::object> orders_of(const sim::apiserver& server) {
  std::vector<k8s::object> out;
  for (const auto& crd : server.list_objects("customresourcedefinitions.apiextensions.k8s.io")) {
    if (!live::is_order_crd(crd)) continue;
    auto resource = std::string(crd.get_string({"spec", "names", "plural"})) + ".c5c3.io";
    for (auto& o : server.list_objects(resource)) out.push_back(std::move(o));
  }
  return out;
}

void write_all(const std::string& s) {
  std::fwrite(s.data(), 1, s.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

embedded_table::embedded_table(const sim::apiserver& server, std::string header)
    : server_(server), header_(std::move(header)), terminal_(::isatty(STDOUT_FILENO) == 1) {
  thread_ = std::thread([this] { run(); });
}

embedded_table::~embedded_table() { stop(); }

void embedded_table::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    cv_.notify_one();
  }
  if (thread_.joinable()) thread_.join();
}

void embedded_table::run() {
  live::snapshot shown;
  for (;;) {
    auto now = k8s::clock::now();
    auto rows = live::snapshot_of(orders_of(server_));
    if (terminal_) {
      // Home, clear the screen, draw what fits: the header (2 lines), the
      // titles, the rows, "... and N more" and the count.
      auto [cols, lines] = terminal_size();
      std::size_t max_rows = lines > 6 ? lines - 6 : (lines > 0 ? 1 : 0);
      write_all("\x1b[H\x1b[2J" + live::render_table(rows, now, cols, header_ + "\n\n", max_rows));
    } else {
      std::string out;
      for (const auto& l : live::changes(shown, rows, now)) out += l + "\n";
      if (!out.empty()) write_all(out);
    }
    shown = std::move(rows);
    std::unique_lock lock(mu_);
    if (cv_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; })) return;
  }
}

}  // namespace c5c3::operator_
