#include "actors/operator/embedded_paths.hpp"

#include <algorithm>
#include <filesystem>

#ifndef C5C3_SOURCE_DIR
#define C5C3_SOURCE_DIR ""
#endif

namespace fs = std::filesystem;

namespace c5c3::operator_ {

bool has_manifests(const std::string& root) {
  if (root.empty()) return false;
  std::error_code ec;
  embedded_manifests m{root};
  return fs::is_directory(m.crds(), ec) && fs::is_directory(m.samples(), ec) && fs::is_directory(m.sim_crds(), ec);
}

config::expected<embedded_manifests> find_manifests(const std::string& flag, const std::vector<std::string>& candidates) {
  if (!flag.empty()) {
    if (has_manifests(flag)) return embedded_manifests{fs::absolute(flag).lexically_normal().string()};
    return std::string("--source-dir ") + flag + " does not hold deploy/crds, deploy/samples and sim/crds";
  }
  std::string looked;
  for (const auto& c : candidates) {
    if (c.empty()) continue;
    if (has_manifests(c)) return embedded_manifests{fs::absolute(c).lexically_normal().string()};
    looked += (looked.empty() ? "" : ", ") + c;
  }
  return "--embedded needs deploy/crds, deploy/samples and sim/crds; not found in " +
         (looked.empty() ? std::string("any default folder") : looked) + ": give --source-dir";
}

std::vector<std::string> default_manifest_roots() {
  std::vector<std::string> roots{C5C3_SOURCE_DIR};
  std::error_code ec;
  auto exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto dir = exe.parent_path();
    roots.push_back((dir.parent_path() / "share" / "c5c3-operator").string());
    roots.push_back(dir.parent_path().parent_path().string());
  }
  return roots;
}

config::expected<std::string> data_dir_of(const std::string& flag, const config::env_lookup& env) {
  if (!flag.empty()) return std::string(flag);
  if (auto x = env("XDG_STATE_HOME"); x && !x->empty()) return *x + "/c5c3-operator";
  if (auto h = env("HOME"); h && !h->empty()) return *h + "/.local/state/c5c3-operator";
  return k8s::fail("--embedded needs a data directory: give --data-dir (neither XDG_STATE_HOME nor HOME is set)");
}

std::vector<std::string> yaml_files(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(e.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::string> sample_files(const embedded_manifests& m, bool monitoring) {
  std::vector<std::string> out;
  std::vector<std::string> dirs{m.samples(), m.samples() + "/world", m.samples() + "/orders"};
  if (monitoring) dirs.push_back(m.samples() + "/monitoring");
  for (const auto& dir : dirs) {
    auto files = yaml_files(dir);
    out.insert(out.end(), files.begin(), files.end());
  }
  return out;
}

}  // namespace c5c3::operator_
