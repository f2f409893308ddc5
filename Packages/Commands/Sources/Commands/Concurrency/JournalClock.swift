import Foundation

/// The clocks durations are measured with, in nanoseconds.
@usableFromInline
enum JournalClock {
    /// A monotonic clock cheap enough to read twice per sync command: a few nanoseconds where
    /// a precise read costs tens. On Linux its resolution is the kernel tick (a few
    /// milliseconds), so quicker commands are journaled with a zero duration.
    @inlinable
    static func coarse() -> UInt64 {
        #if os(Linux) || os(Android)
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
            return UInt64(truncatingIfNeeded: time.tv_sec) &* 1_000_000_000 &+ UInt64(truncatingIfNeeded: time.tv_nsec)
        #elseif canImport(Darwin)
            return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
            return DispatchTime.now().uptimeNanoseconds
        #endif
    }

    /// A precise monotonic clock, for everything but the sync fast path.
    @usableFromInline
    static func precise() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
