// The byte helpers: SHA-256 (the child prefix hash and the push hash), base64
// (Secret data), and the 43-character generated value (32 random bytes,
// base64 RawURL).
#include "actors/c5c3/scaffold/crypto.hpp"
#include "tests/c5c3/snapshots.hpp"

#include <boost/test/unit_test.hpp>

using namespace c5c3::test;

BOOST_AUTO_TEST_SUITE(scaffold_crypto)

BOOST_AUTO_TEST_CASE(sha256_vectors) {
  BOOST_TEST(orders::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(orders::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

BOOST_AUTO_TEST_CASE(base64_round_trips) {
  BOOST_TEST(orders::base64_encode("hello world") == "aGVsbG8gd29ybGQ=");
  BOOST_TEST(*orders::base64_decode("aGVsbG8gd29ybGQ=") == "hello world");
  for (std::string s : std::vector<std::string>{"", "a", "ab", "abc", "abcd", std::string("\0\xff\x10", 3)})
    BOOST_TEST(*orders::base64_decode(orders::base64_encode(s)) == s);
  BOOST_TEST(!orders::base64_decode("abc"));
  BOOST_TEST(!orders::base64_decode("a=bc"));
  BOOST_TEST(!orders::base64_decode("ab$c"));
}

BOOST_AUTO_TEST_CASE(generated_value_is_43_characters_of_raw_url_base64) {
  auto v = orders::generate_secret_value(counting_random());
  BOOST_TEST(v == "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8");
  BOOST_TEST(v.size() == 43u);
  auto real = orders::generate_secret_value(orders::system_random());
  BOOST_TEST(real.size() == 43u);
  BOOST_TEST(real.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
             std::string::npos);
  BOOST_TEST(orders::base64_raw_url_encode("\xfb\xff") == "-_8");
}

BOOST_AUTO_TEST_SUITE_END()
