// The one Boost.Test entry point every test executable links.
#define BOOST_TEST_MODULE c5c3
#include <boost/test/unit_test.hpp>
