// A request's network leg (FLEET.md §3 `network`) as the distribution its draws are read by
// (streams.hpp): one mapping for both workloads.
#pragma once

#include "retrylab/fleet.hpp"
#include "streams.hpp"

namespace retrylab {

inline streams::Distribution distributionOf(const Network& n) {
    using streams::Distribution;
    Distribution d;
    switch (n.dist) {
        case NetworkDist::Fixed:
            d.kind = Distribution::Kind::Fixed;
            d.a = n.ms;
            break;
        case NetworkDist::Uniform:
            d.kind = Distribution::Kind::Uniform;
            d.a = n.lo;
            d.b = n.hi;
            break;
        case NetworkDist::Exponential:
            d.kind = Distribution::Kind::Exponential;
            d.a = n.mean;
            break;
        case NetworkDist::Normal:
            d.kind = Distribution::Kind::Normal;
            d.a = n.mean;
            d.b = n.sd;
            break;
    }
    return d;
}

}  // namespace retrylab
