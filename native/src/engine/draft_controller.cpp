#include "draft_controller.h"

#include <algorithm>
#include <cmath>

namespace cts {

namespace {

// An unobserved first position is a coin flip and a later one is like the position before it, each worth a
// quarter of an observation: one full block decides whether drafting looks worth it.
constexpr double PRIOR_P = 0.5;
constexpr double PRIOR_WEIGHT = 0.25;
constexpr double SEED_WEIGHT = 2.0;  // a new bucket starts from its neighbour's estimates at this weight
constexpr double TRUST_STEPS = 2.5;  // full blocks a context bucket is given before it is judged
constexpr double FOLLOW_UP_GAIN = 2;  // a probe this many times faster than the choice it replaced is followed up

}  // namespace

int context_bucket(int n_past) {
    if (n_past < 4096)
        return 0;
    if (n_past < 16384)
        return 1;
    if (n_past < 32768)
        return 2;
    if (n_past < 65536)
        return 3;
    return 4;
}

const char * context_bucket_name(int bucket) {
    static const char * names[CONTEXT_BUCKETS] = {"<4k", "4-16k", "16-32k", "32-64k", ">=64k"};
    return names[std::clamp(bucket, 0, CONTEXT_BUCKETS - 1)];
}

DraftController::DraftController(const DraftControllerOptions & options) : opt_(options), probe_gap_(options.probe_min) {
    opt_.n_max = std::max(0, opt_.n_max);
    for (auto & b : buckets_) {
        b.reached.assign(opt_.n_max, 0.0);
        b.accepted.assign(opt_.n_max, 0.0);
    }
    step_ms_.assign(opt_.n_max + 2, Cost{});
    whole_ms_.assign(opt_.n_max + 1, Cost{});
}

const DraftController::Bucket & DraftController::estimates(int n_past) const {
    const int b = context_bucket(n_past);
    // a bucket not yet seen borrows the nearest seen one, shorter contexts first
    for (int d = 0; d < CONTEXT_BUCKETS; d++) {
        if (b - d >= 0 && buckets_[b - d].steps > 0)
            return buckets_[b - d];
        if (b + d < CONTEXT_BUCKETS && buckets_[b + d].steps > 0)
            return buckets_[b + d];
    }
    return buckets_[b];
}

std::vector<double> DraftController::acceptance_at(int n_past) const {
    const Bucket & b = estimates(n_past);
    std::vector<double> p(opt_.n_max);
    for (int i = 0; i < opt_.n_max; i++) {
        const double prior = i == 0 ? PRIOR_P : p[i - 1];
        p[i] = (b.accepted[i] + prior * PRIOR_WEIGHT) / (b.reached[i] + PRIOR_WEIGHT);
    }
    return p;
}

double DraftController::expected_tokens(int n_past, int n) const {
    const std::vector<double> p = acceptance_at(n_past);
    double e = 1, run = 1;
    for (int i = 0; i < std::min(n, opt_.n_max); i++) {
        run *= p[i];
        e += run;
    }
    return e;
}

double DraftController::step_cost(int n_tokens) const {
    if (n_tokens < 1 || n_tokens >= (int)step_ms_.size())
        return 0;
    const auto ms = [&](int n) { return step_ms_[n].ms(); };
    if (ms(n_tokens) > 0)
        return ms(n_tokens);
    int lo = n_tokens - 1, hi = n_tokens + 1;
    while (lo >= 1 && ms(lo) <= 0)
        lo--;
    while (hi < (int)step_ms_.size() && ms(hi) <= 0)
        hi++;
    const bool has_lo = lo >= 1, has_hi = hi < (int)step_ms_.size();
    if (has_lo && has_hi) {
        return ms(lo) + (ms(hi) - ms(lo)) * (n_tokens - lo) / (hi - lo);
    }
    return has_lo ? ms(lo) : has_hi ? ms(hi) : 0;
}

double DraftController::expected_rate(int n_past, int n) const {
    const double t = n == 0 ? step_cost(1) : (draft_ms_.ms() > 0 ? draft_ms_.ms() + step_cost(n + 1) : 0);
    return t > 0 ? expected_tokens(n_past, n) / t : 0;
}

// expected_rate for n = 0..limit from one pass over the estimates (this runs at every step)
std::vector<double> DraftController::rates(int n_past, int limit) const {
    const std::vector<double> p = acceptance_at(n_past);
    std::vector<double> r(limit + 1, 0.0);
    const double plain = step_cost(1), draft = draft_ms_.ms();
    r[0] = plain > 0 ? 1 / plain : 0;
    double e = 1, run = 1;
    for (int n = 1; n <= limit; n++) {
        e += (run *= p[n - 1]);
        const double t = draft > 0 ? draft + step_cost(n + 1) : 0;
        r[n] = t > 0 ? e / t : 0;
    }
    return r;
}

double DraftController::break_even(int n_past) const {
    const std::vector<double> r = rates(n_past, opt_.n_max);
    const double best = opt_.n_max > 0 ? *std::max_element(r.begin() + 1, r.end()) : 0;
    return r[0] > 0 ? best / r[0] : 0;
}

int DraftController::best(int n_past, int limit) const {
    const std::vector<double> r = rates(n_past, limit);
    int choice = 0;
    for (int n = 1; n <= limit; n++) {
        if (r[n] > r[choice]) {
            choice = n;
        }
    }
    return choice;
}

int DraftController::choose(int n_past, int limit) {
    last_choice_ = decide(n_past, limit);
    return last_choice_;
}

int DraftController::decide(int n_past, int limit) {
    const int full = std::clamp(limit, 0, opt_.n_max);
    last_probe_ = false;
    if (!opt_.adaptive || full == 0) {
        return full;
    }
    // measure both ends first: full blocks (until the bucket has a few observations), then plain steps (the
    // first of each is cold)
    if (draft_ms_.ms() <= 0 || step_cost(full + 1) <= 0 || buckets_[context_bucket(n_past)].steps < TRUST_STEPS) {
        last_probe_ = true;
        return full;
    }
    if (!step_ms_[1].warm()) {
        return 0;
    }
    const int choice = best(n_past, full);
    if (choice == full) {
        since_probe_ = 0;
        probe_gap_ = opt_.probe_min;
        return choice;
    }
    // A probe costs a full step instead of the chosen one. The first comes soon after the controller cut the
    // draft short (the decision may rest on few, noisy measurements); each after doubles the gap, up to the
    // spacing at which probes take about probe_budget of the time. A probe that did far better than the choice
    // is followed by another after probe_min steps, without undoing the back-off: a recovered draft is confirmed
    // quickly, while a draft that is sometimes right does not keep probes frequent.
    // The spacing rests on what a probe costs over the choice. The parts the choices use are measured at other
    // steps, and a probe in a stretch of plain steps costs more than them: the draft's cache takes the features
    // held since the last draft, and both contexts re-plan their graphs for the changed batch shapes (on the
    // random pair about twice the parts). So the whole steps' ratio is used where it is higher, not always: the
    // last few probes may lie thousands of tokens back and cost less than one at today's context.
    const double t_full = draft_ms_.ms() + step_cost(full + 1);
    const double t_choice = choice == 0 ? step_cost(1) : draft_ms_.ms() + step_cost(choice + 1);
    double spend = t_full / t_choice;
    if (probe_ms_.ms() > 0 && whole_ms_[choice].warm()) {
        spend = std::max(spend, probe_ms_.ms() / whole_ms_[choice].ms());
    }
    const int budgeted = std::clamp((int)std::ceil(spend / opt_.probe_budget), opt_.probe_min, opt_.probe_max);
    if (++since_probe_ >= (follow_up_ ? opt_.probe_min : std::min(probe_gap_, budgeted))) {
        if (!follow_up_) {
            probe_gap_ = std::min(2 * probe_gap_, opt_.probe_max);
        }
        since_probe_ = 0;
        follow_up_ = false;
        last_probe_ = true;
        probe_to_beat_ = expected_rate(n_past, choice);
        return full;
    }
    return choice;
}

void DraftController::observe(int n_past, int n_drafted, int n_accepted) {
    n_drafted = std::min(n_drafted, opt_.n_max);
    if (n_drafted <= 0)
        return;
    // a probe's outcome, once (requests with a fixed block observe steps without choosing them)
    if (probe_to_beat_ > 0) {
        const double t = draft_ms_.ms() + step_cost(n_drafted + 1);
        follow_up_ = t > 0 && (n_accepted + 1) / t >= FOLLOW_UP_GAIN * probe_to_beat_;
        probe_to_beat_ = 0;
    }
    Bucket & b = buckets_[context_bucket(n_past)];
    if (b.steps <= 0) {
        const Bucket & seed = estimates(n_past);
        if (&seed != &b && seed.steps > 0) {
            const double s = std::min(1.0, SEED_WEIGHT / seed.steps);
            for (int i = 0; i < opt_.n_max; i++) {
                b.reached[i] = seed.reached[i] * s;
                b.accepted[i] = seed.accepted[i] * s;
            }
            b.steps = seed.steps * s;
        }
    }
    for (int i = 0; i < opt_.n_max; i++) {
        b.reached[i] *= opt_.decay;
        b.accepted[i] *= opt_.decay;
    }
    b.steps = b.steps * opt_.decay + 1;
    // position i was tried only if every position before it was accepted
    const int tried = std::min(n_drafted, n_accepted + 1);
    for (int i = 0; i < tried; i++) {
        b.reached[i] += 1;
        b.accepted[i] += i < n_accepted ? 1 : 0;
    }
}

// The median of the last few measurements: a step preempted by another process is noise, not the step's
// cost, and a noisy value must not stick to an option that is no longer chosen (and so not re-measured).
// The first decode of a batch shape is cold (graph allocation), so the second replaces it.
void DraftController::Cost::add(double ms) {
    if (!(ms > 0))
        return;
    if (seen_++ == 1)
        recent_.clear();
    if (recent_.size() == WINDOW)
        recent_.erase(recent_.begin());
    recent_.push_back(ms);
    std::vector<double> sorted = recent_;
    std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
    ms_ = sorted[sorted.size() / 2];
}

void DraftController::observe_step_cost(int n_tokens, double ms) {
    if (n_tokens >= 1 && n_tokens < (int)step_ms_.size())
        step_ms_[n_tokens].add(ms);
}

void DraftController::observe_draft_cost(double ms) {
    draft_ms_.add(ms);
}

void DraftController::observe_whole_step(double ms) {
    (last_probe_ ? probe_ms_ : whole_ms_[std::clamp(last_choice_, 0, opt_.n_max)]).add(ms);
}

}  // namespace cts
