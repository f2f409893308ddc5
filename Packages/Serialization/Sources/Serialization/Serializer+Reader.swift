import Foundation

extension Serializer {
    /// A reader for many documents that each hold a `Value` — the rows of a query, the lines of
    /// a JSON Lines file, the bodies of many requests — which keeps what it can between them.
    ///
    /// ```swift
    /// let reader = Serializer(.json).reader(for: Note.self)
    /// let notes = try lines.map { try reader.read(from: $0) }
    /// ```
    ///
    /// Each document reads exactly as ``read(_:from:)-(_,Data)`` reads it, errors included.
    public func reader<Value: Decodable>(for type: Value.Type) -> Reader<Value> {
        Reader(self)
    }

    /// Reads many documents that each hold a `Value`, with one ``Serializer``: for JSON it looks
    /// up once what the one-pass reader knows of `Value`, and reuses its buffers, instead of
    /// doing both for every document.
    ///
    /// A reader is for one task at a time (it is not `Sendable`); make one per task, they are cheap.
    public final class Reader<Value: Decodable> {
        private let serializer: Serializer
        private let depthLimit: Int?
        private var kind: ModelKind
        private var tape: [TapeNode]

        init(_ serializer: Serializer) {
            self.serializer = serializer
            depthLimit = serializer.onePassDepthLimit
            kind = depthLimit == nil ? .unhandled : JSONFastReader.kind(of: Value.self)
            tape = kind == .unhandled ? [] : FastReaderState.newTape()
        }

        /// The `Value` in the bytes `bytes` points to, as ``Serializer/read(_:from:)-(_,Data)``
        /// reads them: for memory that someone else owns (a database row, a mapped file), read
        /// without a copy where the one-pass reader answers. The bytes must stay valid and
        /// unchanged during the call; nothing keeps them after it.
        public func read(from bytes: UnsafeRawBufferPointer) throws -> Value {
            if let depthLimit, kind != .unhandled {
                do {
                    return try JSONFastReader.read(
                        Value.self, from: bytes, depthLimit: depthLimit, userInfo: serializer.decoder.options.userInfo,
                        kind: &kind, tape: &tape)
                } catch {
                    // Read below, by the reader whose answer (or error) this is.
                }
            }
            return try serializer.readThroughTree(Value.self, from: Data(bytes))
        }

        /// The `Value` in `data`, as ``Serializer/read(_:from:)-(_,Data)`` reads it.
        public func read(from data: Data) throws -> Value {
            if let depthLimit, kind != .unhandled {
                do {
                    return try JSONFastReader.read(
                        Value.self, from: data, depthLimit: depthLimit, userInfo: serializer.decoder.options.userInfo,
                        kind: &kind, tape: &tape)
                } catch {
                    // Read below, by the reader whose answer (or error) this is.
                }
            }
            return try serializer.readThroughTree(Value.self, from: data)
        }
    }
}

@available(*, unavailable, message: "a Serializer.Reader keeps buffers for one task; make one per task")
extension Serializer.Reader: Sendable {}
