// When a stream's next partial parse of its output may run. Each parse re-reads the whole output (llama.cpp's
// parser has no incremental mode), so after a parse the next one waits until the parses so far fit a share
// of the time: a long output's parses then cost time in proportion to the generation, not to the square of
// its length, and the text that comes meanwhile goes out in one delta. Nor do parses run more often than a
// screen's 30 frames a second: each delta is an event the endpoint writes to a socket, which costs more than
// a short parse (a loopback write is ~0.4 ms of CPU on a loaded VM), and no reader sees finer steps. Until a
// parse has sent something nothing waits: the client's time to first token (and a cancel it sends on seeing
// it) matters more than the parses of a still short output. Pure arithmetic on times the caller measures,
// unit-tested.
#pragma once

namespace cts {

class ParsePacing {
public:
    // The share of a stream's time its parses may take at most.
    static constexpr double SHARE = 0.02;
    // The shortest time between two parses once one has sent something.
    static constexpr double FRAME_MS = 1000.0 / 30;

    bool due(double now_ms) const { return now_ms >= next_ms_; }

    // A parse ran from `started_ms` to `ended_ms`; `sent`: it added to the message.
    void parsed(double started_ms, double ended_ms, bool sent);

private:
    bool started_ = false;
    double next_ms_ = 0;
};

}  // namespace cts
