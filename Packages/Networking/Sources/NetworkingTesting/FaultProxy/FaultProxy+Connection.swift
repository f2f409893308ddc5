import FlyingSocks
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// One connection: reading a request, applying its fault, forwarding it and answering.
extension FaultProxy {
    // MARK: - One connection

    func serve(_ client: AsyncSocket) async {
        var connection = WireConnection(socket: client)
        var reset = false
        defer {
            if reset { Self.setResetOnClose(client.socket) }
            try? client.close()
        }
        while !Task.isCancelled {
            let head: WireHead
            let request: ParsedRequest
            let body: [UInt8]
            do {
                guard let read = try await connection.readHead(limit: options.maxHeadBytes) else { return }
                head = read
                request = try ParsedRequest(head.startLine)
                if head.value("Expect")?.lowercased() == "100-continue" {
                    try await connection.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
                body = try await connection.readBody(of: head, isResponse: false, limit: options.maxBodyBytes)
            } catch let error as WireError {
                await reject(error, on: connection)
                return
            } catch {
                return
            }
            let received = Request(
                index: 0, method: request.method, target: request.target, headers: Self.headerDictionary(head),
                body: Data(body))
            let (index, fault) = state.withLock { state -> (Int, Fault) in
                var numbered = received
                numbered.index = state.nextIndex
                state.nextIndex += 1
                let fault = state.plan.fault(for: numbered)
                state.exchanges.append(
                    Exchange(request: numbered, fault: fault, upstreamAnswers: [], outcome: .inFlight))
                return (numbered.index, fault)
            }
            let closesAfter =
                !options.reusesConnections || request.version == "HTTP/1.0"
                || head.connectionOptions.contains("close")
            let outcome: Outcome
            do {
                outcome = try await apply(
                    fault, index: index, request: request, head: head, body: body, closesAfter: closesAfter,
                    connection: connection)
            } catch is CancellationError {
                record(index) { $0.outcome = .abandoned }
                return
            } catch {
                record(index) { $0.outcome = .clientGone }
                return
            }
            if outcome == .reset { reset = true }
            record(index) { $0.outcome = outcome }
            guard case .answered = outcome, !closesAfter else { return }
        }
    }

    /// Carries out `fault` and returns what the client got. Throws when the client's socket fails
    /// or the task is cancelled.
    func apply(
        _ fault: Fault, index: Int, request: ParsedRequest, head: WireHead, body: [UInt8], closesAfter: Bool,
        connection: WireConnection
    ) async throws -> Outcome {
        switch fault {
        case .dropRequest:
            return .closedWithoutAnswer
        case .reset:
            return .reset
        case .respond(let status, let headers, let answerBody):
            let fields = headers.sorted { $0.key < $1.key }.map { WireField(name: $0.key, value: $0.value) }
            try await answer(
                index: index, status: status, fields: fields, body: Array(answerBody), method: request.method,
                closesAfter: closesAfter, on: connection)
            return .answered(status: status)
        case .passThrough, .delay, .delayAnswer, .dropResponse, .duplicate, .reorder:
            break
        }
        if case .delay(let duration) = fault { try await Task.sleep(for: duration) }
        var upstream: UpstreamAnswer
        do {
            upstream = try await forward(request, head: head, body: body, index: index)
            if fault == .duplicate { upstream = try await forward(request, head: head, body: body, index: index) }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            let reason = "\(error)"
            try await answer(
                index: index, status: 502, fields: [WireField(name: "Content-Type", value: "text/plain")],
                body: Array("upstream failed: \(reason)".utf8), method: request.method, closesAfter: true,
                on: connection)
            return .upstreamFailed(reason)
        }
        switch fault {
        case .dropResponse:
            return .closedWithoutAnswer
        case .delayAnswer(let duration):
            try await Task.sleep(for: duration)
        case .reorder:
            let later = try await holdUntilLaterAnswer(than: index)
            record(index) { $0.releasedAfter = later }
        default:
            break
        }
        var fields = endToEndFields(of: upstream.head)
        if request.method == "HEAD", let length = upstream.head.value("Content-Length") {
            fields.append(WireField(name: "Content-Length", value: length))
        }
        try await answer(
            index: index, status: upstream.status, fields: fields, body: upstream.body, method: request.method,
            closesAfter: closesAfter, on: connection)
        return .answered(status: upstream.status)
    }

    /// Waits until an answer to a later request has gone out, or until the hold runs out.
    func holdUntilLaterAnswer(than index: Int) async throws -> Int? {
        let deadline = ContinuousClock.now + options.reorderHold
        while ContinuousClock.now < deadline {
            if let later = state.withLock({ $0.answered.first { $0 > index } }) { return later }
            try await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    func answer(
        index: Int, status: Int, fields: [WireField], body: [UInt8], method: String, closesAfter: Bool,
        on connection: WireConnection
    ) async throws {
        var fields = fields
        fields.append(WireField(name: "Connection", value: closesAfter ? "close" : "keep-alive"))
        let bodiless = (100..<200).contains(status) || status == 204 || status == 304
        let message = wireMessage(
            startLine: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))", fields: fields,
            body: method == "HEAD" || bodiless ? [] : body, withLength: method != "HEAD" && !bodiless)
        // Recorded before the write, so a client that has its answer always finds it in the record;
        // a failed write turns it into `.clientGone`.
        state.withLock { state in
            state.answered.append(index)
            if state.exchanges.indices.contains(index) { state.exchanges[index].outcome = .answered(status: status) }
        }
        try await connection.write(message)
    }

    struct UpstreamAnswer {
        var status: Int
        var head: WireHead
        var body: [UInt8]
    }

    /// Sends one copy of the request to the upstream on a connection of its own and reads the whole answer.
    func forward(
        _ request: ParsedRequest, head: WireHead, body: [UInt8], index: Int
    ) async throws
        -> UpstreamAnswer
    {
        let upstreamPort = self.upstreamPort
        let socket = try AsyncSocket(socket: Socket(domain: Int32(AF_INET), type: .stream), pool: pool)
        defer { try? socket.close() }
        try await socket.connect(to: sockaddr_in.inet(ip4: upstreamHost, port: upstreamPort))
        var fields = [WireField(name: "Host", value: "\(upstreamHost):\(upstreamPort)")]
        fields += endToEndFields(of: head).filter { $0.name.lowercased() != "host" }
        fields.append(WireField(name: "Connection", value: "close"))
        let framed = !body.isEmpty || head.value("Content-Length") != nil || head.value("Transfer-Encoding") != nil
        var upstream = WireConnection(socket: socket)
        try await upstream.write(
            wireMessage(
                startLine: "\(request.method) \(request.target) HTTP/1.1", fields: fields, body: body,
                withLength: framed))
        while true {
            guard let answerHead = try await upstream.readHead(limit: options.maxHeadBytes) else {
                throw WireError.truncated
            }
            let status = try Self.status(of: answerHead.startLine)
            // Interim answers (100 Continue, 103 Early Hints) are not passed on.
            if (100..<200).contains(status) && status != 101 { continue }
            let bodiless = request.method == "HEAD" || status == 204 || status == 304
            let answerBody =
                bodiless
                ? [] : try await upstream.readBody(of: answerHead, isResponse: true, limit: options.maxBodyBytes)
            let answer = Answer(status: status, headers: Self.headerDictionary(answerHead), body: Data(answerBody))
            record(index) { $0.upstreamAnswers.append(answer) }
            return UpstreamAnswer(status: status, head: answerHead, body: answerBody)
        }
    }

    func reject(_ error: WireError, on connection: WireConnection) async {
        let (status, reason): (Int, String)
        switch error {
        case .headTooLarge(let limit): (status, reason) = (431, "head larger than \(limit) bytes")
        case .bodyTooLarge(let limit): (status, reason) = (413, "body larger than \(limit) bytes")
        case .unsupportedTransferEncoding(let coding): (status, reason) = (501, "transfer coding \(coding)")
        case .malformed(let what): (status, reason) = (400, what)
        case .truncated: (status, reason) = (400, "the connection closed in the middle of a request")
        }
        state.withLock { $0.rejections.append(Rejection(status: status, reason: reason)) }
        guard error != .truncated else { return }
        let message = wireMessage(
            startLine: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))",
            fields: [
                WireField(name: "Content-Type", value: "text/plain"), WireField(name: "Connection", value: "close"),
            ], body: Array(reason.utf8))
        try? await connection.write(message)
        await Self.lingeringClose(connection.socket)
    }

    /// Closes the sending side and discards what the client is still sending, for at most 2 s and
    /// 4 MiB, before the socket is closed: closing with unread input makes the kernel reset the
    /// connection, and the reset would destroy the answer before the client read it.
    static func lingeringClose(_ socket: AsyncSocket) async {
        _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                var discarded = 0
                while discarded < 4 << 20, let bytes = try? await socket.read(atMost: 64 * 1024) {
                    discarded += bytes.count
                }
            }
            group.addTask { try? await Task.sleep(for: .seconds(2)) }
            await group.next()
            group.cancelAll()
        }
    }

    func record(_ index: Int, _ change: (inout Exchange) -> Void) {
        state.withLock { state in
            guard state.exchanges.indices.contains(index) else { return }
            change(&state.exchanges[index])
        }
    }

    // MARK: - Helpers

    static func headerDictionary(_ head: WireHead) -> [String: String] {
        var headers: [String: String] = [:]
        for field in head.fields {
            let name = field.name.lowercased()
            headers[name] = headers[name].map { "\($0), \(field.value)" } ?? field.value
        }
        return headers
    }

    static func status(of statusLine: String) throws -> Int {
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]),
            (100...599).contains(status)
        else { throw WireError.malformed("an upstream status line that is not HTTP/1.x") }
        return status
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: "Status"
        }
    }

    /// `SO_LINGER` with a zero timeout: `close` then sends RST instead of FIN.
    static func setResetOnClose(_ socket: Socket) {
        var value = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(
            socket.file.rawValue, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
    }
}

/// A request line: `METHOD SP origin-form-target SP HTTP/1.x`.
struct ParsedRequest {
    var method: String
    var target: String
    var version: String

    init(_ line: String) throws {
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw WireError.malformed("a request line that is not method, target, version") }
        guard !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }) else {
            throw WireError.malformed("a method that is not a token")
        }
        guard parts[1].hasPrefix("/") else { throw WireError.malformed("a target that is not an absolute path") }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw WireError.malformed("a version other than HTTP/1.1 or HTTP/1.0")
        }
        method = String(parts[0])
        target = String(parts[1])
        version = String(parts[2])
    }
}
