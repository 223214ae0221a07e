// Turns generated token pieces into text that is safe to stream: nothing that might still become a stop
// string and no half of a multi-byte UTF-8 character is released until it is decided.
#pragma once

#include <string>
#include <vector>

namespace cts {

class TextStream {
public:
    explicit TextStream(std::vector<std::string> stops);

    // Appends a piece and returns the text released by it. After a stop string completes, the text ends
    // before it and stopped() is true.
    std::string push(const std::string & piece);

    // Releases whatever was held back (a partial stop string that never completed).
    std::string finish();

    bool stopped() const { return !stop_.empty(); }
    const std::string & stop_string() const { return stop_; }
    const std::string & text() const { return text_; }

private:
    std::vector<std::string> stops_;
    std::string text_;
    size_t released_ = 0;
    std::string stop_;
};

}  // namespace cts
