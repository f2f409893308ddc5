import Networking

extension LoggingInterceptor {
    /// An interceptor that logs each request and response to `log` at `level`, and each failed
    /// request at `error`, with credentials redacted as always; entries have the source
    /// `Networking`.
    ///
    /// ```swift
    /// http.interceptors.append(LoggingInterceptor(log: app.log))
    /// ```
    /// - Parameters:
    ///   - includesHeaders: Whether header lines are logged too.
    ///   - log: Where the entries go.
    ///   - level: The level of request and response entries.
    public init(includesHeaders: Bool = true, log: LogSink, level: LogSink.Level = .info) {
        self.init(includesHeaders: includesHeaders) { line in
            // The interceptor writes `✗ METHOD URL: error` for a failure, and `→`/`←` lines
            // for requests and responses.
            let failed = line.hasPrefix("✗")
            log.log(failed ? .error : level, line, source: "Networking")
        }
    }
}
