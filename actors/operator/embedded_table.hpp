// The live table's thread: once a second it reads the orders straight from
// the in-process emulator (no API requests) and, when stdout is a terminal,
// redraws the table (live_table.hpp); otherwise it prints a line per change.
#pragma once

#include "sim/apiserver/apiserver.hpp"

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace c5c3::operator_ {

class embedded_table {
 public:
  // `header` is shown above the table on a terminal.
  embedded_table(const sim::apiserver& server, std::string header);
  ~embedded_table();  // stop()
  embedded_table(const embedded_table&) = delete;
  embedded_table& operator=(const embedded_table&) = delete;
  void stop();

 private:
  void run();

  const sim::apiserver& server_;
  std::string header_;
  bool terminal_;
  std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace c5c3::operator_
