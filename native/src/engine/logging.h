// llama.cpp logs through a process-wide callback. The engine keeps it quiet (a library must not write to
// the host's stderr) but remembers the warnings and errors logged on the calling thread, because
// llama.cpp explains why a model failed to load only in its log.
#pragma once

#include <string>
#include <vector>

namespace cts {

// Routes llama.cpp's and ggml's log to the engine; with verbose, everything is also written to stderr.
void log_install(bool verbose);

// Collects warnings and errors logged on this thread while it is alive.
class LogCapture {
public:
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture &) = delete;
    LogCapture & operator=(const LogCapture &) = delete;

    // The last error lines (or warnings when there is no error), joined, for an error message.
    std::string summary() const;

    std::vector<std::string> errors;
    std::vector<std::string> warnings;

private:
    LogCapture * outer;
};

}  // namespace cts
