#include "worker_pool.hpp"

namespace sortie::render::detail {

WorkerPool::WorkerPool(unsigned workers) {
  for (unsigned i = 1; i < workers; ++i) threads_.emplace_back([this, i] { worker_main(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (auto& t : threads_) t.join();
}

void WorkerPool::drain(unsigned worker) {
  for (;;) {
    const std::size_t job = next_.fetch_add(1, std::memory_order_relaxed);
    if (job >= jobs_) return;
    fn_(context_, job, worker);
  }
}

void WorkerPool::run(std::size_t jobs, JobFn fn, void* context) {
  if (jobs == 0) return;
  if (threads_.empty() || jobs == 1) {
    for (std::size_t j = 0; j < jobs; ++j) fn(context, j, 0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    fn_ = fn;
    context_ = context;
    jobs_ = jobs;
    next_.store(0, std::memory_order_relaxed);
    busy_ = static_cast<unsigned>(threads_.size());
    ++generation_;
  }
  start_.notify_all();
  drain(0);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0; });
}

void WorkerPool::worker_main(unsigned index) {
  std::uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mutex_);
      start_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    drain(index);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
}

}  // namespace sortie::render::detail
