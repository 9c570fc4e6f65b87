#include "config/token_file.hpp"

#include <sys/stat.h>

#include <fstream>
#include <sstream>

namespace c5c3::config {

token_file_provider::token_file_provider(std::string path, std::string fallback)
    : path_(std::move(path)), fallback_(std::move(fallback)) {}

std::optional<std::string> token_file_provider::bearer_token(std::string* error) {
  std::lock_guard lock(mu_);
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0) {
    if (have_) return token_;
    if (!fallback_.empty()) return fallback_;
    if (error) *error = "cannot read the token file " + path_;
    return std::nullopt;
  }
  bool changed = !have_ || stale_ || st.st_ino != ino_ || st.st_size != size_ || st.st_mtim.tv_sec != mtime_.tv_sec ||
                 st.st_mtim.tv_nsec != mtime_.tv_nsec;
  if (!changed) return token_;
  std::ifstream in(path_, std::ios::binary);
  if (!in) {
    if (have_) return token_;
    if (error) *error = "cannot read the token file " + path_;
    return std::nullopt;
  }
  std::stringstream ss;
  ss << in.rdbuf();
  std::string t = ss.str();
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r' || t.back() == ' ')) t.pop_back();
  ++reads_;
  if (t.empty()) {
    if (have_) return token_;
    if (error) *error = "the token file " + path_ + " is empty";
    return std::nullopt;
  }
  token_ = std::move(t);
  have_ = true;
  stale_ = false;
  ino_ = st.st_ino;
  size_ = st.st_size;
  mtime_ = st.st_mtim;
  return token_;
}

bool token_file_provider::invalidate() {
  std::lock_guard lock(mu_);
  // Force a read next time: the file may have been rotated within the same
  // second with the same size.
  stale_ = true;
  return true;
}

int token_file_provider::reads() const {
  std::lock_guard lock(mu_);
  return reads_;
}

}  // namespace c5c3::config
