import Foundation

/// Translates a ``RecordQueryPlan`` into SQL for the database backends, so SQLite and
/// PostgreSQL share one translation of the query semantics.
///
/// Each queryable field is a real column named `q_<name>`, holding the value the field's key
/// path reads in Swift (booleans as 0/1, text compared binary). Every comparison is written
/// two-valued — `(column IS NOT NULL AND column > ?)` — so nil never satisfies it and `NOT`
/// negates exactly, as in memory; the `IS NOT NULL` conjunct leaves the index usable.
package struct RecordSQL<Record> {
    /// The SQL flavour: placeholders and null ordering differ.
    package enum Dialect: Sendable { case sqlite, postgres }

    package let dialect: Dialect
    /// The table, already quoted.
    package let table: String

    package init(dialect: Dialect, table: String) {
        self.dialect = dialect
        self.table = table
    }

    /// `name` as a quoted SQL identifier.
    package static func quote(_ name: String) -> String {
        // Built per query: plain Swift, without a trip through NSString for the usual name with no quote.
        guard name.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + name + "\"" }
        return "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
    }

    /// The quoted column holding the field named `name`.
    package static func column(_ name: String) -> String { quote("q_" + name) }

    /// Whether SQLite reads `plan`'s records in id order anyway: no sort keys, and a condition
    /// that is constant (the primary key) or one field equal to a value or nil (its
    /// `(field, id)` index).
    static func readsInIDOrder(_ plan: RecordQueryPlan<Record>) -> Bool {
        guard plan.sort.isEmpty else { return false }
        switch plan.condition {
        case .constant, .isNil: return true
        case .compare(_, .equal, _): return true
        default: return false
        }
    }

    /// A `SELECT` of `columns` for the records `plan` selects, in its order and window.
    package func select(_ columns: String, _ plan: RecordQueryPlan<Record>) -> (sql: String, bindings: [QueryValue]) {
        var bindings: [QueryValue] = []
        var sql = "SELECT \(columns) FROM \(table) WHERE " + condition(plan.condition, &bindings)
        sql += " ORDER BY "
        for key in plan.sort {
            let column = Self.column(key.field.name)
            switch (dialect, key.ascending) {
            case (.sqlite, true): sql += "\(column) ASC, "
            case (.sqlite, false): sql += "\(column) DESC, "
            // PostgreSQL puts nulls last by default; nil is the smallest value here.
            case (.postgres, true): sql += "\(column) ASC NULLS FIRST, "
            case (.postgres, false): sql += "\(column) DESC NULLS LAST, "
            }
        }
        // SQLite's field indexes are on (field, id), so one field's equality reads its matches
        // already in id order and needs no sort. Otherwise SQLite's planner, without
        // statistics, would rather walk the primary key to skip the final sort than search a
        // field's index; `+id` takes the key out of the running when a condition can use an
        // index, so a selective filter reads only the matching rows.
        if dialect == .sqlite, !Self.readsInIDOrder(plan) {
            sql += "+id ASC"
        } else {
            sql += "id ASC"
        }
        if let limit = plan.limit {
            sql += " LIMIT \(limit)"
        } else if plan.offset > 0, dialect == .sqlite {
            sql += " LIMIT -1"
        }
        if plan.offset > 0 { sql += " OFFSET \(plan.offset)" }
        return (sql, bindings)
    }

    /// A `SELECT COUNT(*)` of the records `plan`'s condition selects.
    package func count(_ plan: RecordQueryPlan<Record>) -> (sql: String, bindings: [QueryValue]) {
        var bindings: [QueryValue] = []
        let sql = "SELECT COUNT(*) FROM \(table) WHERE " + condition(plan.condition, &bindings)
        return (sql, bindings)
    }

    private func placeholder(_ value: QueryValue, _ bindings: inout [QueryValue]) -> String {
        bindings.append(value)
        return dialect == .sqlite ? "?" : "$\(bindings.count)"
    }

    private func condition(_ condition: QueryCondition<QueryField<Record>>, _ bindings: inout [QueryValue]) -> String {
        switch condition {
        case .constant(let value):
            return value ? "(1 = 1)" : "(1 = 0)"
        case .compare(let field, let comparison, let value):
            let column = Self.column(field.name)
            if value == .null {
                switch comparison {
                case .equal: return "(\(column) IS NULL)"
                case .notEqual: return "(\(column) IS NOT NULL)"
                default: return "(1 = 0)"
                }
            }
            return "(\(column) IS NOT NULL AND \(column) \(comparison.rawValue) \(placeholder(value, &bindings)))"
        case .contains(let field, let part):
            let column = Self.column(field.name)
            let search = dialect == .sqlite ? "instr" : "strpos"
            return "(\(column) IS NOT NULL AND \(search)(\(column), \(placeholder(.text(part), &bindings))) > 0)"
        case .oneOf(let field, let values):
            let column = Self.column(field.name)
            var parts: [String] = []
            if values.contains(.null) { parts.append("\(column) IS NULL") }
            let present = values.filter { $0 != .null }
            if !present.isEmpty {
                let list = present.map { placeholder($0, &bindings) }.joined(separator: ", ")
                parts.append("(\(column) IS NOT NULL AND \(column) IN (\(list)))")
            }
            return parts.isEmpty ? "(1 = 0)" : "(" + parts.joined(separator: " OR ") + ")"
        case .isNil(let field):
            return "(\(Self.column(field.name)) IS NULL)"
        case .and(let lhs, let rhs):
            return "(\(self.condition(lhs, &bindings)) AND \(self.condition(rhs, &bindings)))"
        case .or(let lhs, let rhs):
            return "(\(self.condition(lhs, &bindings)) OR \(self.condition(rhs, &bindings)))"
        case .not(let inner):
            return "(NOT \(self.condition(inner, &bindings)))"
        }
    }
}
