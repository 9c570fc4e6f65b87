// A bearer token read from a file and read again when the file changes (a
// rotated service-account token: kubelet swaps the file, so the inode, size
// or modification time moves). The last good value is kept if a read fails.
#pragma once

#include "k8s/client/credentials.hpp"

#include <ctime>
#include <mutex>
#include <string>
#include <sys/types.h>

namespace c5c3::config {

class token_file_provider : public k8s::credential_provider {
 public:
  // `fallback` is used while the file has never been read (kubeconfig token).
  explicit token_file_provider(std::string path, std::string fallback = {});
  std::optional<std::string> bearer_token(std::string* error) override;
  bool invalidate() override;
  int reads() const;

 private:
  std::string path_;
  std::string fallback_;
  mutable std::mutex mu_;
  std::string token_;
  bool have_ = false;
  bool stale_ = false;
  ino_t ino_ = 0;
  off_t size_ = 0;
  timespec mtime_{};
  int reads_ = 0;
};

}  // namespace c5c3::config
