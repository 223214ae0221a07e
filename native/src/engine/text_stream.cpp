#include "text_stream.h"

#include <algorithm>

namespace cts {

namespace {

// Bytes at the end of s that start a UTF-8 sequence which is not complete yet.
size_t incomplete_utf8_tail(const std::string & s) {
    const size_t n = s.size();
    for (size_t back = 1; back <= 4 && back <= n; back++) {
        const unsigned char c = s[n - back];
        if ((c & 0xC0) == 0x80) {
            continue;  // continuation byte: keep looking for the lead byte
        }
        const size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
        return len > back ? back : 0;
    }
    return 0;
}

// Length of the longest suffix of text (after from) that is a proper prefix of stop.
size_t partial_stop(const std::string & text, size_t from, const std::string & stop) {
    const size_t max = std::min(stop.size() - 1, text.size() - from);
    for (size_t len = max; len > 0; len--) {
        if (text.compare(text.size() - len, len, stop, 0, len) == 0) {
            return len;
        }
    }
    return 0;
}

}  // namespace

TextStream::TextStream(std::vector<std::string> stops) {
    for (auto & s : stops) {
        if (!s.empty()) {
            stops_.push_back(std::move(s));
        }
    }
}

std::string TextStream::push(const std::string & piece) {
    if (stopped()) {
        return "";
    }
    const size_t before = text_.size();
    text_ += piece;
    // a stop string can only newly appear overlapping the new piece
    size_t first = std::string::npos;
    for (const auto & s : stops_) {
        const size_t from = before >= s.size() ? before - s.size() + 1 : 0;
        const size_t at = text_.find(s, from);
        if (at != std::string::npos && (first == std::string::npos || at < first)) {
            first = at;
            stop_ = s;
        }
    }
    if (first != std::string::npos) {
        text_.resize(first);
    }
    size_t hold = stopped() ? 0 : incomplete_utf8_tail(text_);
    if (!stopped()) {
        for (const auto & s : stops_) {
            hold = std::max(hold, partial_stop(text_, released_, s));
        }
    }
    const size_t upto = text_.size() - hold;
    if (upto <= released_) {
        return "";
    }
    std::string out = text_.substr(released_, upto - released_);
    released_ = upto;
    return out;
}

std::string TextStream::finish() {
    std::string out = text_.substr(released_);
    released_ = text_.size();
    return out;
}

}  // namespace cts
