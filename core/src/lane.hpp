// The fleet loops' O(1) queues (fleet_service.cpp, fleet_layers.cpp): a ring of plain values,
// a lane of events made "now + d" for one constant d, and the loops' event queue, a heap and
// its lanes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>

#include "min_heap.hpp"

namespace retrylab {

// A ring's storage: a power of two of plain values, never zeroed (every slot is written before
// it is read), grown by doubling with the live run [head, head + size) moved to its start. The
// metastable opening run queues about 11,000 attempts: zeroing each doubling was about 4 % of
// its time in WebAssembly.
template <class T, std::size_t kFirst>
class Ring {
public:
    std::size_t size() const { return capacity_; }
    std::size_t mask() const { return capacity_ - 1; }
    T& operator[](std::size_t i) { return items_[i]; }
    const T& operator[](std::size_t i) const { return items_[i]; }
    // Doubles the storage; the run of `size` values from `head` becomes [0, size): head is 0.
    void grow(std::size_t& head, std::size_t size) {
        const std::size_t bigger = capacity_ ? capacity_ * 2 : kFirst;
        std::unique_ptr<T[]> items(new T[bigger]);
        for (std::size_t i = 0; i < size; ++i) items[i] = items_[(head + i) & (capacity_ - 1)];
        items_ = std::move(items);
        capacity_ = bigger;
        head = 0;
    }

private:
    std::unique_ptr<T[]> items_;
    std::size_t capacity_ = 0;
};

// Events made "now + d" for one constant d, in the order they are made. The loop takes events
// in time order, so such events come in time order too; only equal times may come out of key
// order, and those are put in place as they join. A lane costs O(1) where the heap costs
// O(log n): with a fixed network every arrival and answer is now + ms, every waiting limit
// without a deadline now + clientTimeoutMs, every service now + serviceMs (or its slowdown).
// `Event` has a time `t`; `Less` orders two events as the loop's heap does.
template <class Event, class Less>
class EventLane {
public:
    explicit EventLane(double delay = 0) : delay_(delay) {}
    double delay() const { return delay_; }
    bool empty() const { return size_ == 0; }
    const Event& front() const { return ring_[head_]; }
    void push(const Event& e) {
        if (size_ == ring_.size()) ring_.grow(head_, size_);
        const std::size_t mask = ring_.mask();
        std::size_t at = (head_ + size_) & mask;
        ring_[at] = e;
        ++size_;
        // Times never fall along a lane: only an event at its predecessor's time may belong
        // before it (by key), so a later time is in place at once.
        if (size_ == 1 || ring_[(at - 1) & mask].t < e.t) return;
        placeTie(at);
    }
    Event pop() {
        Event e = ring_[head_];
        head_ = (head_ + 1) & ring_.mask();
        --size_;
        return e;
    }

private:
    // Moves the event at `at`, the newest, before those of its time with a greater key. Rare,
    // and kept out of line: the loop's every push inlines the part above.
    [[gnu::noinline]] void placeTie(std::size_t at) {
        const std::size_t mask = ring_.mask();
        Less less;
        for (std::size_t i = size_ - 1; i > 0; --i) {
            const std::size_t before = (head_ + i - 1) & mask;
            if (!less(ring_[at], ring_[before])) break;
            std::swap(ring_[at], ring_[before]);
            at = before;
        }
    }
    double delay_;
    Ring<Event, 256> ring_;
    std::size_t head_ = 0, size_ = 0;
};

// Both fleet loops' pending events: a heap, and up to kLanes lanes for the delays that recur
// (the loop adds them before its first event; a delay past kLanes goes to the heap). An event
// goes to a lane only when it is made at now + that lane's delay, so each lane stays in time
// order. `Event` has a time `t` and `Less` orders two events (time first) as the heap does.
template <class Event, class Less, int kLanes>
class EventQueue {
public:
    // A lane for events made now + delay, unless there is one or kLanes are in use.
    void addLane(double delay) {
        for (int i = 0; i < lanes_; ++i)
            if (lane_[i].delay() == delay) return;
        if (lanes_ < kLanes) lane_[lanes_++] = EventLane<Event, Less>(delay);
    }
    // The lane of this delay, or -1 (the heap).
    int laneFor(double delay) const {
        for (int i = 0; i < lanes_; ++i)
            if (lane_[i].delay() == delay) return i;
        return -1;
    }
    // An event in lane i (its time now + the lane's delay), or in the heap when i < 0.
    void put(int i, const Event& e) {
        if (i >= 0)
            lane_[i].push(e);
        else
            heap_.push(e);
    }
    void push(const Event& e) { heap_.push(e); }
    // The loop: takes the first event, the heap's or a lane's, and gives it to `process`, until
    // none comes by `horizon`. How many it took.
    template <class Process>
    std::uint64_t run(double horizon, Process process) {
        std::uint64_t taken = 0;
        for (Event e; pop(horizon, e); ++taken) process(e);
        return taken;
    }

private:
    // Takes the first event into `e` if it comes by `horizon`; false when none does. Time decides
    // unless two are equal (rare), so the comparison branches on it; a lane not in use is empty,
    // and the count is fixed so the scan unrolls.
    bool pop(double horizon, Event& e) {
        int from = -1;  // -1: the heap
        const Event* next = heap_.empty() ? &none_ : &heap_.top();
        const Less less;
        for (int i = 0; i < kLanes; ++i) {
            if (lane_[i].empty()) continue;
            const Event& f = lane_[i].front();
            if (f.t < next->t || (f.t == next->t && less(f, *next))) {
                next = &f;
                from = i;
            }
        }
        if (!(next->t <= horizon)) return false;  // none_ is past every horizon
        e = from < 0 ? heap_.pop() : lane_[from].pop();
        return true;
    }

    MinHeap<Event, Less> heap_;
    EventLane<Event, Less> lane_[kLanes];
    int lanes_ = 0;
    const Event none_ = never();  // "no event": later than any

    static Event never() {
        Event e{};
        e.t = std::numeric_limits<double>::infinity();
        return e;
    }
};

}  // namespace retrylab
