// Label and field selectors (k8s/selector): parse, print, parse again (the
// canonical form is a fixed point), and match a small object.
#include "k8s/selector.hpp"
#include "tests/fuzz/targets/fuzz_targets.hpp"

namespace c5c3::fuzz {

namespace {

const k8s::object& sample() {
  static const k8s::object o = *k8s::object::parse(
      R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"a","namespace":"ns",)"
      R"("labels":{"app":"x","tier":"db","c5c3.io/order":"v1"}},"type":"Opaque"})");
  return o;
}

}  // namespace

int selectors(const std::uint8_t* data, std::size_t size) {
  auto text = as_text(data, size);
  if (auto l = k8s::label_selector::parse(text)) {
    auto printed = l->to_string();
    auto again = k8s::label_selector::parse(printed);
    check(again.has_value(), "a printed label selector parses");
    check(again->to_string() == printed, "the printed label selector is canonical");
    check(again->matches(sample()) == l->matches(sample()), "printing keeps what a label selector matches");
  }
  if (auto f = k8s::field_selector::parse(text)) {
    auto printed = f->to_string();
    auto again = k8s::field_selector::parse(printed);
    check(again.has_value(), "a printed field selector parses");
    check(again->matches(sample()) == f->matches(sample()), "printing keeps what a field selector matches");
  }
  return 0;
}

}  // namespace c5c3::fuzz
