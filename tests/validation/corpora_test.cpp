// Every CRD of deploy/crds (and the third-party CRDs of sim/crds) compiles;
// every admission-rejection corpus case of tests/corpora is judged as a
// kube-apiserver would (prune, default, validate; a transition case is an
// update of its base); every sample of deploy/samples validates clean.
#include "helpers.hpp"

#include "k8s/yaml.hpp"

#include <filesystem>
#include <map>
#include <tuple>

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;
namespace fs = std::filesystem;

namespace {

const fs::path source_dir = C5C3_SOURCE_DIR;

struct crd_version {
  std::string group, kind;
  std::shared_ptr<const compiled_schema> schema;
};

// (apiVersion, kind) -> compiled schema of that served version.
using crd_index = std::map<std::pair<std::string, std::string>, crd_version>;

std::vector<fs::path> yaml_files(const fs::path& dir, bool recursive) {
  std::vector<fs::path> out;
  if (!fs::exists(dir)) return out;
  auto add = [&](const fs::directory_entry& e) {
    if (e.is_regular_file() && (e.path().extension() == ".yaml" || e.path().extension() == ".yml"))
      out.push_back(e.path());
  };
  if (recursive)
    for (auto& e : fs::recursive_directory_iterator(dir)) add(e);
  else
    for (auto& e : fs::directory_iterator(dir)) add(e);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<k8s::json_document> read_docs(const fs::path& p) {
  std::string err;
  auto docs = k8s::read_yaml_file(p.string(), &err);
  BOOST_REQUIRE_MESSAGE(docs, p.string() << ": " << err);
  return std::move(*docs);
}

void load_crds(const fs::path& dir, crd_index& index, std::size_t& count) {
  for (auto& file : yaml_files(dir, false)) {
    for (auto& doc : read_docs(file)) {
      if (k8s::get_string(doc, {"kind"}) != "CustomResourceDefinition") continue;
      std::string group(k8s::get_string(doc, {"spec", "group"}));
      std::string kind(k8s::get_string(doc, {"spec", "names", "kind"}));
      auto* versions = k8s::find(doc, {"spec", "versions"});
      BOOST_REQUIRE_MESSAGE(versions && versions->IsArray(), file.string() << ": no spec.versions");
      for (rapidjson::SizeType i = 0; i < versions->Size(); ++i) {
        auto& v = (*versions)[i];
        auto* schema = k8s::find(v, {"schema", "openAPIV3Schema"});
        BOOST_REQUIRE_MESSAGE(schema, file.string() << ": version without a schema");
        auto r = compile(*schema, "spec.versions[" + std::to_string(i) + "].schema.openAPIV3Schema");
        BOOST_TEST(r.errors.empty(), file.filename().string() << " does not compile:\n" << joined(strings(r.errors)));
        if (!r.schema) continue;
        ++count;
        std::string api_version = group + "/" + std::string(k8s::get_string(v, {"name"}));
        index[{api_version, kind}] = {group, kind, r.schema};
      }
    }
  }
}

const crd_index& crds() {
  static const crd_index index = [] {
    crd_index idx;
    std::size_t count = 0;
    load_crds(source_dir / "deploy" / "crds", idx, count);
    load_crds(source_dir / "sim" / "crds", idx, count);
    return idx;
  }();
  return index;
}

// What the API server stores for a manifest: pruned and defaulted.
k8s::json_document admit(const crd_version& crd, const k8s::json_value& manifest) {
  auto obj = k8s::copy_document(manifest);
  prune(*crd.schema, obj);
  apply_defaults(*crd.schema, obj, obj.GetAllocator());
  return obj;
}

const crd_version* crd_for(const k8s::json_value& obj) {
  auto it = crds().find({std::string(k8s::get_string(obj, {"apiVersion"})), std::string(k8s::get_string(obj, {"kind"}))});
  return it == crds().end() ? nullptr : &it->second;
}

k8s::json_document single_doc(const fs::path& p) {
  auto docs = read_docs(p);
  BOOST_REQUIRE_MESSAGE(docs.size() == 1u, p.string() << " should hold one document");
  return std::move(docs.front());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(corpora)

BOOST_AUTO_TEST_CASE(every_crd_compiles) {
  // The seven c5c3.io kinds at least.
  std::size_t c5c3 = 0;
  for (auto& [key, crd] : crds())
    if (crd.group == "c5c3.io") ++c5c3;
  BOOST_TEST(c5c3 >= 7u);
}

BOOST_AUTO_TEST_CASE(every_corpus_case) {
  std::size_t cases = 0;
  for (auto& dir : fs::directory_iterator(source_dir / "tests" / "corpora")) {
    auto cases_file = dir.path() / "cases.yaml";
    if (!dir.is_directory() || !fs::exists(cases_file)) continue;
    auto index = single_doc(cases_file);
    auto* list = k8s::member(index, "cases");
    BOOST_REQUIRE_MESSAGE(list && list->IsArray(), cases_file.string() << ": no cases list");
    for (auto& c : list->GetArray()) {
      std::string file(k8s::get_string(c, {"file"}));
      std::string base_file(k8s::get_string(c, {"base"}));
      std::string label = dir.path().filename().string() + "/" + file;
      auto manifest = single_doc(dir.path() / file);
      auto* crd = crd_for(manifest);
      BOOST_TEST_REQUIRE(crd, label << ": no CRD for " << k8s::get_string(manifest, {"apiVersion"}) << " "
                                    << k8s::get_string(manifest, {"kind"}));
      ++cases;
      std::vector<field_error> errs;
      if (base_file.empty()) {
        auto obj = admit(*crd, manifest);
        errs = validate(*crd->schema, obj);
      } else {
        auto base = admit(*crd, single_doc(dir.path() / base_file));
        auto base_errs = validate(*crd->schema, base);
        BOOST_TEST(base_errs.empty(), label << ": base " << base_file << " rejected: " << joined(strings(base_errs)));
        auto obj = admit(*crd, manifest);
        errs = validate(*crd->schema, obj, &base);
      }
      std::string message = errs.empty() ? std::string()
                                         : invalid_error(crd->group, crd->kind,
                                                         std::string(k8s::get_string(manifest, {"metadata", "name"})), errs)
                                               .message;
      BOOST_TEST_MESSAGE(label << ": " << (message.empty() ? std::string("admitted") : message));
      auto* expect = k8s::member(c, "expect");
      if (!expect || !expect->IsArray() || expect->Empty()) {
        BOOST_TEST(errs.empty(), label << " should be admitted, got: " << message);
        continue;
      }
      BOOST_TEST(!errs.empty(), label << " should be rejected");
      for (auto& want : expect->GetArray()) {
        std::string w(k8s::as_string_view(want));
        BOOST_TEST(message.find(w) != std::string::npos, label << ": expected '" << w << "' in: " << message);
      }
    }
  }
  BOOST_TEST(cases >= 80u);
}

BOOST_AUTO_TEST_CASE(samples_validate_clean) {
  std::size_t checked = 0;
  for (auto& file : yaml_files(source_dir / "deploy" / "samples", true)) {
    for (auto& doc : read_docs(file)) {
      auto* crd = crd_for(doc);
      if (!crd) continue;  // core kinds (Namespace, Secret) are not CRDs
      ++checked;
      auto obj = admit(*crd, doc);
      auto errs = validate(*crd->schema, obj);
      BOOST_TEST(errs.empty(), file.filename().string() << ": " << joined(strings(errs)));
    }
  }
  BOOST_TEST(checked >= 7u);
}

BOOST_AUTO_TEST_SUITE_END()
