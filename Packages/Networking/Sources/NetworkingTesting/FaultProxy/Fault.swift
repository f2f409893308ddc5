import Foundation

/// What a ``FaultProxy`` does to one request.
///
/// Each fault imitates something a real network or server does to a client, and is chosen so
/// that the upstream's side of it is certain: ``dropRequest`` never reaches the upstream,
/// ``dropResponse`` always has (the upstream committed, the client never hears of it).
public enum Fault: Sendable, Hashable {
    /// Forward the request and return the answer unchanged.
    case passThrough
    /// Read the request, never forward it, and close the connection without answering: the
    /// client cannot tell whether the server saw it.
    case dropRequest
    /// Read the request, never forward it, and reset the connection (TCP RST), as a server
    /// process that died mid-request does.
    case reset
    /// Forward the request, read the upstream's whole answer, then close the connection without
    /// answering: the write is committed upstream and the client sees a failure.
    case dropResponse
    /// Wait this long before forwarding the request.
    case delay(Duration)
    /// Forward the request, then wait this long before answering: a slow answer that a client
    /// timeout can race against a committed write.
    case delayAnswer(Duration)
    /// Forward the request twice, one copy after the other, and answer with the upstream's
    /// answer to the second copy, as a network that retransmits a request does.
    case duplicate
    /// Forward the request and hold the answer until an answer to a later request has gone
    /// out (or until ``FaultProxy/Options/reorderHold`` passes), so answers arrive out of order.
    case reorder
    /// Answer with this status, fields and body without forwarding the request.
    case respond(status: Int, headers: [String: String] = [:], body: Data = Data())

    /// `503 Service Unavailable` with `Retry-After: seconds`, without forwarding.
    public static func serviceUnavailable(retryAfter seconds: Int) -> Fault {
        .respond(status: 503, headers: ["Retry-After": String(seconds)])
    }

    /// `401 Unauthorized` with a `WWW-Authenticate: Bearer` challenge, without forwarding, as an
    /// authenticating gateway in front of the server answers a missing or expired token.
    public static var unauthorized: Fault {
        .respond(status: 401, headers: ["WWW-Authenticate": #"Bearer realm="upstream""#])
    }

    /// Whether the upstream sees the request (once or more) under this fault.
    public var forwards: Bool {
        switch self {
        case .passThrough, .dropResponse, .delay, .delayAnswer, .duplicate, .reorder: true
        case .dropRequest, .reset, .respond: false
        }
    }

    /// Whether the client gets an answer under this fault (from the upstream or the proxy).
    public var answers: Bool {
        switch self {
        case .dropRequest, .reset, .dropResponse: false
        case .passThrough, .delay, .delayAnswer, .duplicate, .reorder, .respond: true
        }
    }
}

/// Decides the ``Fault`` for each request a ``FaultProxy`` receives.
///
/// A plan is a function of the request: its arrival number (``FaultProxy/Request/index``,
/// from 0), method, path and fields. ``script(_:then:)`` lists faults by arrival number;
/// ``random(seed:faultRate:faults:where:)`` draws them from a seed, so a failing run is
/// reproduced by its seed alone.
public struct FaultPlan: Sendable {
    private let choose: @Sendable (FaultProxy.Request) -> Fault

    /// A plan that asks `choose` for each request's fault.
    public init(_ choose: @escaping @Sendable (FaultProxy.Request) -> Fault) {
        self.choose = choose
    }

    /// The fault this plan applies to `request`.
    public func fault(for request: FaultProxy.Request) -> Fault {
        choose(request)
    }

    /// Every request passes through unchanged.
    public static var passThrough: FaultPlan { FaultPlan { _ in .passThrough } }

    /// Every request gets `fault`.
    public static func always(_ fault: Fault) -> FaultPlan { FaultPlan { _ in fault } }

    /// Request number *i* (in arrival order, from 0) gets `faults[i]`; later ones get `rest`.
    public static func script(_ faults: [Fault], then rest: Fault = .passThrough) -> FaultPlan {
        FaultPlan { request in faults.indices.contains(request.index) ? faults[request.index] : rest }
    }

    /// Each request matching `filter` gets, with probability `faultRate`, one of `faults`
    /// (equally likely); every other request passes through.
    ///
    /// The draw for request number *i* depends only on `seed` and *i*, not on what came
    /// before, so the same seed gives the same faults to the same arrival numbers in every run.
    /// - Parameters:
    ///   - seed: the seed; print it with a failure to reproduce the run.
    ///   - faultRate: the probability, from 0 to 1, that a matching request gets a fault.
    ///   - faults: the faults to draw from; an empty list means pass-through.
    ///   - filter: which requests may get a fault, e.g. `{ $0.method != "GET" }`.
    public static func random(
        seed: UInt64, faultRate: Double, faults: [Fault],
        where filter: @escaping @Sendable (FaultProxy.Request) -> Bool = { _ in true }
    ) -> FaultPlan {
        FaultPlan { request in
            guard !faults.isEmpty, filter(request) else { return .passThrough }
            var state = seed ^ (UInt64(truncatingIfNeeded: request.index) &* 0x9E37_79B9_7F4A_7C15)
            let draw = splitMix64(&state)
            let unit = Double(draw >> 11) / Double(UInt64(1) << 53)
            guard unit < faultRate else { return .passThrough }
            return faults[Int(splitMix64(&state) % UInt64(faults.count))]
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood): a tiny generator whose output depends on its state only.
private func splitMix64(_ state: inout UInt64) -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var value = state
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    return value ^ (value >> 31)
}
