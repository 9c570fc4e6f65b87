// C5C3_REQUIRE_EVENTUALLY(eventually(...), message): BOOST_TEST_REQUIRE with
// its message built after the wait.
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
