#include "k8s/base64.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::k8s;

BOOST_AUTO_TEST_SUITE(base64)

BOOST_AUTO_TEST_CASE(rfc4648_vectors_round_trip) {
  const std::pair<const char*, const char*> vectors[] = {
      {"", ""},           {"f", "Zg=="},         {"fo", "Zm8="},        {"foo", "Zm9v"},
      {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
  };
  for (auto [raw, enc] : vectors) {
    BOOST_TEST_CONTEXT(raw) {
      BOOST_TEST(base64_encode(raw) == enc);
      BOOST_TEST(base64_decode(enc).value() == raw);
    }
  }
  BOOST_TEST(base64_raw_url_encode("\xfb\xff") == "-_8");
}

BOOST_AUTO_TEST_CASE(decoding_is_as_strict_as_go_std_encoding) {
  BOOST_TEST(base64_decode("Zm9v\r\nYmFy").value() == "foobar");  // CR and LF are skipped
  struct {
    const char* text;
    std::size_t offset;  // "illegal base64 data at input byte N"
  } bad[] = {{"Zm9vYg", 4}, {"Zm$v", 2}, {"Zg=a", 2}, {"Zg==Zg==", 4}, {"Z===", 1}};
  for (auto& c : bad) {
    BOOST_TEST_CONTEXT(c.text) {
      std::size_t at = 99;
      BOOST_TEST(!base64_decode(c.text, &at));
      BOOST_TEST(at == c.offset);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
