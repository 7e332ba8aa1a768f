#include "support.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>
#include <string>

#include <malloc.h>

namespace bench {

std::size_t liveBytes = 0;
std::size_t peakBytes = 0;

retrylab::Value toValue(const nlohmann::json& j) {
    using retrylab::Value;
    switch (j.type()) {
        case nlohmann::json::value_t::null: return Value::null();
        case nlohmann::json::value_t::boolean: return Value::boolean(j.get<bool>());
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float: return Value::number(j.get<double>());
        case nlohmann::json::value_t::string: return Value::string(j.get<std::string>());
        case nlohmann::json::value_t::array: {
            // A list of numbers only as one block, as both bindings read one (Value::numbers()).
            bool numbers = !j.empty();
            for (const auto& item : j) numbers = numbers && item.is_number();
            if (numbers) {
                std::vector<double> xs;
                xs.reserve(j.size());
                for (const auto& item : j) xs.push_back(item.get<double>());
                return Value::numbers(std::move(xs));
            }
            Value::Array items;
            for (const auto& item : j) items.push_back(toValue(item));
            return Value::array(std::move(items));
        }
        case nlohmann::json::value_t::object: {
            Value::Object members;
            for (auto it = j.begin(); it != j.end(); ++it) members.push_back({it.key(), toValue(it.value())});
            return Value::object(std::move(members));
        }
        default: return Value::null();
    }
}

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace bench

// --- Heap accounting: every operator new and delete of the program --------------------------
void* operator new(std::size_t size) {
    void* p = std::malloc(size ? size : 1);
    if (!p) throw std::bad_alloc();
    bench::liveBytes += malloc_usable_size(p);
    bench::peakBytes = std::max(bench::peakBytes, bench::liveBytes);
    return p;
}
void operator delete(void* p) noexcept {
    if (!p) return;
    bench::liveBytes -= malloc_usable_size(p);
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
