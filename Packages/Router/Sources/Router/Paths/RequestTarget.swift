/// A path or URL taken apart for matching: scheme, host, the path's decoded segments, query
/// and fragment.
///
/// The rule for slashes: one trailing slash is ignored (`/notes/` is `/notes`); any other empty
/// segment (`/notes//5`) makes the path match nothing. Raw `.` and `..` segments are an error:
/// paths are never normalised. Each segment is percent-decoded once, after splitting.
///
/// Parsing works on the UTF-8 bytes in one pass; segments without escapes are slices of the
/// input, not copies.
struct RequestTarget {
    /// The text navigated to.
    let input: String
    /// The URL's scheme, lower-cased; nil for a bare path.
    let scheme: String?
    /// The URL's host, lower-cased, for schemes that have one (see ``RouteOptions/hostSchemes``).
    let host: String?
    /// The path's segments, percent-decoded.
    let segments: [Substring]
    /// The segments folded to lower case, for case-insensitive tables; otherwise the same.
    let foldedSegments: [Substring]
    /// False when the path has an empty segment: it then matches no route.
    let isMatchable: Bool
    /// Whether some segment decoded to `.` or `..` or to text holding `/`: only then must the
    /// matcher check what routes allow their parameters (see ``ParameterAllowance``). A segment
    /// without escapes can be neither, since raw dot segments are refused and `/` splits.
    let hasDecodedUnsafeSegment: Bool
    /// The raw query, without `?`.
    let query: Substring?
    /// The raw fragment, without `#`.
    let fragment: Substring?

    /// Byte offsets of the parts of the input.
    private struct Layout {
        var scheme: Range<Int>?
        var authority: Range<Int>?
        var path: Range<Int>
        var query: Range<Int>?
        var fragment: Range<Int>?
        var hasNul = false
    }

    /// Takes `input` apart.
    /// - Throws: ``RouteError/invalidPath(path:problem:)`` for malformed input or input over the limits.
    init(_ text: String, options: RouteOptions) throws(RouteError) {
        var input = text
        input.makeContiguousUTF8()
        self.input = input
        guard input.utf8.count <= options.limits.maximumLength else {
            throw .invalidPath(path: input, problem: .tooLong(limit: options.limits.maximumLength))
        }
        guard let layout = input.utf8.withContiguousStorageIfAvailable(Self.scan) ?? nil else {
            throw .invalidPath(path: input, problem: .notAbsolute)
        }
        guard !layout.hasNul else { throw .invalidPath(path: input, problem: .nulByte) }
        let slice = { (range: Range<Int>) in Self.slice(input, range) }
        var scheme: String?
        var host: String?
        var pathText = input
        var pathRange = layout.path
        if let schemeRange = layout.scheme {
            let lowerScheme = slice(schemeRange).lowercased()
            scheme = lowerScheme
            let authority = layout.authority.map(slice) ?? ""
            if options.hostSchemes.contains(lowerScheme) {
                host = Self.hostName(of: authority)
            } else if !authority.isEmpty {
                // `myapp://notes/5`: a custom scheme's "host" is the first path segment.
                pathText = "/" + authority + slice(layout.path)
                pathText.makeContiguousUTF8()
                pathRange = 0..<pathText.utf8.count
            }
        }
        self.scheme = scheme
        self.host = host
        self.query = layout.query.map(slice)
        self.fragment = layout.fragment.map(slice)
        var matchable = true
        var decodedUnsafe = false
        self.segments = try Self.split(
            pathText, pathRange, input: input, options: options, matchable: &matchable, decodedUnsafe: &decodedUnsafe)
        self.isMatchable = matchable
        self.hasDecodedUnsafeSegment = decodedUnsafe
        self.foldedSegments = options.caseInsensitive ? segments.map { Substring($0.lowercased()) } : segments
    }

    private static func slice(_ text: String, _ range: Range<Int>) -> Substring {
        let utf8 = text.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
        let end = utf8.index(start, offsetBy: range.count)
        return Substring(utf8[start..<end])
    }

    /// Finds scheme, authority, path, query and fragment; nil when the text is neither an
    /// absolute path nor `scheme://…`.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Layout? {
        var layout = Layout(path: 0..<0)
        var index = 0
        if bytes.first != UInt8(ascii: "/") {
            // scheme ":" "//" authority
            guard let first = bytes.first, isLetter(first) else { return nil }
            while index < bytes.count, isSchemeByte(bytes[index]) { index += 1 }
            guard index + 2 < bytes.count, bytes[index] == UInt8(ascii: ":"),
                bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/")
            else { return nil }
            layout.scheme = 0..<index
            index += 3
            let authorityStart = index
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
                if byte == 0 { layout.hasNul = true }
                index += 1
            }
            layout.authority = authorityStart..<index
        }
        let pathStart = index
        var pathEnd = bytes.count
        var queryStart: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "?") && queryStart == nil && pathEnd == bytes.count {
                pathEnd = index
                queryStart = index + 1
            } else if byte == UInt8(ascii: "#") {
                if pathEnd == bytes.count { pathEnd = index }
                if let queryStart { layout.query = queryStart..<index }
                layout.fragment = (index + 1)..<bytes.count
                queryStart = nil
                // The fragment is not parsed further, but a NUL in it is still refused.
                if bytes[(index + 1)...].contains(0) { layout.hasNul = true }
                break
            } else if byte == 0 {
                layout.hasNul = true
            }
            index += 1
        }
        if let queryStart { layout.query = queryStart..<bytes.count }
        layout.path = pathStart..<pathEnd
        return layout
    }

    /// Splits an absolute path (`range` of `text`, empty meaning `/`) into decoded segments.
    private static func split(
        _ text: String, _ range: Range<Int>, input: String, options: RouteOptions, matchable: inout Bool,
        decodedUnsafe: inout Bool
    ) throws(RouteError) -> [Substring] {
        let limit = options.limits.maximumSegments
        let result = text.utf8.withContiguousStorageIfAvailable { bytes -> Result<[Substring], RouteError> in
            // Drop the leading slash and one trailing slash.
            var start = range.lowerBound + (range.isEmpty ? 0 : 1)
            var end = range.upperBound
            if end - start >= 1 && bytes[end - 1] == UInt8(ascii: "/") {
                end -= 1
                if end == start {
                    // "//": one empty segment.
                    matchable = false
                    return .success([""])
                }
            }
            guard start < end else { return .success([]) }
            var count = 1
            for index in start..<end where bytes[index] == UInt8(ascii: "/") { count += 1 }
            guard count <= limit else {
                return .failure(.invalidPath(path: input, problem: .tooManySegments(limit: limit)))
            }
            var segments: [Substring] = []
            segments.reserveCapacity(count)
            while true {
                var stop = start
                var hasPercent = false
                while stop < end {
                    let byte = bytes[stop]
                    if byte == UInt8(ascii: "/") { break }
                    if byte == UInt8(ascii: "%") { hasPercent = true }
                    stop += 1
                }
                let length = stop - start
                if length == 0 {
                    matchable = false
                } else if bytes[start] == UInt8(ascii: "."),
                    length == 1 || (length == 2 && bytes[start + 1] == UInt8(ascii: "."))
                {
                    return .failure(.invalidPath(path: input, problem: .dotSegment))
                }
                if hasPercent {
                    switch PercentCoding.decode(UnsafeBufferPointer(rebasing: bytes[start..<stop])) {
                    case .text(let decoded):
                        if decoded.utf8.contains(0) { return .failure(.invalidPath(path: input, problem: .nulByte)) }
                        if !ParameterAllowance().admits(decoded[...]) { decodedUnsafe = true }
                        segments.append(decoded[...])
                    case .invalid(let offset):
                        let position = start - range.lowerBound + offset
                        return .failure(.invalidPath(path: input, problem: .invalidPercentEscape(offset: position)))
                    }
                } else {
                    segments.append(slice(text, start..<stop))
                }
                if stop == end { break }
                start = stop + 1
            }
            return .success(segments)
        }
        guard let result else { throw .invalidPath(path: input, problem: .notAbsolute) }
        return try result.get()
    }

    /// The host of an authority, without user info or port, lower-cased.
    private static func hostName(of authority: Substring) -> String {
        var host = authority
        if let at = host.utf8.lastIndex(of: UInt8(ascii: "@")) { host = host[host.index(after: at)...] }
        if host.hasPrefix("[") {
            if let close = host.firstIndex(of: "]") { host = host[...close] }
        } else if let colon = host.utf8.lastIndex(of: UInt8(ascii: ":")) {
            host = host[..<colon]
        }
        return host.lowercased()
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46
    }
}
