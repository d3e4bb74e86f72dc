// SPDX-License-Identifier: GPL-3.0-or-later
// The plainest queue-depth-1 io_uring loop: one 4 KiB O_DIRECT read at a random aligned
// offset, wait for it, repeat. No statistics, no threads. bench/file-tree runs it beside
// IOPrism and fio so that a difference at QD 1 can be told apart from what the machine's
// scheduler does to any program that sleeps once per I/O.
//
//   ioprism-uring-qd1 FILE SECONDS    prints {"ios": N, "seconds": S, "iops": R}

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <liburing.h>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        std::fprintf(stderr, "usage: ioprism-uring-qd1 FILE SECONDS\n");
        return 2;
    }
    constexpr unsigned kBlockBytes = 4096;
    const int fd = ::open(argv[1], O_RDONLY | O_DIRECT | O_CLOEXEC);
    struct stat st {
    };
    if (fd < 0 || ::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(kBlockBytes)) {
        std::perror(argv[1]);
        return 1;
    }
    io_uring ring {};
    if (const int ret = io_uring_queue_init(4, &ring, 0); ret < 0) {
        std::fprintf(stderr, "io_uring_queue_init: %d\n", ret);
        return 1;
    }
    void *buffer = nullptr;
    if (::posix_memalign(&buffer, kBlockBytes, kBlockBytes) != 0)
        return 1;
    std::mt19937_64 random(42);
    std::uniform_int_distribution<std::uint64_t> block(
        0, static_cast<std::uint64_t>(st.st_size) / kBlockBytes - 1);

    using Clock = std::chrono::steady_clock;
    const auto start = Clock::now();
    const auto end = start + std::chrono::seconds(std::atoi(argv[2]));
    std::uint64_t ios = 0;
    for (;;) {
        // Check the clock every 64 I/Os: its cost stays out of the loop.
        if ((ios & 63) == 0 && Clock::now() >= end)
            break;
        io_uring_sqe *sqe = io_uring_get_sqe(&ring);
        io_uring_prep_read(sqe, fd, buffer, kBlockBytes, block(random) * kBlockBytes);
        if (io_uring_submit(&ring) != 1) {
            std::fprintf(stderr, "io_uring_submit failed\n");
            return 1;
        }
        io_uring_cqe *cqe = nullptr;
        if (io_uring_wait_cqe(&ring, &cqe) < 0 || cqe->res != static_cast<int>(kBlockBytes)) {
            std::fprintf(stderr, "read failed\n");
            return 1;
        }
        io_uring_cqe_seen(&ring, cqe);
        ++ios;
    }
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    std::printf("{\"ios\": %llu, \"seconds\": %.6f, \"iops\": %.1f}\n",
        static_cast<unsigned long long>(ios), seconds, static_cast<double>(ios) / seconds);
    std::free(buffer);
    io_uring_queue_exit(&ring);
    ::close(fd);
    return 0;
}
