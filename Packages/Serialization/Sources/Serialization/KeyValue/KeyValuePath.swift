/// A location inside a ``KeyValue`` tree, written `"a.b[2].c"`.
///
/// Keys are separated by dots and array indices written in brackets. A key that itself holds a
/// dot or a bracket is written with a backslash before it (`"file\\.json"`).
public struct KeyValuePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        /// An object key.
        case key(String)
        /// An array index.
        case index(Int)
    }

    /// The steps, outermost first.
    public var components: [Component]

    /// A path made of `components`.
    public init(_ components: [Component]) { self.components = components }

    /// Parses `"a.b[2].c"`; malformed brackets are read as part of a key.
    public init(_ text: String) {
        // Most paths in migrations are a single plain key.
        if !text.isEmpty,
            !text.utf8.contains(where: {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "\\")
            })
        {
            components = [.key(text)]
            return
        }
        var components: [Component] = []
        var key = ""
        var pendingKey = false
        var characters = text.makeIterator()
        var lookahead: Character? = characters.next()
        func flush() {
            if pendingKey || !key.isEmpty { components.append(.key(key)) }
            key = ""
            pendingKey = false
        }
        while let character = lookahead {
            lookahead = characters.next()
            switch character {
            case "\\":
                if let next = lookahead {
                    key.append(next)
                    lookahead = characters.next()
                }
                pendingKey = true
            case ".":
                flush()
                pendingKey = true
            case "[":
                var digits = ""
                while let next = lookahead, next != "]" {
                    digits.append(next)
                    lookahead = characters.next()
                }
                if lookahead == "]", let index = Int(digits) {
                    lookahead = characters.next()
                    flush()
                    components.append(.index(index))
                } else {
                    key += "[" + digits
                    pendingKey = true
                }
            default:
                key.append(character)
                pendingKey = true
            }
        }
        flush()
        self.components = components
    }

    /// Parses a path literal.
    public init(stringLiteral value: String) { self.init(value) }

    /// The path as written: `"a.b[2].c"`; the empty path prints as `"<root>"`.
    public var description: String {
        guard !components.isEmpty else { return "<root>" }
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                for character in key {
                    if character == "." || character == "[" || character == "\\" { text.append("\\") }
                    text.append(character)
                }
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }

    /// This path followed by `component`.
    public func appending(_ component: Component) -> KeyValuePath {
        KeyValuePath(components + [component])
    }

    /// A path from coding keys, as decoders report them.
    init(codingPath: [any CodingKey]) {
        components = codingPath.map { key in key.intValue.map(Component.index) ?? .key(key.stringValue) }
    }
}

extension KeyValue {
    /// The value at `path` (`tree[path: "a.b[2].c"]`), or nil when any step is missing.
    ///
    /// Setting creates missing objects along the way; setting `nil` removes the last step.
    public subscript(path path: KeyValuePath) -> KeyValue? {
        get {
            var current = self
            for component in path.components {
                switch component {
                case .key(let key):
                    guard let next = current[key] else { return nil }
                    current = next
                case .index(let index):
                    guard let next = current[index] else { return nil }
                    current = next
                }
            }
            return current
        }
        set { set(newValue, at: path.components[...]) }
    }

    private mutating func set(_ value: KeyValue?, at components: ArraySlice<KeyValuePath.Component>) {
        guard let first = components.first else {
            self = value ?? .null
            return
        }
        let rest = components.dropFirst()
        switch first {
        case .key(let key):
            if rest.isEmpty {
                self[key] = value
            } else {
                var child = self[key] ?? .object([:])
                self[key] = .null
                child.set(value, at: rest)
                self[key] = child
            }
        case .index(let index):
            guard case .array(var array) = self, array.indices.contains(index) else { return }
            self = .null
            if rest.isEmpty {
                if let value { array[index] = value } else { array.remove(at: index) }
            } else {
                array[index].set(value, at: rest)
            }
            self = .array(array)
        }
    }
}
