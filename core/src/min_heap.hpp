// A binary min-heap of small plain values in one vector: no allocation per push once the
// vector has grown, no std::function, the comparison inlined. `Less` orders two values.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

namespace retrylab {

template <class T, class Less>
class MinHeap {
public:
    bool empty() const { return items_.empty(); }
    std::size_t size() const { return items_.size(); }
    const T& top() const { return items_.front(); }
    void reserve(std::size_t n) { items_.reserve(n); }
    void clear() { items_.clear(); }

    void push(const T& item) {
        std::size_t i = items_.size();
        items_.push_back(item);
        while (i > 0) {
            const std::size_t parent = (i - 1) / 2;
            if (!less_(item, items_[parent])) break;
            items_[i] = items_[parent];
            i = parent;
        }
        items_[i] = item;
    }

    // Removes the smallest value and returns it.
    T pop() {
        T smallest = items_.front();
        T last = items_.back();
        items_.pop_back();
        const std::size_t n = items_.size();
        if (n > 0) {
            std::size_t i = 0;
            for (;;) {
                std::size_t child = 2 * i + 1;
                if (child >= n) break;
                // The smaller child, chosen without a branch: which one is as good as random.
                if (child + 1 < n) child += static_cast<std::size_t>(less_(items_[child + 1], items_[child]));
                if (!less_(items_[child], last)) break;
                items_[i] = items_[child];
                i = child;
            }
            items_[i] = last;
        }
        return smallest;
    }

private:
    std::vector<T> items_;
    Less less_;
};

}  // namespace retrylab
