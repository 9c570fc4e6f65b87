// A TCP proxy on 127.0.0.1 in front of a local port, for tests that need a
// server to stop answering without closing anything: after go_dark() no byte
// passes in either direction on the connections it carries, and new
// connections are accepted and never answered (a network partition, a hung
// API server). TLS passes through untouched, so a client verifying the
// upstream's certificate for 127.0.0.1 works through it.
//
//   c5c3::testing::tcp_proxy proxy(server.port());
//   ... point a client at proxy.port() ...
//   proxy.go_dark();
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

namespace c5c3::testing {

class tcp_proxy {
 public:
  explicit tcp_proxy(std::uint16_t upstream) : upstream_(upstream) {
    listen_ = ::socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    ::setsockopt(listen_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a = loopback(0);
    if (::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(listen_, 64) != 0)
      throw std::runtime_error("tcp_proxy: cannot listen");
    socklen_t len = sizeof a;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }

  ~tcp_proxy() {
    stopping_ = true;
    acceptor_.join();
    std::vector<std::thread> pumps;
    {
      std::lock_guard<std::mutex> l(mu_);
      pumps.swap(pumps_);
    }
    for (auto& t : pumps) t.join();
    std::lock_guard<std::mutex> l(mu_);
    for (int fd : fds_) ::close(fd);
    ::close(listen_);
  }

  tcp_proxy(const tcp_proxy&) = delete;
  tcp_proxy& operator=(const tcp_proxy&) = delete;

  std::uint16_t port() const { return port_; }
  // From now on nothing passes; connections stay open.
  void go_dark() { dark_ = true; }
  std::uint64_t accepted() const { return accepted_.load(); }

 private:
  static sockaddr_in loopback(std::uint16_t port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
  }

  // Waits (in steps, to notice stopping_) until `fd` is readable.
  bool readable(int fd) {
    while (!stopping_) {
      pollfd p{fd, POLLIN, 0};
      int n = ::poll(&p, 1, 50);
      if (n > 0) return true;
      if (n < 0) return false;
    }
    return false;
  }

  void keep(int fd) {
    std::lock_guard<std::mutex> l(mu_);
    fds_.push_back(fd);
  }

  void start_pump(int from, int to) {
    std::lock_guard<std::mutex> l(mu_);
    pumps_.emplace_back([this, from, to] { pump(from, to); });
  }

  void accept_loop() {
    while (readable(listen_)) {
      int c = ::accept(listen_, nullptr, nullptr);
      if (c < 0) continue;
      ++accepted_;
      keep(c);
      if (dark_) {
        start_pump(c, -1);  // read and drop: accepted, never answered
        continue;
      }
      int u = ::socket(AF_INET, SOCK_STREAM, 0);
      sockaddr_in a = loopback(upstream_);
      if (::connect(u, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(u);
        ::shutdown(c, SHUT_RDWR);
        continue;
      }
      keep(u);
      start_pump(c, u);
      start_pump(u, c);
    }
  }

  // Copies from -> to until either side ends; once dark, drops what it reads.
  void pump(int from, int to) {
    char buf[16384];
    while (readable(from)) {
      auto n = ::read(from, buf, sizeof buf);
      if (n <= 0) break;
      if (dark_ || to < 0) continue;
      for (ssize_t off = 0; off < n;) {
        auto w = ::send(to, buf + off, static_cast<std::size_t>(n - off), MSG_NOSIGNAL);
        if (w <= 0) return;
        off += w;
      }
    }
    if (to >= 0 && !dark_) ::shutdown(to, SHUT_WR);
  }

  std::uint16_t upstream_;
  std::uint16_t port_ = 0;
  int listen_ = -1;
  std::atomic<bool> dark_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<std::uint64_t> accepted_{0};
  std::thread acceptor_;
  std::mutex mu_;
  std::vector<std::thread> pumps_;
  std::vector<int> fds_;
};

}  // namespace c5c3::testing
