// c5c3-operator: see actors/operator/run.hpp.
#include "actors/operator/run.hpp"

int main(int argc, char** argv) {
  // Before any thread exists, so every thread inherits the mask and the
  // signals are only ever taken by sigwait in main's thread.
  c5c3::operator_::block_stop_signals();
  std::vector<std::string> args(argv + 1, argv + argc);
  return c5c3::operator_::run_operator(argc > 0 ? argv[0] : "c5c3-operator", args);
}
