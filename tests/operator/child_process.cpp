#include "tests/operator/child_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

namespace c5c3::test {

namespace {

std::vector<char*> c_argv(std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (auto& a : argv) out.push_back(a.data());
  out.push_back(nullptr);
  return out;
}

int ms_until(std::chrono::steady_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
  return left.count() < 0 ? 0 : static_cast<int>(left.count());
}

}  // namespace

child_process::child_process(std::vector<std::string> argv) {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  auto args = c_argv(argv);
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // The child starts with the default signal mask and dispositions.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::dup2(p[1], 1);
    ::dup2(p[1], 2);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(p[1]);
  fd_ = p[0];
}

child_process::~child_process() {
  if (!reaped_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int st = 0;
    ::waitpid(pid_, &st, 0);
  }
  if (fd_ >= 0) ::close(fd_);
}

std::optional<std::string> child_process::next_line(std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      lines_.push_back(line);
      return line;
    }
    if (fd_ < 0) return std::nullopt;
    pollfd pfd{fd_, POLLIN, 0};
    int r = ::poll(&pfd, 1, ms_until(deadline));
    if (r == 0) return std::nullopt;
    if (r < 0) continue;
    char buf[4096];
    auto n = ::read(fd_, buf, sizeof buf);
    if (n <= 0) {
      ::close(fd_);
      fd_ = -1;
      if (!buffer_.empty()) buffer_ += '\n';
      continue;
    }
    buffer_.append(buf, static_cast<std::size_t>(n));
  }
}

std::optional<std::string> child_process::wait_for_line(const std::string& needle,
                                                        std::chrono::steady_clock::time_point deadline) {
  while (auto l = next_line(deadline))
    if (l->find(needle) != std::string::npos) return l;
  return std::nullopt;
}

void child_process::drain(std::chrono::steady_clock::time_point deadline) {
  while (next_line(deadline)) {
  }
}

void child_process::signal(int sig) {
  if (!reaped_) ::kill(pid_, sig);
}

std::optional<int> child_process::wait(std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    int st = 0;
    auto r = ::waitpid(pid_, &st, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      if (WIFEXITED(st)) return WEXITSTATUS(st);
      if (WIFSIGNALED(st)) return -WTERMSIG(st);
      return std::nullopt;
    }
    if (std::chrono::steady_clock::now() >= deadline) return std::nullopt;
    // Reading the output meanwhile keeps a chatty child from blocking on a full pipe.
    next_line(std::min(deadline, std::chrono::steady_clock::now() + std::chrono::milliseconds(20)));
  }
}

http_result http_get(int port, const std::string& path) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    throw std::runtime_error("connect to port " + std::to_string(port) + " failed: " + std::strerror(errno));
  }
  std::string req = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
  ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string raw;
  char buf[8192];
  for (;;) {
    auto n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    raw.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  auto end = raw.find("\r\n\r\n");
  if (raw.size() < 12 || end == std::string::npos) throw std::runtime_error("no HTTP answer: " + raw);
  http_result r;
  r.status = std::atoi(raw.substr(9, 3).c_str());
  r.headers = raw.substr(0, end);
  r.body = raw.substr(end + 4);
  // Chunked answers are decoded.
  if (r.headers.find("chunked") != std::string::npos) {
    std::string body, in = r.body;
    std::size_t pos = 0;
    for (;;) {
      auto eol = in.find("\r\n", pos);
      if (eol == std::string::npos) break;
      auto size = std::stoul(in.substr(pos, eol - pos), nullptr, 16);
      if (size == 0) break;
      body += in.substr(eol + 2, size);
      pos = eol + 2 + size + 2;
    }
    r.body = body;
  }
  return r;
}

std::pair<int, std::string> run_with_input(const std::vector<std::string>& argv_in, const std::string& input) {
  auto argv = argv_in;
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  auto args = c_argv(argv);
  int pid = ::fork();
  if (pid == 0) {
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(out[1], 2);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  std::thread writer([fd = in[1], &input] {
    std::size_t off = 0;
    while (off < input.size()) {
      auto n = ::write(fd, input.data() + off, input.size() - off);
      if (n <= 0) break;
      off += static_cast<std::size_t>(n);
    }
    ::close(fd);
  });
  std::string output;
  char buf[4096];
  for (;;) {
    auto n = ::read(out[0], buf, sizeof buf);
    if (n <= 0) break;
    output.append(buf, static_cast<std::size_t>(n));
  }
  writer.join();
  ::close(out[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, output};
}

std::string find_in_path(const std::string& tool) {
  const char* path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= p.size()) {
    auto end = p.find(':', start);
    if (end == std::string::npos) end = p.size();
    std::string dir = p.substr(start, end - start);
    if (!dir.empty() && ::access((dir + "/" + tool).c_str(), X_OK) == 0) return dir;
    start = end + 1;
  }
  return {};
}

}  // namespace c5c3::test
