// Builds the tests' precompiled header (C5C3_TEST_PCH, CMakeLists.txt): its
// headers come in through the compiler's -include; nothing is defined here.
