#include "sim/validation/go_format.hpp"

#include "helpers.hpp"

using namespace c5c3::sim::validation;
using namespace c5c3::sim::validation::testing;

BOOST_AUTO_TEST_SUITE(go_format)

BOOST_AUTO_TEST_CASE(quote_like_strconv_quote) {
  struct {
    std::string in, out;
  } cases[] = {
      {"Drop", "\"Drop\""},
      {"", "\"\""},
      {"a\"b\\c", "\"a\\\"b\\\\c\""},
      {"line\nbreak\ttab", "\"line\\nbreak\\ttab\""},
      {std::string("\x01", 1), "\"\\x01\""},
      {"caf\xc3\xa9", "\"caf\xc3\xa9\""},
      {"\xff", "\"\\xff\""},
  };
  for (auto& c : cases) BOOST_TEST(go_quote(c.in) == c.out);
}

BOOST_AUTO_TEST_CASE(float_like_percent_v) {
  struct {
    double in;
    std::string out;
  } cases[] = {{1, "1"},          {1.5, "1.5"},       {0, "0"},         {-2.25, "-2.25"},
               {87600, "87600"},  {1e6, "1000000"},   {1e21, "1e+21"},  {1e20, "100000000000000000000"},
               {0.0001, "0.0001"}, {0.00001, "1e-05"}, {0.1, "0.1"},     {123456.789, "123456.789"}};
  for (auto& c : cases) BOOST_TEST(go_float(c.in) == c.out, c.in);
}

BOOST_AUTO_TEST_CASE(json_like_encoding_json) {
  auto d = json(R"({"b":1,"a":[true,null,"x<y"],"c":{"z":1.5}})");
  BOOST_TEST(go_json(d) == R"({"a":[true,null,"x\u003cy"],"b":1,"c":{"z":1.5}})");
}

BOOST_AUTO_TEST_SUITE_END()
