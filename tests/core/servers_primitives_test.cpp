// docs/servers.md §3, §4.1–§4.2 and §6's primitives (core/src/servers.hpp), pinned by the page's
// own golden values (§3.3, from its Python transcription of §2's streams) and by the rules'
// words: round robin's order, a tie's keeper, the host rule's last pick, the store's boundary.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "servers.hpp"
#include "streams.hpp"

using namespace retrylab;
using servers::Balancer;
using servers::BalancerKind;
using servers::KeyScope;
using servers::ServiceDist;

namespace {
const auto kIdle = [](std::size_t) { return 0; };
const auto kNoneTried = [](std::size_t) { return false; };
}  // namespace

TEST_CASE("the BALANCE and SERVICE streams have servers.md's keys and draws for seed 1", "[servers][streams]") {
    const std::uint64_t service = streams::streamKey(1, servers::kPurposeService, 0, 0, 0);
    const std::uint64_t balance = streams::streamKey(1, servers::kPurposeBalance, 0, 0, 0);
    CHECK(service == 0x0BBEEB523D8CF0E3ULL);
    CHECK(balance == 0x8BD8CCCFEC77B101ULL);
    CHECK(streams::draw(service, 0) == 0.26293332680370163);
    CHECK(streams::draw(service, 1) == 0.45706674667437597);
    CHECK(streams::draw(service, 2) == 0.023459963798964423);
    CHECK(streams::draw(service, 3) == 0.692788530703185);
    CHECK(streams::draw(balance, 0) == 0.24102454035693321);
    CHECK(streams::draw(balance, 1) == 0.7943202052562699);
    const std::uint64_t balance1 = streams::streamKey(1, servers::kPurposeBalance, 0, 0, 1);
    CHECK(streams::draw(balance1, 0) == 0.18523902491719768);
    CHECK(streams::draw(balance1, 1) == 0.5875968856127456);
    CHECK(streams::draw(streams::streamKey(1, servers::kPurposeBalance, 0, 0, 2), 0) == 0.46011807178830333);
    CHECK(streams::draw(streams::streamKey(1, servers::kPurposeBalance, 0, 0, 3), 0) == 0.9649719890344998);
}

TEST_CASE("service times: fixed is serviceMs, the exponential and the log-normal are §3.3's worked draws",
          "[servers]") {
    const std::uint64_t service = streams::streamKey(1, servers::kPurposeService, 0, 0, 0);
    CHECK(servers::serviceBase(ServiceDist::Fixed, 50, 1, service) == 50);
    CHECK(servers::serviceBase(ServiceDist::Exponential, 50, 1, service) == 15.253846260897646);
    CHECK(servers::polarNormal(service) == -1.6815999109038922);
    CHECK(streams::exactExp(-1.6815999109038922) == 0.18607603268790535);
    CHECK(servers::serviceBase(ServiceDist::Lognormal, 50, 1, service) == 9.303801634395267);
    // σ scales z before exp: σ 0 is the median exactly.
    CHECK(servers::serviceBase(ServiceDist::Lognormal, 50, 0, service) == 50);
}

TEST_CASE("the log-normal is capped at 86,400,000 ms and the polar method's z is bounded by 12.01", "[servers]") {
    for (std::uint64_t attempt = 0; attempt < 2000; ++attempt) {
        const std::uint64_t key = streams::streamKey(7, servers::kPurposeService, 0, 0, attempt);
        const double z = servers::polarNormal(key);
        CHECK(z <= 12.01);
        CHECK(z >= -12.01);
        CHECK(servers::serviceBase(ServiceDist::Lognormal, 86400000, 4, key) <= 86400000);
    }
}

TEST_CASE("index(u) is min(K − 1, floor(u × K))", "[servers][balancer]") {
    CHECK(servers::indexOf(0.24102454035693321, 2) == 0);
    CHECK(servers::indexOf(0.5875968856127456, 2) == 1);
    CHECK(servers::indexOf(0.46011807178830333, 2) == 0);
    CHECK(servers::indexOf(0.9999999999999999, 1000) == 999);
    CHECK(servers::indexOf(0, 3) == 0);
}

TEST_CASE("round robin returns next and advances it by one per pick, modulo K", "[servers][balancer]") {
    Balancer rr{BalancerKind::RoundRobin, 2};
    std::vector<std::size_t> picks;
    for (int i = 0; i < 5; ++i) picks.push_back(rr.pick(0, 0, 3, kIdle));
    CHECK(picks == std::vector<std::size_t>{2, 0, 1, 2, 0});
    Balancer one{BalancerKind::RoundRobin, 0};
    CHECK(one.pick(0, 0, 1, kIdle) == 0);
    CHECK(one.next == 0);
}

TEST_CASE("random pick q is index(draw q) of the attempt's BALANCE stream", "[servers][balancer]") {
    Balancer random{BalancerKind::Random};
    const std::uint64_t key = streams::streamKey(1, servers::kPurposeBalance, 0, 0, 1);
    CHECK(random.pick(key, 0, 2, kIdle) == 0);   // 0.185… × 2
    CHECK(random.pick(key, 1, 2, kIdle) == 1);   // 0.587… × 2
    CHECK(random.pick(key, 0, 10, kIdle) == 1);  // 1.85…
    CHECK(random.pick(key, 1, 10, kIdle) == 5);  // 5.87…
}

TEST_CASE("least outstanding picks among the tied fewest, in index order, by draw q", "[servers][balancer]") {
    Balancer least{BalancerKind::LeastOutstanding};
    const std::uint64_t key = streams::streamKey(1, servers::kPurposeBalance, 0, 0, 1);  // draws 0.185…, 0.587…
    const std::vector<int> counts{3, 1, 2, 1, 1};  // tied: servers 1, 3, 4 (T = 3)
    const auto out = [&](std::size_t j) { return counts[j]; };
    CHECK(least.pick(key, 0, 5, out) == 1);     // floor(0.185… × 3) = 0: the first tied
    CHECK(least.pick(key, 1, 5, out) == 3);     // floor(0.587… × 3) = 1: the second
    const std::vector<int> single{2, 2, 0, 2};  // T = 1: the only member, whatever the draw
    const auto one = [&](std::size_t j) { return single[j]; };
    for (std::uint64_t a = 0; a < 20; ++a)
        CHECK(least.pick(streams::streamKey(3, servers::kPurposeBalance, 0, 0, a), 0, 4, one) == 2);
    // Every count 0 (the single run): uniform over all K, index(draw q).
    CHECK(least.pick(key, 1, 10, kIdle) == 5);
}

TEST_CASE("two choices takes b only when b has fewer outstanding than a; a tie keeps a", "[servers][balancer]") {
    Balancer two{BalancerKind::TwoChoices};
    // BALANCE(0,0,0), seed 1: a = index(0.241…), b = index(0.794…); over 4 servers a = 0, b = 3.
    const std::uint64_t key = streams::streamKey(1, servers::kPurposeBalance, 0, 0, 0);
    CHECK(two.pick(key, 0, 4, kIdle) == 0);  // a tie: the first
    const std::vector<int> busyA{5, 0, 0, 4};
    CHECK(two.pick(key, 0, 4, [&](std::size_t j) { return busyA[j]; }) == 3);
    const std::vector<int> busyB{4, 0, 0, 5};
    CHECK(two.pick(key, 0, 4, [&](std::size_t j) { return busyB[j]; }) == 0);
    // Pick 1 reads draws 2 and 3.
    const double d2 = streams::draw(key, 2);
    const double d3 = streams::draw(key, 3);
    const std::size_t a1 = servers::indexOf(d2, 4);
    const std::size_t b1 = servers::indexOf(d3, 4);
    const std::vector<int> favourB = [&] {
        std::vector<int> c(4, 1);
        c[b1] = 0;
        if (a1 == b1) c[a1] = 0;
        return c;
    }();
    CHECK(two.pick(key, 1, 4, [&](std::size_t j) { return favourB[j]; }) == b1);
}

TEST_CASE(
    "the host rule: a first attempt and any-host retries take pick 0; previous-hosts takes the first untried of A + 1 "
    "picks, else the last",
    "[servers][balancer]") {
    const std::uint64_t key = streams::streamKey(1, servers::kPurposeBalance, 0, 0, 1);  // picks 0, 1 on K = 2: 0, 1
    const auto triedZero = [](std::size_t j) { return j == 0; };
    Balancer random{BalancerKind::Random};
    CHECK(servers::chooseHost(random, key, 2, false, true, 1, triedZero, kIdle) == 0);  // a first attempt
    CHECK(servers::chooseHost(random, key, 2, true, false, 1, triedZero, kIdle) == 0);  // any host
    CHECK(servers::chooseHost(random, key, 2, true, true, 1, triedZero, kIdle) == 1);   // §11.2
    CHECK(servers::chooseHost(random, key, 2, true, true, 0, triedZero, kIdle) == 0);   // A = 0: one pick only
    const auto allTried = [](std::size_t) { return true; };
    CHECK(servers::chooseHost(random, key, 2, true, true, 1, allTried, kIdle) == 1);  // the last pick, q = A
    // Round robin: every pick made advances it.
    Balancer rr{BalancerKind::RoundRobin, 0};
    CHECK(servers::chooseHost(rr, 0, 3, true, true, 5, triedZero, kIdle) == 1);
    CHECK(rr.next == 2);
    CHECK(servers::chooseHost(rr, 0, 3, true, true, 2, allTried, kIdle) == 1);  // picks 2, 0, 1: the last
    CHECK(rr.next == 2);
    CHECK(servers::chooseHost(rr, 0, 3, false, true, 2, kNoneTried, kIdle) == 2);
}

TEST_CASE(
    "a key store write is visible at the instant its delay ends: own writes at once, per-server never elsewhere, "
    "replicated after the lag",
    "[servers][keys]") {
    // §11.1: a result written at 200 on server 0, read by server 1 at 3,500.
    CHECK(servers::visible(KeyScope::Shared, 0, 0, 1, 200, 3500));
    CHECK_FALSE(servers::visible(KeyScope::PerServer, 0, 0, 1, 200, 3500));
    CHECK(servers::visible(KeyScope::PerServer, 0, 1, 1, 200, 3500));
    CHECK(servers::visible(KeyScope::Replicated, 3300, 0, 1, 200, 3500));
    CHECK_FALSE(servers::visible(KeyScope::Replicated, 3300.5, 0, 1, 200, 3500));
    CHECK(servers::visible(KeyScope::Replicated, 3300.5, 0, 0, 200, 3500));  // a server reads its own at once
    CHECK(servers::visible(KeyScope::Replicated, 0, 0, 1, 200, 200));        // lag 0 is shared
    CHECK_FALSE(servers::visible(KeyScope::Shared, 0, 0, 1, 200, 199.5));
}
