import Foundation
import Hummingbird
import Storage

extension SyncRoutes {
    /// `GET /<path>/changes?after=<cursor>&limit=<n>`: a page of the change feed.
    func changes(_ request: Request) async -> Response {
        let query = request.uri.queryParameters
        do {
            let afters = query[values: "after"]
            guard afters.count <= 1 else {
                throw SyncRequestError.malformedCursor(reason: "after is given more than once")
            }
            var cursor: ChangeCursor?
            if let text = afters.first {
                do {
                    cursor = try ChangeCursor(String(text))
                } catch {
                    guard case .malformedCursor(_, let reason) = error else { throw error }
                    throw SyncRequestError.malformedCursor(reason: reason)
                }
            }
            let limits = query[values: "limit"]
            guard limits.count <= 1 else { throw SyncRequestError.invalidLimit(limits.joined(separator: ",")) }
            var limit = ChangeFeed.defaultPageSize
            if let text = limits.first {
                // Only plain decimal digits: `+5`, ` 5`, `0x10` and overflowing numbers are refused.
                guard !text.isEmpty, text.utf8.count <= 18,
                    text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                    let number = Int(text), number >= 1
                else { throw SyncRequestError.invalidLimit(String(text)) }
                limit = number
            }
            let page = try await store.changes(after: cursor, limit: limit)
            let body = WirePage(
                entries: page.entries.map(Self.wire), next: page.next.description, hasMore: page.hasMore)
            return try SyncAnswer(status: 200, contentType: SyncAnswer.json, body: RecordJSON.data(body)).response
        } catch let error as SyncRequestError {
            return Self.problem(error)
        } catch let error as ChangeFeedError {
            switch error {
            case .malformedCursor(_, let reason): return Self.problem(.malformedCursor(reason: reason))
            case .invalidLimit(let limit): return Self.problem(.invalidLimit(String(limit)))
            default:
                guard error.requiresFullRefetch else { return Self.serverError() }
                let reason =
                    switch error {
                    case .cursorExpired: "cursorExpired"
                    case .foreignCursor: "foreignCursor"
                    default: "cursorAhead"
                    }
                return Self.problem(status: 410, reason: reason, detail: error.message, refetch: true)
            }
        } catch {
            return Self.serverError()
        }
    }

    /// A feed entry as the protocol writes it.
    static func wire(_ entry: ChangeFeedEntry<Record>) -> WireEntry<Record> {
        switch entry.change {
        case .saved(let record):
            WireEntry(id: entry.id, op: .saved, revision: record.revision, record: record)
        case .deleted:
            WireEntry(id: entry.id, op: .deleted, revision: entry.revision ?? 0, record: nil)
        }
    }

    /// A problem answer for a refused request.
    static func problem(_ error: SyncRequestError) -> Response {
        problem(status: error.status, reason: error.reason, detail: error.message)
    }

    /// A problem answer; `current` (when `hasCurrent`) is the server's record in a conflict.
    static func problemAnswer(
        status: Int, reason: String, detail: String, refetch: Bool? = nil, field: String? = nil,
        current: WireEntry<Record>? = nil, hasCurrent: Bool = false
    ) throws -> SyncAnswer {
        let problem = WireProblem(
            type: WireProblem<Record>.type(reason), title: WireProblem<Record>.title(status), status: status,
            detail: detail, reason: reason, refetch: refetch, field: field, current: current, hasCurrent: hasCurrent)
        return SyncAnswer(status: status, contentType: SyncAnswer.problemJSON, body: try RecordJSON.data(problem))
    }

    static func problem(status: Int, reason: String, detail: String, refetch: Bool? = nil) -> Response {
        SyncProblems.problem(status: status, reason: reason, detail: detail, refetch: refetch)
    }

    /// 500 with a detail that hides the cause (the log has it).
    static func serverError() -> Response { SyncProblems.serverError() }
}

/// Problem answers that hold no record.
enum SyncProblems {
    /// A problem answer with the protocol's members.
    static func problem(status: Int, reason: String, detail: String, refetch: Bool? = nil) -> Response {
        do {
            let problem = WireProblem<Never>(
                type: WireProblem<Never>.type(reason), title: WireProblem<Never>.title(status), status: status,
                detail: detail, reason: reason, refetch: refetch)
            return SyncAnswer(status: status, contentType: SyncAnswer.problemJSON, body: try RecordJSON.data(problem))
                .response
        } catch {
            return serverError()
        }
    }

    /// 500 with a detail that hides the cause (the log has it).
    static func serverError() -> Response {
        let body = Data(
            #"{"type":"about:blank","title":"Internal Server Error","status":500,"detail":"The server could not answer.","reason":"serverError"}"#
                .utf8)
        return SyncAnswer(status: 500, contentType: SyncAnswer.problemJSON, body: body).response
    }
}

extension SyncAnswer {
    /// The answer as a Hummingbird response.
    var response: Response {
        var headers: HTTPFields = [.contentType: contentType]
        if let location { headers[.location] = location }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
