// Showing that every rule of a ClusterRole of deploy/rbac is needed, in
// process (issue 18, "RBAC in the emulator"; the process-level driver is
// rbac_rules.py): the ClusterRole re-written without one rule, the named
// steps of a scenario run against it, and the 403s the operator met,
// collected from its log and from the orders' conditions, matched against
// the rule's resources.
#pragma once

#include "k8s/yaml.hpp"
#include "tests/captured_log.hpp"
#include "tests/rabbitmqvhost_actor/emulator_fixture.hpp"

#include <boost/test/unit_test.hpp>
#include <yaml-cpp/yaml.h>

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace c5c3::testing::rbac {

// One rule of the ClusterRole: "rule I: groups resources [verbs]", and how
// kube's 403 names each of its resources ('resource "r" in API group "g"').
struct rule {
  std::size_t index = 0;
  std::string text;
  std::vector<std::string> refusals;
  bool finalizers = false;  // only finalizers: asked for by OwnerReferencesPermissionEnforcement
};

// The YAML documents of `path` and the index of its ClusterRole named `role`.
struct role_file {
  std::vector<YAML::Node> docs;
  std::size_t role = 0;
  YAML::Node rules() const { return docs[role]["rules"]; }
};

inline role_file load_role_file(const std::string& path, const std::string& role) {
  role_file out;
  out.docs = YAML::LoadAllFromFile(path);
  for (std::size_t i = 0; i < out.docs.size(); ++i)
    if (out.docs[i]["kind"].as<std::string>("") == "ClusterRole" &&
        out.docs[i]["metadata"]["name"].as<std::string>("") == role)
      out.role = i;
  return out;
}

// The rules `pick` selects (by their apiGroups and resources).
inline std::vector<rule> rules_of(const role_file& f,
                                  const std::function<bool(const std::vector<std::string>& groups,
                                                           const std::vector<std::string>& resources)>& pick) {
  std::vector<rule> out;
  const auto rules = f.rules();
  for (std::size_t i = 0; i < rules.size(); ++i) {
    auto strings = [&](const char* key) {
      std::vector<std::string> v;
      for (const auto& x : rules[i][key]) v.push_back(x.as<std::string>());
      return v;
    };
    const auto groups = strings("apiGroups"), resources = strings("resources"), verbs = strings("verbs");
    if (!pick(groups, resources)) continue;
    rule r{i, fmt::format("rule {}: {} {} [{}]", i, fmt::join(groups, ","), fmt::join(resources, ","),
                          fmt::join(verbs, ",")),
           {}, !resources.empty()};
    for (const auto& res : resources) {
      r.finalizers = r.finalizers && res.ends_with("/finalizers");
      for (const auto& g : groups) r.refusals.push_back(fmt::format(R"(resource "{}" in API group "{}")", res, g));
    }
    out.push_back(std::move(r));
  }
  return out;
}

// `f` written to `path` without rule `drop` (all of it when not given).
inline void write_without(role_file f, const std::string& path, std::optional<std::size_t> drop) {
  YAML::Node rules(YAML::NodeType::Sequence);
  for (std::size_t i = 0; i < f.rules().size(); ++i)
    if (!drop || *drop != i) rules.push_back(f.rules()[i]);
  f.docs[f.role]["rules"] = rules;
  std::ofstream out(path);
  for (const auto& d : f.docs) {
    YAML::Emitter e;
    e << d;
    out << "---\n" << e.c_str() << "\n";
  }
}

// Every line of `log` holding a 403 ("is forbidden", or the admission's
// "can't set finalizers"), with JSON's \" unescaped.
inline std::vector<std::string> logged_refusals(captured_log& log) {
  std::vector<std::string> lines;
  {
    std::lock_guard<std::mutex> g(log.mu);
    lines = log.lines;
  }
  std::vector<std::string> out;
  for (auto& line : lines) {
    if (line.find("is forbidden") == std::string::npos && line.find("can't set finalizers") == std::string::npos)
      continue;
    for (auto at = line.find("\\\""); at != std::string::npos; at = line.find("\\\"", at + 1)) line.erase(at, 1);
    out.push_back(std::move(line));
  }
  return out;
}

// The first of `refusals` that names a resource of `r`, or "".
inline std::string naming(const rule& r, const std::vector<std::string>& refusals) {
  for (const auto& line : refusals) {
    for (const auto& needle : r.refusals)
      if (line.find(needle) != std::string::npos) return line;
    if (r.finalizers && line.find("you can't set finalizers on") != std::string::npos) return line;
  }
  return "";
}

// A step may still complete this long after the first 403 (5 s;
// C5C3_RBAC_GRACE_SECONDS to see whether a failed step was only slow); a
// step that nothing refuses has the whole timeout.
inline const std::chrono::seconds refusal_grace{[] {
  const char* env = std::getenv("C5C3_RBAC_GRACE_SECONDS");
  return env && *env ? std::atoi(env) : 5;
}()};
inline constexpr std::chrono::seconds step_timeout{60};

// Whether rule `index` is checked: C5C3_RBAC_ONLY=3,7 picks rules; unset, all.
inline bool chosen(std::size_t index) {
  const char* env = std::getenv("C5C3_RBAC_ONLY");
  if (!env || !*env) return true;
  const std::string list = std::string(",") + env + ",";
  return list.find("," + std::to_string(index) + ",") != std::string::npos;
}

// Waits for `done`: false once `step_timeout` passed, or `refusal_grace`
// after `refused()` first held something while it was pending.
inline bool step(const std::string& name, const std::function<bool()>& done,
                 const std::function<std::vector<std::string>()>& refused) {
  using clock = std::chrono::steady_clock;
  std::optional<clock::time_point> first;
  bool completed = false;
  eventually(
      [&] {
        if ((completed = done())) return true;
        const auto now = clock::now();
        if (!first && !refused().empty()) first = now;
        return first && now - *first > refusal_grace;  // given up
      },
      static_cast<int>(step_timeout.count()));
  if (!completed) BOOST_TEST_MESSAGE("step '" << name << "' did not complete");
  return completed;
}

// What one attempt of a scenario gave: the step that failed ("" if none)
// and every 403 seen.
struct attempt_result {
  std::string failed_step;
  std::vector<std::string> refusals;
};

// The log of the attempt in scope goes to `log` (the root logger restored after).
struct capture_root_log {
  k8s::log::logger previous = k8s::log::root();
  explicit capture_root_log(captured_log& log) {
    k8s::log::set_root(k8s::log::logger({k8s::log::level::info, 0, log.sink(), {}}));
  }
  ~capture_root_log() { k8s::log::set_root(previous); }
};

// The files of deploy/crds but `later` (a CRD the scenario installs once
// every host has subscribed: only the CRD watch can tell them it arrived),
// and that CRD as an object to create.
inline std::vector<std::string> deploy_crds_but(const std::string& later) {
  std::vector<std::string> out;
  for (const auto& f : std::filesystem::directory_iterator(source_dir() + "/deploy/crds"))
    if (f.path().filename() != later) out.push_back(f.path().string());
  return out;
}
inline k8s::object deploy_crd(const std::string& file) {
  auto docs = k8s::read_yaml_file(source_dir() + "/deploy/crds/" + file);
  BOOST_TEST_REQUIRE((docs && docs->size() == 1u), file);
  return k8s::object(std::move(docs->front()));
}

// One attempt on a fresh fixture F(log, dir, args...) (its scenario(), then
// its refusals()), with the root log captured; `dir`, where F writes its
// files, removed after.
template <class F, class... Args>
attempt_result attempt_on(const std::string& dir, Args&&... args) {
  captured_log log;
  capture_root_log capture(log);
  attempt_result out;
  {
    F f(log, dir, std::forward<Args>(args)...);
    out.failed_step = f.scenario();
    out.refusals = f.refusals();
  }
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  return out;
}

// The baseline: every step passed and nothing was refused.
inline void expect_all_steps_pass(const attempt_result& a) {
  BOOST_TEST(a.failed_step == "");
  BOOST_TEST(a.refusals.empty(), (a.refusals.empty() ? "" : a.refusals.front()));
}

// The checks of one removed rule: some step failed, and a 403 names it.
inline void expect_needed(const rule& r, const attempt_result& a) {
  const auto hit = naming(r, a.refusals);
  BOOST_TEST(a.failed_step != "", "no step failed without it");
  BOOST_TEST(hit != "", "no 403 names its resources; refused: " << (a.refusals.empty() ? "nothing" : a.refusals.front()));
  BOOST_TEST_MESSAGE(r.text << ": "
                            << (a.failed_step.empty() ? "every step passed"
                                                      : "step '" + a.failed_step + "' failed; " + hit.substr(0, 300)));
}

// Each of `rules` (those C5C3_RBAC_ONLY picks) removed in turn:
// `attempt(index)` runs the scenario without it.
inline void expect_each_needed(const std::vector<rule>& rules,
                               const std::function<attempt_result(std::size_t)>& attempt) {
  for (const auto& r : rules)
    if (chosen(r.index)) BOOST_TEST_CONTEXT(r.text) { expect_needed(r, attempt(r.index)); }
}

}  // namespace c5c3::testing::rbac
