#include "parse_pacing.h"

#include <algorithm>

namespace cts {

void ParsePacing::parsed(double started_ms, double ended_ms, bool sent) {
    started_ = started_ || sent;
    // a wait of 49 times the parse before it, and a frame since it started at least
    next_ms_ = started_ ? std::max(ended_ms + (ended_ms - started_ms) * (1 / SHARE - 1), started_ms + FRAME_MS) : ended_ms;
}

}  // namespace cts
