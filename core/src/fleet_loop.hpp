// What both fleet loops (fleet_service.cpp: FLEET.md §4–§6; fleet_layers.cpp: docs/layers.md §9)
// do by the same rules: a policy's backoff, the requests' arrivals, and a request's end counted.
// Each is one description here, so that the two loops cannot drift apart.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "policy.hpp"
#include "retrylab/fleet.hpp"
#include "streams.hpp"

namespace retrylab {

// A fleet policy's backoff (SPEC §4's ceiling and the jitter's draw, policy.hpp).
inline Backoff backoffOf(const FleetPolicy& p) {
    Backoff b;
    b.baseBackoffMs = p.baseBackoffMs;
    b.backoffMultiplier = p.backoffMultiplier;
    b.maxBackoffMs = p.maxBackoffMs;
    b.jitter = p.jitter;
    return b;
}

// SPEC §4's ceiling for failure n depends on n alone here: worked out once for each n from 1 to
// count − 1 ([0] is unused).
inline std::vector<double> ceilingsOf(const Backoff& b, std::size_t count) {
    std::vector<double> ceilings(count);
    for (std::size_t n = 1; n < count; ++n) ceilings[n] = ceilingFor(b, static_cast<int>(n));
    return ceilings;
}

// FLEET.md §3's arrivals. Client c's request k + 1 comes a gap after request k's creation
// (poisson, uniform), or after the later of its end and that (serial, unless it ended
// unfinished); `once` is one request a client at 0. The gap before request k is draw k of the
// stream (ARRIVAL; c, 0, 0), drawn at the time it is measured from: exponential of mean 1000 /
// rate ms, or uniform on [0, 2000 / rate), the rate being ratePerClient × the spike's factor
// inside the spike. None is created at or after durationMs. `create(client, k, at)` makes one.
class ArrivalGaps {
public:
    explicit ArrivalGaps(const FleetRequest& r) : r_(r), keys_(r.clients) {
        const std::uint64_t purpose = streams::purposeKey(r.seed, streams::Arrival);
        for (std::uint32_t c = 0; c < r.clients; ++c)
            keys_[c] = streams::step(streams::step(streams::step(purpose, c), 0), 0);
    }

    // The gap before client c's request k, drawn at time `at` (the previous creation, or 0).
    double gap(std::uint32_t client, std::uint32_t k, double at) const {
        double rate = r_.ratePerClient;
        if (r_.spike && at >= r_.spike->startMs && at < r_.spike->endMs) rate = r_.ratePerClient * r_.spike->factor;
        const double u0 = streams::draw(keys_[client], k);
        if (r_.arrivals == Arrivals::Uniform) return 0 + (2000 / rate - 0) * u0;
        return streams::exponentialFrom(1000 / rate, u0);
    }

    // Each client's first request, in client order.
    template <class Create>
    void start(Create create) const {
        for (std::uint32_t c = 0; c < r_.clients; ++c) {
            if (r_.arrivals == Arrivals::Once) {
                create(c, 0, 0.0);
                continue;
            }
            const double a0 = gap(c, 0, 0);
            if (a0 < r_.durationMs) create(c, 0, a0);
        }
    }

    // Request k of the client was created at t: the next one, with poisson or uniform arrivals.
    template <class Create>
    void created(std::uint32_t client, std::uint32_t k, double t, Create create) const {
        if (r_.arrivals != Arrivals::Poisson && r_.arrivals != Arrivals::Uniform) return;
        const double next = t + gap(client, k + 1, t);
        if (next < r_.durationMs) create(client, k + 1, next);
    }

    // Request k of the client, created at createdMs, ended at t: the next one, with serial arrivals.
    template <class Create>
    void ended(std::uint32_t client, std::uint32_t k, double createdMs, double t, EndReason reason,
               Create create) const {
        if (r_.arrivals != Arrivals::Serial || reason == EndReason::Unfinished) return;
        const double next = std::max(t, createdMs + gap(client, k + 1, createdMs));
        if (next < r_.durationMs) create(client, k + 1, next);
    }

private:
    const FleetRequest& r_;
    std::vector<std::uint64_t> keys_;  // ARRIVAL(c)'s stream key, by client
};

// FLEET.md §8: a request's end at t, in the totals and in the bin of t (`bin`); a success keeps
// its latency, t − its creation.
inline void countEnd(ServiceTotals& totals, ServiceBin& bin, std::vector<double>& latencies, EndReason reason,
                     double createdMs, double t) {
    if (reason == EndReason::Success) {
        ++totals.succeeded;
        ++bin.succeeded;
        latencies.push_back(t - createdMs);
    } else {
        ++totals.failed[static_cast<int>(reason)];
        ++bin.failed;
    }
}

// FLEET.md §8: at the horizon every request still open ends unfinished, slot by slot; before the
// first, the bins up to the horizon are written (`advance`) and the run's end becomes the
// horizon. An unfinished end creates no request, so the slots are not added to meanwhile.
template <class IsOpen, class Advance, class End>
void endUnfinished(std::size_t slots, double horizon, double& endMs, IsOpen isOpen, Advance advance, End end) {
    bool first = true;
    for (std::uint32_t id = 0; id < slots; ++id) {
        if (!isOpen(id)) continue;
        if (first) {
            advance(horizon);
            endMs = horizon;
            first = false;
        }
        end(id);
    }
}

}  // namespace retrylab
