// ThreadSanitizer annotations for the oneTBB loops (the engine's blocks, the fit's bootstrap). Debian's libtbb is not built with
// -fsanitize=thread: TSan does not see the atomics with which its scheduler hands a
// parallel_for's tasks from the caller to the workers and back, so everything a body touches
// would look racy. These mark the edges parallel_for guarantees (the caller's writes before it
// happen before every body; every body happens before the caller's code after it). No-ops
// unless built with -fsanitize=thread.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define HETSTRUCT_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define HETSTRUCT_TSAN 1
#endif
#endif

#ifdef HETSTRUCT_TSAN
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace hetstruct {

inline void tsan_release([[maybe_unused]] const void* sync) {
#ifdef HETSTRUCT_TSAN
  __tsan_release(const_cast<void*>(sync));
#endif
}

inline void tsan_acquire([[maybe_unused]] const void* sync) {
#ifdef HETSTRUCT_TSAN
  __tsan_acquire(const_cast<void*>(sync));
#endif
}

}  // namespace hetstruct
