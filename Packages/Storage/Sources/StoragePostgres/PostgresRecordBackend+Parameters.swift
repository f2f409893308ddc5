import PostgresNIO
import Storage

// How query values are bound: as casts in a prepared statement's text, or as bindings.

extension PostgresRecordBackend {
    /// `sql` with each `$n` cast to its value's type, and the values as binary data.
    ///
    /// A statement prepared without the cast would infer `$n`'s type from its column (a
    /// `DOUBLE PRECISION` column makes it `float8`), and an integer's bytes bound there would
    /// be read as a float. The cast declares the type the bytes have, as an unprepared query's
    /// bindings do, and it is part of the SQL text, so statements are cached per value types.
    /// `$` appears in the SQL only before a parameter number: table and field names are letters,
    /// digits and `_`, and values are never spliced in.
    static func typed(_ sql: String, _ values: [QueryValue]) -> (String, [PostgresData]) {
        var data: [PostgresData] = []
        data.reserveCapacity(values.count)
        var casts: [String] = []
        casts.reserveCapacity(values.count)
        for value in values {
            switch value {
            case .null:
                data.append(PostgresData(type: .null))
                casts.append("")
            case .bool(let flag):
                data.append(PostgresData(int64: flag ? 1 : 0))
                casts.append("::int8")
            case .integer(let number):
                data.append(PostgresData(int64: number))
                casts.append("::int8")
            case .real(let number):
                data.append(PostgresData(double: number))
                casts.append("::float8")
            case .text(let text):
                data.append(PostgresData(string: text))
                casts.append("::text")
            }
        }
        guard !values.isEmpty else { return (sql, data) }
        var result = ""
        result.reserveCapacity(sql.utf8.count + values.count * 8)
        var scalars = sql.unicodeScalars[...]
        while let dollar = scalars.firstIndex(of: "$") {
            result.unicodeScalars.append(contentsOf: scalars[...dollar])
            scalars = scalars[scalars.index(after: dollar)...]
            let digits = scalars.prefix { ("0"..."9").contains($0) }
            result.unicodeScalars.append(contentsOf: digits)
            scalars = scalars[digits.endIndex...]
            if let number = Int(String(digits)), (1...casts.count).contains(number) {
                result += casts[number - 1]
            }
        }
        result.unicodeScalars.append(contentsOf: scalars)
        return (result, data)
    }

    /// Appends `value` to `binds` as the type its column has.
    static func bind(_ value: QueryValue, to binds: inout PostgresBindings) {
        switch value {
        case .null: binds.appendNull()
        case .bool(let flag): binds.append(Int64(flag ? 1 : 0))
        case .integer(let number): binds.append(number)
        case .real(let number): binds.append(number)
        case .text(let text): binds.append(text)
        }
    }
}
