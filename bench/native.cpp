// retrylab-bench: the core's compute() and sweep() timed natively, the reference that
// scripts/bench sets WebAssembly (node, Chromium) against. Reads bench/cases.json, prints one
// JSON object per case on stdout:
//
//   { "name", "ms" (median per call), "rounds", "callsPerRound", "warmupRounds", "peakHeapBytes", "check" }
//
// Each round runs the call enough times to take at least 20 ms (once for slow calls); after a
// warm-up of such rounds (as bench/measure.js's), the figure is the median of 15 rounds' (7 for
// calls over 200 ms) time per call. peakHeapBytes is the most the call held on the
// heap at once beyond what was held before it (support.cpp counts every operator new and delete).
// `check` summarises the result so scripts/bench can see that every side computed the same.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support.hpp"
#include "retrylab/engine.hpp"

namespace {

using retrylab::Value;
using bench::Clock;
using bench::liveBytes;
using bench::msSince;
using bench::peakBytes;
using bench::toValue;

double number(const Value& v, const char* key) {
    const Value* m = v.find(key);
    return m && m->kind() == Value::Kind::Number ? m->asNumber() : -1;
}

std::string str(double x) {
    std::ostringstream out;
    out << x;
    return out.str();
}

// The same summary bench/measure.js makes of a JS result.
std::string check(const Value& result) {
    const Value* ok = result.find("ok");
    if (!ok || !ok->asBool()) return "not ok";
    if (const Value* points = result.find("points")) {
        return "points " + str(static_cast<double>(points->asArray().size())) + ", boundaries " +
               str(static_cast<double>(result.find("boundaries")->asArray().size()));
    }
    const Value& m = *result.find("metrics");
    std::string out = "attempts " + str(number(m, "attempts")) + ", charges " + str(number(m, "charges"));
    if (const Value* herd = result.find("herd")) {
        out += ", not retried " + str(number(*herd, "notRetried")) + ", fullest " + str(number(*herd, "fullest")) +
               ", buckets " + str(static_cast<double>(herd->find("buckets")->asArray().size()));
    }
    return out;
}

double median(std::vector<double> list) {
    std::sort(list.begin(), list.end());
    return list[list.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: retrylab-bench bench/cases.json\n");
        return 2;
    }
    std::ifstream file(argv[1]);
    if (!file) {
        std::fprintf(stderr, "retrylab-bench: cannot read %s\n", argv[1]);
        return 2;
    }
    nlohmann::json cases = nlohmann::json::parse(file)["cases"];
    for (const auto& c : cases) {
        const Value inputs = toValue(c["inputs"]);
        const bool isSweep = c["entry"] == "sweep";
        auto call = [&] { return isSweep ? retrylab::sweep(inputs) : retrylab::compute(inputs); };

        // The heap's peak during one call, beyond what was held before it.
        const std::size_t before = liveBytes;
        peakBytes = liveBytes;
        std::string summary = check(call());
        const std::size_t peak = peakBytes - before;

        // How many calls make a round of at least 20 ms.
        Clock::time_point start = Clock::now();
        call();
        const double once = std::max(msSince(start), 1e-6);
        const int rounds = once > 200 ? 7 : 15;
        int perRound = static_cast<int>(std::max(1.0, std::ceil(20.0 / once)));
        auto round = [&] {
            const Clock::time_point at = Clock::now();
            for (int i = 0; i < perRound; ++i) call();
            return msSince(at) / perRound;
        };
        // The same warm-up as bench/measure.js's: rounds until the median of the last 5 is no
        // more than 5% under the median of the 5 before, after at least 20 rounds and 1 s (at
        // most 60 rounds or 3 s; none over 200 ms); then the rounds sized from its last 5.
        std::vector<double> warm;
        if (once <= 200) {
            const Clock::time_point warmStart = Clock::now();
            for (;;) {
                warm.push_back(round());
                const std::size_t w = warm.size();
                const double spent = msSince(warmStart);
                if (w >= 60 || spent >= 3000) break;
                if (w >= 20 && spent >= 1000 &&
                    median({warm.end() - 5, warm.end()}) >= 0.95 * median({warm.end() - 10, warm.end() - 5}))
                    break;
            }
            perRound = static_cast<int>(std::max(1.0, std::ceil(20.0 / std::max(median({warm.end() - 5, warm.end()}), 1e-6))));
        }
        std::vector<double> times;
        for (int r = 0; r < rounds; ++r) times.push_back(round());
        nlohmann::json out = {{"name", c["name"]},
                              {"ms", median(times)},
                              {"rounds", rounds},
                              {"callsPerRound", perRound},
                              {"warmupRounds", warm.size()},
                              {"peakHeapBytes", peak},
                              {"check", summary}};
        std::printf("%s\n", out.dump().c_str());
        std::fflush(stdout);
    }
    return 0;
}
