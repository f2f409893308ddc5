/// A bounded buffer that drops its oldest element when full.
///
/// Appending is O(1) and allocates only while the buffer grows to its capacity: once full, a
/// new element overwrites the oldest in place. Taking the newest element back out
/// (``popLast()``) is O(1) as well. The elements live in manually managed memory, so the hot
/// path pays neither a uniqueness check nor a bounds check. That makes a `Ring` a value only
/// in name: its owner (``RunnerRecords``) never copies one, and calls ``deallocate()`` once.
@usableFromInline
struct Ring<Element> {
    /// The most elements kept; 0 keeps none.
    @usableFromInline let capacity: Int
    /// `allocated` slots, of which `count` are initialized, starting at `head` and wrapping
    /// around the end.
    @usableFromInline var slots: UnsafeMutablePointer<Element>
    /// Slots allocated so far; grows (doubling) up to `capacity`.
    @usableFromInline var allocated: Int
    @usableFromInline var count = 0
    /// The slot of the oldest element.
    @usableFromInline var head = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        allocated = min(self.capacity, 16)
        slots = .allocate(capacity: allocated)
    }

    var isEmpty: Bool { count == 0 }

    /// The slot of the element `offset` places after the oldest.
    @inlinable
    func slot(_ offset: Int) -> Int {
        let slot = head + offset
        return slot >= allocated ? slot - allocated : slot
    }

    /// The slot of the newest element, if any.
    @inlinable
    var lastSlot: Int? {
        count == 0 ? nil : slot(count - 1)
    }

    /// Appends `element`, dropping the oldest when the buffer is full.
    @inlinable
    @inline(__always)
    mutating func append(_ element: consuming Element) {
        if count == capacity {
            // Full (the steady state): the newest takes the oldest's slot.
            guard capacity > 0 else { return }
            (slots + head).pointee = element
            head = head + 1 == allocated ? 0 : head + 1
        } else if count < allocated {
            (slots + slot(count)).initialize(to: element)
            count += 1
        } else {
            grow()
            (slots + count).initialize(to: element)
            count += 1
        }
    }

    /// Doubles the slots (up to `capacity`), moving the elements to the front.
    @usableFromInline
    mutating func grow() {
        let size = min(capacity, max(16, allocated * 2))
        let moved = UnsafeMutablePointer<Element>.allocate(capacity: size)
        let firstPart = min(count, allocated - head)
        moved.moveInitialize(from: slots + head, count: firstPart)
        (moved + firstPart).moveInitialize(from: slots, count: count - firstPart)
        slots.deallocate()
        slots = moved
        allocated = size
        head = 0
    }

    /// Removes and returns the newest element.
    @inlinable
    mutating func popLast() -> Element? {
        guard count > 0 else { return nil }
        count -= 1
        return (slots + slot(count)).move()
    }

    /// Removes and returns the oldest element.
    @usableFromInline
    mutating func removeFirst() -> Element? {
        guard count > 0 else { return nil }
        let element = (slots + head).move()
        head = head + 1 == allocated ? 0 : head + 1
        count -= 1
        return element
    }

    /// The elements, oldest first.
    var elements: [Element] {
        (0..<count).map { slots[slot($0)] }
    }

    mutating func removeAll() {
        for offset in 0..<count {
            (slots + slot(offset)).deinitialize(count: 1)
        }
        count = 0
        head = 0
    }

    /// Destroys the elements and frees the memory; the ring must not be used afterwards.
    mutating func deallocate() {
        removeAll()
        slots.deallocate()
    }
}
