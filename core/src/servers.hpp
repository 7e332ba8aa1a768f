// docs/servers.md's primitives, written once for the single run and the fleet: the two new
// stream purposes (§3), the exact normal and the service time (§3.2–§3.3), one balancer pick and
// the host rule (§4.1–§4.2), and when a key store's write is visible to a server (§6). The
// callers own the state these read: the outstanding counts (§4.3), the tried servers, the records.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "streams.hpp"

namespace retrylab {
namespace servers {

// §3's purposes: BALANCE (client, request, attempt): the picks of an attempt's host;
// SERVICE (client, request, attempt): an attempt's service time.
constexpr std::uint64_t kPurposeBalance = 10;
constexpr std::uint64_t kPurposeService = 11;

// The longest service time a log-normal draw gives (§3.3).
constexpr double kServiceCapMs = 86400000;

enum class BalancerKind { RoundRobin, Random, LeastOutstanding, TwoChoices };
enum class KeyScope { Shared, PerServer, Replicated };
enum class ServiceDist { Fixed, Exponential, Lognormal };

// §3.2: z of the first of 64 pairs (u, v) = (2·draw(2q) − 1, 2·draw(2q + 1) − 1) with
// 0 < s = u² + v² < 1, z = u × sqrt((−2 × ln(s)) / s); 0 if none qualifies.
inline double polarNormal(std::uint64_t serviceKey) {
    for (std::uint64_t q = 0; q < 64; ++q) {
        const double u = 2 * streams::draw(serviceKey, 2 * q) - 1;
        const double v = 2 * streams::draw(serviceKey, 2 * q + 1) - 1;
        const double uu = u * u;
        const double vv = v * v;
        const double s = uu + vv;
        if (s > 0 && s < 1) {
            const double ratio = (-2 * streams::ln(s)) / s;
            return u * std::sqrt(ratio);
        }
    }
    return 0;
}

// §3.3: the base service time b of an attempt whose SERVICE stream has this key (the key is
// not read for `fixed`).
inline double serviceBase(ServiceDist dist, double serviceMs, double sigma, std::uint64_t serviceKey) {
    switch (dist) {
        case ServiceDist::Fixed: return serviceMs;
        case ServiceDist::Exponential: return streams::exponentialFrom(serviceMs, streams::draw(serviceKey, 0));
        case ServiceDist::Lognormal: {
            const double shape = sigma * polarNormal(serviceKey);
            return std::min(kServiceCapMs, serviceMs * streams::exactExp(shape));
        }
    }
    return serviceMs;
}

// §4.1: index(u) = min(K − 1, floor(u × K)).
inline std::size_t indexOf(double u, std::size_t count) {
    const double scaled = std::floor(u * static_cast<double>(count));
    return std::min(count - 1, static_cast<std::size_t>(scaled));
}

// One balancer (§4.1). `outstanding(j)` is server j's count of outstanding attempts (§4.3) as
// this balancer sees them; the single run passes counts that are all 0.
struct Balancer {
    BalancerKind kind = BalancerKind::RoundRobin;
    std::size_t next = 0;  // round robin's next server

    // Pick q of an attempt whose BALANCE stream has this key, among `count` servers.
    template <class Outstanding>
    std::size_t pick(std::uint64_t balanceKey, std::uint64_t q, std::size_t count, const Outstanding& outstanding) {
        if (count == 1) return 0;
        switch (kind) {
            case BalancerKind::RoundRobin: {
                const std::size_t chosen = next;
                next = (next + 1) % count;
                return chosen;
            }
            case BalancerKind::Random: return indexOf(streams::draw(balanceKey, q), count);
            case BalancerKind::LeastOutstanding: return leastOutstanding(balanceKey, q, count, outstanding);
            case BalancerKind::TwoChoices: {
                const std::size_t a = indexOf(streams::draw(balanceKey, 2 * q), count);
                const std::size_t b = indexOf(streams::draw(balanceKey, 2 * q + 1), count);
                return outstanding(b) < outstanding(a) ? b : a;
            }
        }
        return 0;
    }

private:
    // The tied set (the fewest outstanding, in index order), T members; its member
    // min(T − 1, floor(draw q × T)) when T > 1, without reading the draw when T = 1.
    template <class Outstanding>
    static std::size_t leastOutstanding(std::uint64_t balanceKey, std::uint64_t q, std::size_t count,
                                        const Outstanding& outstanding) {
        auto fewest = outstanding(0);
        std::size_t tied = 0;
        for (std::size_t j = 0; j < count; ++j) {
            const auto n = outstanding(j);
            if (n < fewest) {
                fewest = n;
                tied = 1;
            } else if (n == fewest) {
                ++tied;
            }
        }
        std::size_t member = tied == 1 ? 0 : indexOf(streams::draw(balanceKey, q), tied);
        for (std::size_t j = 0; j < count; ++j) {
            if (outstanding(j) != fewest) continue;
            if (member == 0) return j;
            --member;
        }
        return 0;
    }
};

// §4.2, the host rule: a first attempt, and every attempt under `any`, takes pick 0; a retry
// under `previous-hosts` takes the first of picks 0 … A that is not a tried server, else pick A.
// `tried(j)` says whether the request (or bottom call, or hedged request) already sent to j.
template <class Tried, class Outstanding>
std::size_t chooseHost(Balancer& balancer, std::uint64_t balanceKey, std::size_t count, bool retry, bool previousHosts,
                       std::uint64_t hostSelectionRetryMaxAttempts, const Tried& tried,
                       const Outstanding& outstanding) {
    if (!retry || !previousHosts) return balancer.pick(balanceKey, 0, count, outstanding);
    std::size_t host = 0;
    for (std::uint64_t q = 0; q <= hostSelectionRetryMaxAttempts; ++q) {
        host = balancer.pick(balanceKey, q, count, outstanding);
        if (!tried(host)) return host;
    }
    return host;
}

// §6: whether a time x written by server `writer` is visible to server `reader` at t
// (the boundary goes to the store: x + d ≤ t).
inline bool visible(KeyScope scope, double lagMs, std::size_t writer, std::size_t reader, double x, double t) {
    if (writer == reader || scope == KeyScope::Shared) return x <= t;
    if (scope == KeyScope::PerServer) return false;
    return x + lagMs <= t;
}

}  // namespace servers
}  // namespace retrylab
