extension OperationRunner {
    /// The operations in a runner, in the order they were added.
    ///
    /// An operation leaves by emptying its slot, so finishing one touches no other operation:
    /// the thread adding operations and the workers finishing them share nothing but the lock.
    /// Empty slots at the front are skipped and dropped in bulk; the list is rebuilt when
    /// empty slots in the middle (behind a long-running operation) would outnumber the rest.
    struct Members {
        private var slots: [OperationLifecycle?] = []
        /// The first slot that may hold an operation; those before it are empty.
        private var head = 0
        /// The slot number of `slots[0]`: slot numbers never change, so dropping a prefix is cheap.
        private var base = 0
        private(set) var count = 0

        var isEmpty: Bool { count == 0 }

        /// The slots kept, empty ones included: what the list costs in memory.
        var slotCount: Int { slots.count - head }

        /// The operations, in the order they were added.
        var all: [OperationLifecycle] { slots[head...].compactMap { $0 } }

        mutating func append(_ operation: OperationLifecycle) {
            operation.entry.slot = base + slots.count
            slots.append(operation)
            count += 1
        }

        /// Empties the operation's slot. The caller still holds the operation, so it is not
        /// released here.
        mutating func remove(_ operation: OperationLifecycle) {
            slots[operation.entry.slot - base] = nil
            count -= 1
            if count == 0 {
                base += slots.count
                slots.removeAll(keepingCapacity: true)
                head = 0
                return
            }
            while slots[head] == nil { head += 1 }
            if head >= 1024 && head * 2 >= slots.count {
                slots.removeFirst(head)
                base += head
                head = 0
            } else if slots.count - head >= 1024 && count * 4 < slots.count - head {
                rebuild()
            }
        }

        /// Drops every empty slot, numbering the operations left afresh.
        private mutating func rebuild() {
            let operations = all
            base += slots.count
            slots = []
            slots.reserveCapacity(operations.count * 2)
            head = 0
            count = 0
            for operation in operations { append(operation) }
        }
    }
}
