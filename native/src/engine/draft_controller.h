// How many tokens to draft at each DFlash step (0: a plain step), chosen to maximize expected tokens per
// second. Verification does not depend on it, so any choice is lossless; only the speed changes.
//
// Expected tokens of a step drafting N:  E(N) = 1 + Σ_{k=1..N} Π_{i=1..k} p_i, with p_i the running
// probability that draft position i is accepted given that the positions before it were (per context bucket,
// exponentially decayed so a changing draft is followed). Time of that step: T_draft + T_step(N + 1), with
// T_step(n) the measured cost of a target decode of n tokens plus its sampling; a plain step costs T_step(1).
// While the best choice drafts less than a full block, a full block is drafted now and then (a re-probe) so
// that a recovering draft is noticed; probes back off exponentially to a spacing at which they cost about
// `probe_budget` of the time, and only a probe far faster than the choice it replaced brings the next one sooner.
//
// Plain C++ without llama.cpp, so it is tested on its own with simulated acceptance (native/src/tests).
#pragma once

#include <array>
#include <string>
#include <vector>

namespace cts {

// Context buckets of the acceptance figures: <4k, 4–16k, 16–32k, 32–64k, ≥64k tokens.
constexpr int CONTEXT_BUCKETS = 5;
int context_bucket(int n_past);
const char * context_bucket_name(int bucket);  // "<4k", "4-16k", …

struct DraftControllerOptions {
    int n_max = 15;  // the most tokens a step may draft
    bool adaptive = true;  // false: always n_max (a fixed block)
    double decay = 0.97;  // per observed step of a bucket: about 33 steps of memory
    double probe_budget = 0.015;  // fraction of the time re-probes may cost
    int probe_min = 8;  // steps between probes
    int probe_max = 1024;
};

class DraftController {
public:
    explicit DraftController(const DraftControllerOptions & options);

    // Tokens to draft at context n_past, at most `limit` (the room left in the context and in max_tokens).
    int choose(int n_past, int limit);
    // The outcome of a step at context n_past that drafted n tokens and accepted a of them.
    void observe(int n_past, int n_drafted, int n_accepted);
    // Measured costs: a target decode of n tokens with its sampling; a draft step (draft decode, injection).
    void observe_step_cost(int n_tokens, double ms);
    void observe_draft_cost(double ms);
    // The whole cost of the step just chosen, from the choice to the end of its sampling. The probe
    // spacing compares these: a probe in a stretch of plain steps costs more than its parts measured at
    // other steps (draft_controller.cpp).
    void observe_whole_step(double ms);

    const DraftControllerOptions & options() const { return opt_; }
    bool last_was_probe() const { return last_probe_; }
    // p_i estimates (i = 1..n_max, index i-1) and E(N) at a context, as the decisions see them.
    std::vector<double> acceptance_at(int n_past) const;
    double expected_tokens(int n_past, int n) const;
    // Expected tokens per ms of a step drafting n at context n_past; 0 while a cost is unmeasured.
    double expected_rate(int n_past, int n) const;
    // The best drafting choice's expected speed over a plain step's at n_past (< 1: DFlash cannot beat plain
    // decoding there); 0 while unmeasured.
    double break_even(int n_past) const;

private:
    struct Bucket {
        std::vector<double> reached, accepted;  // decayed counts per draft position
        double steps = 0;  // decayed observations
    };
    const Bucket & estimates(int n_past) const;
    double step_cost(int n_tokens) const;  // measured or interpolated; 0 when unknown
    int best(int n_past, int limit) const;
    int decide(int n_past, int limit);
    std::vector<double> rates(int n_past, int limit) const;

    DraftControllerOptions opt_;
    std::array<Bucket, CONTEXT_BUCKETS> buckets_;
    class Cost {
    public:
        void add(double ms);
        double ms() const { return ms_; }  // 0: not measured
        bool warm() const { return seen_ >= 2; }

    private:
        static constexpr size_t WINDOW = 7;
        std::vector<double> recent_;
        double ms_ = 0;
        int seen_ = 0;
    };
    std::vector<Cost> step_ms_;  // [n]: a target decode of n tokens + sampling
    Cost draft_ms_;
    std::vector<Cost> whole_ms_;  // [n]: whole steps that drafted n, probes left out
    Cost probe_ms_;  // whole probe steps
    int last_choice_ = 0;
    int since_probe_ = 0;
    int probe_gap_ = 8;  // steps to the next probe, before the budget's spacing caps it
    bool last_probe_ = false;
    bool follow_up_ = false;  // the last probe beat the choice by far: probe again after probe_min steps
    double probe_to_beat_ = 0;  // a probe awaits its outcome: the expected rate of the choice it replaced
};

}  // namespace cts
