extension KeyValue {
    /// Renames the key at `path` to `newKey`, keeping its value and position.
    ///
    /// `try tree.rename("owner.name", to: "title")` renames `name` inside `owner`.
    /// - Throws: ``SerializationError/keyNotFound(_:_:)`` when nothing is at `path`.
    public mutating func rename(_ path: KeyValuePath, to newKey: String) throws(SerializationError) {
        guard case .key(let key)? = path.components.last else {
            throw .keyNotFound(path.description, SerializationError.Location(keyPath: path))
        }
        let renamed = modifyObject(at: path.components.dropLast()) { $0.renameKey(key, to: newKey) }
        guard renamed == true else { throw .keyNotFound(key, SerializationError.Location(keyPath: path)) }
    }

    /// Runs `body` on the object at `components`, in place (no copy of the tree); nil when
    /// there is no object there.
    mutating func modifyObject<Result>(
        at components: ArraySlice<KeyValuePath.Component>, _ body: (inout KeyValueObject) -> Result
    ) -> Result? {
        guard let first = components.first else {
            guard case .object(var object) = self else { return nil }
            self = .null
            defer { self = .object(object) }
            return body(&object)
        }
        switch first {
        case .key(let key):
            guard case .object(var object) = self, let position = object.position(of: key) else { return nil }
            self = .null
            defer { self = .object(object) }
            return object.entries[position].value.modifyObject(at: components.dropFirst(), body)
        case .index(let index):
            guard case .array(var array) = self, array.indices.contains(index) else { return nil }
            self = .null
            defer { self = .array(array) }
            return array[index].modifyObject(at: components.dropFirst(), body)
        }
    }

    /// Removes the value at `path` and returns it; nothing happens when it is absent.
    @discardableResult
    public mutating func remove(_ path: KeyValuePath) -> KeyValue? {
        guard let old = self[path: path] else { return nil }
        self[path: path] = nil
        return old
    }

    /// Moves the value at `source` to `destination`, creating objects on the way.
    /// - Throws: ``SerializationError/keyNotFound(_:_:)`` when nothing is at `source`.
    public mutating func move(_ source: KeyValuePath, to destination: KeyValuePath) throws(SerializationError) {
        guard let value = remove(source) else {
            throw .keyNotFound(source.description, SerializationError.Location(keyPath: source))
        }
        self[path: destination] = value
    }

    /// Replaces the value at `path` with `transform(value)`; nothing happens when it is absent.
    public mutating func update(
        _ path: KeyValuePath, _ transform: (KeyValue) throws -> KeyValue
    ) rethrows {
        guard let value = self[path: path] else { return }
        self[path: path] = try transform(value)
    }

    /// Applies `transform` to every value of the object (or every element of the array) at `path`.
    public mutating func mapValues(
        at path: KeyValuePath = KeyValuePath([]), _ transform: (KeyValue) throws -> KeyValue
    ) rethrows {
        guard let container = self[path: path] else { return }
        switch container {
        case .object(let object):
            var mapped = object
            for position in mapped.entries.indices {
                mapped.entries[position].value = try transform(mapped.entries[position].value)
            }
            self[path: path] = .object(mapped)
        case .array(let array):
            self[path: path] = .array(try array.map(transform))
        default:
            return
        }
    }

    /// Runs `body` on every element of the array at `path` (each element typically one record).
    public mutating func forEachElement(
        at path: KeyValuePath, _ body: (inout KeyValue) throws -> Void
    ) rethrows {
        guard case .array(var array)? = self[path: path] else { return }
        for position in array.indices { try body(&array[position]) }
        self[path: path] = .array(array)
    }
}
