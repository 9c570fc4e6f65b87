// C5C3_REQUIRE_EVENTUALLY(eventually(...), message) and
// C5C3_CHECK_EVENTUALLY(...): BOOST_TEST_REQUIRE and BOOST_TEST with their
// message built after the wait.
//
// BOOST_TEST_REQUIRE(P, M) hands P's result and M's lazy stream to one
// function call, and g++ evaluates a call's arguments right to left: M's
// operands (an object's JSON, an actor's probe, what is still pending) were
// read before P waited, so a failure showed the state at the start of the
// wait, not at its end. Here P is evaluated first, into a local.
#pragma once

#include <boost/test/unit_test.hpp>

#define C5C3_REQUIRE_EVENTUALLY(P, ...)             \
  do {                                              \
    const bool c5c3_waited_ = static_cast<bool>(P); \
    BOOST_TEST_REQUIRE(c5c3_waited_, __VA_ARGS__);  \
  } while (false)

#define C5C3_CHECK_EVENTUALLY(P, ...)               \
  do {                                              \
    const bool c5c3_waited_ = static_cast<bool>(P); \
    BOOST_TEST(c5c3_waited_, __VA_ARGS__);          \
  } while (false)
