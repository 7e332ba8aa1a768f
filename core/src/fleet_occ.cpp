// FLEET.md §7: the occ workload (AWS's "Exponential Backoff and Jitter" experiment). Only the
// row's reads and writes need ordering, and of those only the writes need a queue: a write
// succeeds when the version it read is still the row's, that is, when no write succeeded
// between its read and itself. The writes are taken in the row's order (time, then client),
// so every success before a write is known when it is taken, and the last success alone says
// whether one came after the read (the read at (t, c) comes after a success at (t', c') when
// t' < t, or t' = t and c' < c: at equal times the row takes clients in order, a client's
// read before its own write). So each client has one pending write in a heap as small as the
// fleet, and everything else it does — its legs, its wait, the start of its next attempt — is
// arithmetic on its own times.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "fleet_network.hpp"
#include "min_heap.hpp"
#include "policy.hpp"
#include "retrylab/fleet.hpp"
#include "streams.hpp"

namespace retrylab {

namespace {

using streams::Distribution;

// A write reaching the row at t. At equal times the row takes them in client order.
struct RowWrite {
    double t;
    std::uint32_t client;
};
struct RowLess {
    bool operator()(const RowWrite& a, const RowWrite& b) const {
        // Without short-circuits, so the heap can pick a child without a branch.
        return (a.t < b.t) | ((a.t == b.t) & (a.client < b.client));
    }
};

struct Client {
    std::uint64_t legKey;   // OCC_LEG(c): its key after the client id
    std::uint64_t waitKey;  // OCC_WAIT(c)
    double readAt;          // when this attempt's read reached the row
    double answerLeg;       // leg 3 of this attempt
    double previousMs;      // the last backoff wait (decorrelated)
    int attempt;
};

}  // namespace

OccRun simulateOccRun(const FleetRequest& r, std::uint64_t seed) {
    const Distribution network = distributionOf(r.network);
    const bool legsDraw = streams::drawsFrom(network);
    Backoff backoff;
    backoff.baseBackoffMs = r.policy.baseBackoffMs;
    backoff.backoffMultiplier = r.policy.backoffMultiplier;
    backoff.maxBackoffMs = r.policy.maxBackoffMs;
    backoff.jitter = r.policy.jitter;
    const std::uint64_t legPurpose = streams::purposeKey(seed, streams::OccLeg);
    const std::uint64_t waitPurpose = streams::purposeKey(seed, streams::OccWait);

    std::vector<Client> clients(r.clients);
    MinHeap<RowWrite, RowLess> row;
    row.reserve(r.clients);
    double legs[4] = {network.a, network.a, network.a, network.a};
    auto drawLegs = [&](const Client& c) {
        if (!legsDraw) return;
        const std::uint64_t attemptKey = streams::step(c.legKey, static_cast<std::uint64_t>(c.attempt - 1));
        for (std::uint64_t j = 0; j < 4; ++j) legs[j] = streams::sample(network, streams::step(attemptKey, j));
    };
    // Attempt n of client c starts at s: its read reaches the row at s + leg 0; the legs of its
    // read's answer and its write are known now, kept for when the read is taken.
    auto start = [&](std::uint32_t id, double s) {
        Client& c = clients[id];
        drawLegs(c);
        c.readAt = s + legs[0];
        c.answerLeg = legs[3];
        row.push(RowWrite{(c.readAt + legs[1]) + legs[2], id});
    };

    for (std::uint32_t id = 0; id < r.clients; ++id) {
        Client& c = clients[id];
        c.legKey = streams::step(legPurpose, id);
        c.waitKey = streams::step(waitPurpose, id);
        c.previousMs = r.policy.baseBackoffMs;
        c.attempt = 1;
        start(id, 0);
    }

    OccRun run;
    // The last successful write: its time and client (none yet: before every read).
    double successAt = -1;
    std::uint32_t successClient = 0;
    std::uint64_t writes = 0, failures = 0;
    while (!row.empty()) {
        const RowWrite e = row.pop();
        Client& c = clients[e.client];
        ++writes;
        const double answered = e.t + c.answerLeg;
        const bool stale = successAt > c.readAt || (successAt == c.readAt && successClient > e.client);
        if (!stale) {
            successAt = e.t;
            successClient = e.client;
            run.makespanMs = std::max(run.makespanMs, answered);
            continue;
        }
        ++failures;
        const int n = c.attempt;
        if (r.policy.maxRetries && n >= *r.policy.maxRetries + 1) {
            run.makespanMs = std::max(run.makespanMs, answered);
            continue;
        }
        const double ceiling = ceilingFor(backoff, n);
        double d = 0;
        if (r.policy.jitter != Jitter::None)
            d = streams::draw(streams::step(streams::step(c.waitKey, static_cast<std::uint64_t>(n - 1)), 0), 0);
        const double wait = jitteredWait(backoff, ceiling, c.previousMs, d);
        c.previousMs = wait;
        c.attempt = n + 1;
        start(e.client, answered + wait);
    }
    run.writes = static_cast<double>(writes);
    run.failures = static_cast<double>(failures);
    return run;
}

OccResult simulateOcc(const FleetRequest& r) {
    OccResult result;
    result.runs.reserve(r.runs);
    for (std::uint32_t i = 0; i < r.runs; ++i) result.runs.push_back(simulateOccRun(r, r.seed + i));
    for (const OccRun& run : result.runs) {
        result.mean.makespanMs += run.makespanMs;
        result.mean.writes += run.writes;
        result.mean.failures += run.failures;
    }
    const auto runs = static_cast<double>(r.runs);
    result.mean.makespanMs /= runs;
    result.mean.writes /= runs;
    result.mean.failures /= runs;
    return result;
}

}  // namespace retrylab
