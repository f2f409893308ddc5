import Foundation

/// An ordered list of header fields with case-insensitive names.
///
/// Repeated fields stay separate: setting a value replaces every field of that name, adding
/// one appends another field, and nothing is ever comma-joined behind your back (a
/// `Set-Cookie` list survives intact). Reading by subscript gives the first value.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral,
    CustomStringConvertible
{
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as it was given; compared case-insensitively.
        public var name: String
        /// The value.
        public var value: String

        /// A field from its name and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields in the order they were added.
    public private(set) var fields: [Field] = []

    /// No headers.
    public init() {}

    /// Headers from name–value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Headers from a dictionary literal such as `["Accept": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The first value of the field named `name`, ignoring case; setting replaces every field
    /// of that name (nil removes them).
    public subscript(name: String) -> String? {
        get { fields.first { $0.matches(name) }?.value }
        set {
            guard let newValue, let first = fields.firstIndex(where: { $0.matches(name) }) else {
                remove(name)
                if let newValue { fields.append(Field(name: name, value: newValue)) }
                return
            }
            fields[first].value = newValue
            var index = fields.count - 1
            while index > first {
                if fields[index].matches(name) { fields.remove(at: index) }
                index -= 1
            }
        }
    }

    /// Every value of the field named `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { $0.matches(name) }.map(\.value)
    }

    /// Appends another field, keeping those already there.
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.matches(name) }
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { $0.matches(name) }
    }

    /// These headers with `other`'s fields replacing any of the same name: per-request headers
    /// win over session-wide ones.
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        var replaced = Set<String>()
        for field in other.fields {
            let key = field.name.lowercased()
            if replaced.insert(key).inserted { merged.remove(field.name) }
            merged.fields.append(field)
        }
        return merged
    }

    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }

    /// Iterates over the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }

    /// One `Name: value` line per field.
    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension HTTPHeaders.Field {
    func matches(_ other: String) -> Bool {
        ASCII.equalsIgnoringCase(name, other)
    }
}
