// engine-unit-tests: the DFlash draft-length controller on simulated drafts (acceptance by position and by
// context, step costs), without models. test/unit/native/engineUnit.test.ts runs it; exit status 0 = pass.
#include "draft_controller.h"
#include "check.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>

namespace {

using cts_test::check;

// A simulated draft: p(position i accepted | the ones before were) at a context, and step costs in ms.
struct Sim {
    std::function<double(int pos, int n_past)> p;
    std::function<double(int n_tokens)> step_ms = [](int n) { return 0.1 + 0.025 * n; };  // CPU-like
    double draft_ms = 0.38;
    // every cost grows with the context: × (1 + n_past / ctx_cost), attention over the cache (0: flat)
    double ctx_cost = 0;
    // what a probe costs beyond its parts (in the engine: the held features injected, graphs re-planned)
    double probe_extra_ms = 0;
    double at(int n_past) const { return ctx_cost > 0 ? 1 + n_past / ctx_cost : 1; }
};

struct Run {
    int tokens = 0, steps = 0, probes = 0, last_choice = -1;
    double ms = 0, probe_ms = 0;
    std::vector<int> choices;  // per step
    std::vector<bool> probe;  // per step
};

// Decodes `steps` steps starting at context n_past, each advancing the context by its tokens.
// adaptive false: full blocks that still inform the controller, as the engine's requests with draftAdaptive off.
Run simulate(cts::DraftController & c, const Sim & sim, int steps, int n_past, uint32_t seed = 1, int limit = 1 << 30,
             bool adaptive = true) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0, 1);
    Run r;
    for (int s = 0; s < steps; s++) {
        const int n = adaptive ? c.choose(n_past, limit) : std::min(limit, c.options().n_max);
        int a = 0;
        while (a < n && u(rng) < sim.p(a + 1, n_past))
            a++;
        const double step = sim.step_ms(n + 1) * sim.at(n_past), draft = n > 0 ? sim.draft_ms * sim.at(n_past) : 0;
        c.observe(n_past, n, a);
        c.observe_step_cost(n + 1, step);
        if (n > 0)
            c.observe_draft_cost(draft);
        const double whole = step + draft + (c.last_was_probe() ? sim.probe_extra_ms : 0);
        if (adaptive)  // as the engine: a fixed block's request reports no choices
            c.observe_whole_step(whole);
        r.ms += whole;
        r.probe_ms += c.last_was_probe() ? whole : 0;
        r.tokens += a + 1;
        r.steps++;
        r.probes += c.last_was_probe() ? 1 : 0;
        r.choices.push_back(n);
        r.probe.push_back(c.last_was_probe());
        r.last_choice = n;
        n_past += a + 1;
    }
    return r;
}

double plain_rate(const Sim & sim) {
    return 1 / sim.step_ms(1);
}
double fixed_rate(const Sim & sim, int n_max, int n_past) {
    double e = 1, run = 1;
    for (int i = 1; i <= n_max; i++)
        e += (run *= sim.p(i, n_past));
    return e / (sim.draft_ms + sim.step_ms(n_max + 1));
}

cts::DraftControllerOptions opts(bool adaptive = true) {
    cts::DraftControllerOptions o;
    o.n_max = 15;
    o.adaptive = adaptive;
    return o;
}

void buckets() {
    check(cts::context_bucket(0) == 0 && cts::context_bucket(4095) == 0, "<4k");
    check(cts::context_bucket(4096) == 1 && cts::context_bucket(16383) == 1, "4-16k");
    check(cts::context_bucket(16384) == 2 && cts::context_bucket(32767) == 2, "16-32k");
    check(cts::context_bucket(32768) == 3 && cts::context_bucket(65535) == 3, "32-64k");
    check(cts::context_bucket(65536) == 4 && cts::context_bucket(1 << 20) == 4, ">=64k");
    check(std::string(cts::context_bucket_name(1)) == "4-16k", "bucket names");
}

// the random pair: the draft is almost never right, drafting costs more than it brings
void rejecting_draft_goes_plain() {
    cts::DraftController c(opts());
    Sim sim{[](int, int) { return 0.001; }};
    const Run r = simulate(c, sim, 3000, 100);  // stays below 4k
    check(r.last_choice == 0, "a rejected draft ends at plain steps, got " + std::to_string(r.last_choice));
    int drafting = 0, probes = 0;
    for (size_t i = 10; i < r.choices.size(); i++) {
        drafting += r.choices[i] > 0 ? 1 : 0;
        probes += r.probe[i] ? 1 : 0;
    }
    check(drafting == probes && probes > 3,
          "after the first steps only probes draft (" + std::to_string(drafting) + " drafting, " + std::to_string(probes) + " probes)");
    const double rate = r.tokens / r.ms;
    check(rate >= 0.9 * plain_rate(sim), "tokens/ms " + std::to_string(rate) + " >= 0.9 x plain " + std::to_string(plain_rate(sim)));
    check(c.break_even(100) < 1, "below break-even");
}

// A probe in a stretch of plain steps costs about twice its parts on the random pair (engine.cpp): the spacing
// follows what probes cost as whole steps, so they keep to their budget instead of taking twice it.
void probes_keep_their_budget_at_their_whole_cost() {
    cts::DraftController c(opts());
    Sim sim{[](int, int) { return 0.001; }};
    sim.probe_extra_ms = sim.draft_ms + sim.step_ms(16);
    simulate(c, sim, 800, 100);  // the back-off reaches the budget's spacing
    const Run r = simulate(c, sim, 3000, 100, 2);
    const double share = r.probe_ms / r.ms;
    fprintf(stderr, "probes at twice their parts' cost: %d probes, %.2f%% of the time\n", r.probes, 100 * share);
    check(r.probes > 0 && share <= 1.3 * c.options().probe_budget,
          "probes take " + std::to_string(100 * share) + "% of the time, budget " + std::to_string(100 * c.options().probe_budget) + "%");
}

// the bench on the random pair: runs of 512 tokens on one engine, a full step costing 8 plain ones
void rejecting_draft_in_bench_runs() {
    cts::DraftController c(opts());
    Sim sim{[](int, int) { return 0.001; }, [](int n) { return 0.12 + 0.05 * n; }, 0.55};
    simulate(c, sim, 8, 64);  // the bench's warm-up request
    std::vector<double> ratios;
    for (int run = 0; run < 5; run++) {
        const Run r = simulate(c, sim, 512, 64, 7 + run);
        ratios.push_back(r.tokens / r.ms / plain_rate(sim));
    }
    std::sort(ratios.begin(), ratios.end());
    fprintf(stderr, "random pair bench: adaptive / plain = %.3f (first run %.3f)\n", ratios[2], ratios[0]);
    check(ratios[2] >= 0.95, "adaptive " + std::to_string(ratios[2]) + " x plain on the median bench run");
}

// the constructed pair: every draft is accepted, so every step drafts the whole block
void accepted_draft_drafts_full_blocks() {
    cts::DraftController c(opts());
    Sim sim{[](int, int) { return 1.0; }};
    const Run r = simulate(c, sim, 300, 48);
    check(r.choices[0] == 15 && r.choices[1] == 15 && r.choices[2] == 15 && r.choices[3] == 0 && r.choices[4] == 0,
          "measures full blocks, then plain steps");
    for (size_t i = 5; i < r.choices.size(); i++) {
        if (r.choices[i] != 15) {
            check(false, "step " + std::to_string(i) + " drafted " + std::to_string(r.choices[i]));
            break;
        }
    }
    check(c.break_even(5000) > 1, "above break-even");
}

void fixed_block_when_not_adaptive() {
    cts::DraftController c(opts(false));
    Sim sim{[](int, int) { return 0.0; }};
    const Run r = simulate(c, sim, 50, 0);
    for (int n : r.choices)
        check(n == 15, "fixed block");
    check(simulate(c, sim, 1, 0, 1, 4).last_choice == 4, "the limit caps a fixed block");
}

// a GPU-like cost: a 16-token verify costs little more than one token, so even modest acceptance pays
void cheap_verify_drafts_at_modest_acceptance() {
    cts::DraftController c(opts());
    Sim sim{[](int, int) { return 0.6; }, [](int n) { return 20 + 0.2 * n; }, 2.0};
    const Run r = simulate(c, sim, 400, 100);
    check(r.last_choice >= 4, "drafts at 60% acceptance, chose " + std::to_string(r.last_choice));
    const double rate = r.tokens / r.ms;
    check(rate >= 0.95 * std::max(plain_rate(sim), fixed_rate(sim, 15, 100)), "near the better of plain and a fixed block");
    // the best length is short where each position halves the chances
    cts::DraftController c2(opts());
    Sim sim2{[](int, int) { return 0.5; }, [](int n) { return 1 + 0.1 * n; }, 0.1};
    const Run r2 = simulate(c2, sim2, 600, 100);
    check(r2.last_choice >= 1 && r2.last_choice <= 6,
          "a short draft when acceptance and verify cost call for it, chose " + std::to_string(r2.last_choice));
}

// acceptance falling with context: full blocks at short context, plain steps once the draft fails
void follows_acceptance_by_context() {
    cts::DraftController c(opts());
    Sim sim{[](int, int n_past) { return n_past < 4096 ? 0.99 : 0.02; }};
    const Run shortctx = simulate(c, sim, 200, 100);

    check(shortctx.last_choice == 15, "full blocks below 4k, chose " + std::to_string(shortctx.last_choice));
    const Run longctx = simulate(c, sim, 400, 5000);
    check(longctx.last_choice == 0, "plain steps at 5k, chose " + std::to_string(longctx.last_choice));
    // the <4k estimates are kept apart: back at a short context the controller drafts again at once
    check(c.choose(200, 15) == 15, "the short-context bucket still drafts");
    check(c.acceptance_at(100)[0] > 0.8 && c.acceptance_at(5000)[0] < 0.5,
          "estimates per bucket: " + std::to_string(c.acceptance_at(100)[0]) + ", " + std::to_string(c.acceptance_at(5000)[0]));
}

// a draft that starts to agree again is noticed by the re-probes
void reprobe_notices_recovery() {
    cts::DraftController c(opts());
    bool good = false;
    Sim sim{[&](int, int) { return good ? 1.0 : 0.0; }};
    check(simulate(c, sim, 500, 100).last_choice == 0, "plain while the draft fails");
    good = true;
    const Run r = simulate(c, sim, 2000, 100);
    int first_full = -1;
    for (size_t i = 0; i < r.choices.size() && first_full < 0; i++) {
        if (r.choices[i] == 15 && i + 1 < r.choices.size() && r.choices[i + 1] == 15)
            first_full = (int)i;
    }
    check(first_full >= 0 && first_full <= 1100, "back to full blocks within a probe interval, at step " + std::to_string(first_full));
    check(r.last_choice == 15, "stays at full blocks");
}

// The bench's context sweep on the falling-acceptance pair (native/testModels/falling.ts: the draft knows
// every letter below 1024 tokens of context, none past 6912) with CPU-like costs that grow with the context:
// at each prompt length, runs of plain, fixed-block and adaptive decoding in turn on one controller.
void sweep_on_falling_acceptance() {
    cts::DraftController c(opts());
    Sim sim{[](int, int n_past) { return std::clamp((6912.0 - n_past) / (6912 - 1024), 0.0, 1.0); }, [](int n) { return 0.25 + 0.08 * n; },
            0.8, 1000};
    for (int context : {512, 2048, 8192}) {
        std::vector<double> ratios;
        for (int run = 0; run < 3; run++) {
            double plain_ms = 0;
            for (int i = 0; i < 256; i++)
                plain_ms += sim.step_ms(1) * sim.at(context + i);
            // 256 tokens, as the bench's runs
            const auto tokens = [&](bool adaptive, uint32_t seed) {
                Run r;
                for (; r.tokens < 256; seed++) {
                    const Run part = simulate(c, sim, 1, context + r.tokens, seed, 256 - r.tokens - 1, adaptive);
                    r.tokens += part.tokens;
                    r.ms += part.ms;
                }
                return r;
            };
            const Run fixed = tokens(false, 1000 * run + 1);
            const Run adaptive = tokens(true, 1000 * run + 500);
            const double best = std::max(256 / plain_ms, fixed.tokens / fixed.ms);
            ratios.push_back(adaptive.tokens / adaptive.ms / best);
        }
        std::sort(ratios.begin(), ratios.end());
        fprintf(stderr, "sweep %d: adaptive / better of plain and fixed = %.3f (runs %.3f %.3f %.3f)\n", context, ratios[1], ratios[0],
                ratios[1], ratios[2]);
        check(ratios[1] >= 0.95,
              "sweep at " + std::to_string(context) + ": adaptive " + std::to_string(ratios[1]) + " x the better of plain and fixed");
    }
}

void respects_limit() {
    cts::DraftController c(opts());
    Sim sim{[](int, int) { return 1.0; }};
    simulate(c, sim, 20, 0);
    check(c.choose(100, 3) <= 3, "never drafts past the limit");
    check(c.choose(100, 0) == 0, "a limit of 0 is a plain step");
}

}  // namespace

int main() {
    buckets();
    rejecting_draft_goes_plain();
    rejecting_draft_in_bench_runs();
    probes_keep_their_budget_at_their_whole_cost();
    accepted_draft_drafts_full_blocks();
    fixed_block_when_not_adaptive();
    cheap_verify_drafts_at_modest_acceptance();
    follows_acceptance_by_context();
    reprobe_notices_recovery();
    sweep_on_falling_acceptance();
    respects_limit();
    return cts_test::finish("draft controller");
}
