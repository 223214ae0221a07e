#include "parse_pacing.h"

namespace cts {

void ParsePacing::parsed(double started_ms, double ended_ms, bool sent) {
    started_ = started_ || sent;
    // a wait of 49 times the parse before it
    next_ms_ = started_ ? ended_ms + (ended_ms - started_ms) * (1 / SHARE - 1) : ended_ms;
}

}  // namespace cts
