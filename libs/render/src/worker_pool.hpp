#pragma once
// A fixed set of worker threads for the renderer's parallel stages (private to libs/render).
// run() hands out job indices [0, jobs) through an atomic counter to every worker, the calling
// thread being worker 0, and returns when all jobs are done. Which worker runs a job is not
// deterministic; the renderer makes every job's output independent of it.
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace sortie::render::detail {

class WorkerPool {
 public:
  using JobFn = void (*)(void* context, std::size_t job, unsigned worker);

  explicit WorkerPool(unsigned workers);  // total workers, >= 1 (workers - 1 threads started)
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  [[nodiscard]] unsigned size() const { return static_cast<unsigned>(threads_.size()) + 1; }
  void run(std::size_t jobs, JobFn fn, void* context);

  // run() with a callable f(job, worker).
  template <class F>
  void for_each(std::size_t jobs, F& f) {
    run(
        jobs, [](void* c, std::size_t job, unsigned worker) { (*static_cast<F*>(c))(job, worker); }, &f);
  }

 private:
  void worker_main(unsigned index);
  void drain(unsigned worker);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_;
  std::condition_variable done_;
  std::uint64_t generation_ = 0;
  unsigned busy_ = 0;
  bool stop_ = false;
  JobFn fn_ = nullptr;
  void* context_ = nullptr;
  std::size_t jobs_ = 0;
  std::atomic<std::size_t> next_{0};
};

}  // namespace sortie::render::detail
