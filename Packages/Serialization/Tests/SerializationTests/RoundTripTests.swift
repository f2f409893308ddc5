import Foundation
import Testing

@testable import Serialization

@Suite("Round trips through every format")
struct RoundTripTests {
    @Test("a model of every supported type survives every format", arguments: Formats.all)
    func everything(format: any DataFormat) throws {
        let serializer = Serializer(format: format)
        let value = Everything()
        let back = try serializer.read(Everything.self, from: serializer.data(value))
        #expect(back == value)
    }

    @Test("a tree of every kind survives every format", arguments: Formats.all)
    func tree(format: any DataFormat) throws {
        let tree: KeyValue = [
            "null": nil, "true": true, "false": false, "int": 9_007_199_254_740_993, "negative": -1,
            "double": 0.1, "big": 1e300, "string": "ünïcødé 😀 \u{1}", "data": .data(Data([1, 2, 3])),
            "date": .date(Date(timeIntervalSince1970: 1_000_000_000)), "array": [1, "two", [3.5]], "empty": [:],
            "emptyArray": [], "nested": ["a": ["b": ["c": 1]]],
        ]
        let back = try format.tree(from: format.data(from: tree))
        if format.kind == .json {
            // JSON has no data or date: they come back as the strings they were written as.
            var expected = tree
            expected["data"] = "AQID"
            expected["date"] = "2001-09-09T01:46:40Z"
            #expect(back == expected)
        } else {
            #expect(back == tree)
        }
    }

    @Test("files are written atomically and read back", arguments: Formats.all)
    func files(format: any DataFormat) throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("value.\(format.kind.fileExtension)")
        let serializer = Serializer(format: format)
        try serializer.write(Everything(), to: url)
        try serializer.write(Everything(), to: url)  // replacing an existing file
        #expect(try serializer.read(Everything.self, from: url) == Everything())
        #expect(Serializer.format(of: try Data(contentsOf: url)) == format.kind)
    }

    @Test("text formats produce strings, binary ones refuse")
    func strings() throws {
        #expect(try Serializer(.json).string(["a": 1]) == #"{"a":1}"#)
        #expect(try Serializer(.xmlPropertyList).string([1]).contains("<integer>1</integer>"))
        #expect(throws: SerializationError.self) { try Serializer(.binaryPropertyList).string([1]) }
        #expect(try Serializer(.json).read([Int].self, from: "[1, 2]") == [1, 2])
    }

    @Test("Foundation's property list coders read ours and we read theirs")
    func interoperability() throws {
        let value = Everything.Inner(name: "n", values: [1, 2, 3])
        for (ours, theirs) in [
            (PropertyListFormat(.binary), PropertyListSerialization.PropertyListFormat.binary),
            (PropertyListFormat(.xml), .xml),
        ] {
            let encoder = PropertyListEncoder()
            encoder.outputFormat = theirs
            #expect(try Serializer(ours).read(Everything.Inner.self, from: encoder.encode(value)) == value)
            #expect(
                try PropertyListDecoder().decode(Everything.Inner.self, from: Serializer(ours).data(value)) == value)
        }
    }

    @Test("JSON output matches JSONSerialization's reading of it")
    func jsonInteroperability() throws {
        let data = try Serializer(.json).data(Everything())
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["string"] as? String == Everything().string)
        #expect(object?["date"] as? String == "2023-11-14T22:13:20Z")
    }

    @Test("snake case keys and date strategies apply both ways")
    func strategies() throws {
        struct Profile: Codable, Equatable { var imageURL: URL; var createdAt: Date; var userID: Int }
        let profile = Profile(
            imageURL: URL(string: "https://x.y/z.png")!, createdAt: Date(timeIntervalSince1970: 5), userID: 1)
        let serializer = Serializer(.json, options: CodingOptions(dates: .secondsSince1970, keys: .snakeCase))
        let text = try serializer.string(profile)
        #expect(
            text
                == #"{"created_at":5.0,"image_url":"https:\/\/x.y\/z.png","user_id":1}"#.replacingOccurrences(
                    of: "\\/", with: "/"))
        #expect(try serializer.read(Profile.self, from: text) == profile)
    }

    @Test("fractional seconds survive JSON to the microsecond")
    func fractionalDates() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.25)
        let text = try Serializer(.json).string([date])
        #expect(text == #"["2023-11-14T22:13:20.25Z"]"#)
        #expect(try Serializer(.json).read([Date].self, from: text) == [date])
        #expect(try Serializer(.json).read([Date].self, from: #"["2023-11-14T23:13:20.25+01:00"]"#) == [date])
    }
}

@Suite("Value transforms")
struct ValueTransformTests {
    @Test("hex colours encode as strings and parse the short forms")
    func hexColor() throws {
        struct Theme: Codable, Equatable { var tint: HexColor; var shade: HexColor }
        let theme = Theme(
            tint: HexColor(red: 255, green: 128, blue: 0), shade: HexColor(red: 0, green: 0, blue: 0, alpha: 128))
        let text = try Serializer(.json).string(theme)
        #expect(text == ##"{"shade":"#00000080","tint":"#FF8000"}"##)
        #expect(try Serializer(.json).read(Theme.self, from: text) == theme)
        #expect(HexColor("#fff") == HexColor(red: 255, green: 255, blue: 255))
        #expect(HexColor("12345") == nil)
        #expect(throws: SerializationError.self) { try Serializer(.json).read([HexColor].self, from: ##"["red"]"##) }
    }

    @Test("URL and UUID are strings in the tree, Decimal a number")
    func strings() throws {
        let tree = try KeyValue(encoding: Everything())
        #expect(tree["url"] == "https://example.com/a?b=c")
        #expect(tree["uuid"] == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        // As JSONEncoder writes it; a Double holds 12345.6789's shortest text exactly.
        #expect(tree["decimal"] == .double(12345.6789))
        #expect(tree["date"] == .date(Date(timeIntervalSince1970: 1_700_000_000)))
        #expect(tree["optional"] == nil)
    }
}

@Suite("Concurrent use")
struct ConcurrencyTests {
    @Test("one serializer is shared by many tasks at once")
    func sharedSerializer() async throws {
        let serializer = Serializer(.binaryPropertyList)
        let value = Everything()
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    for _ in 0..<20 where try serializer.read(Everything.self, from: serializer.data(value)) != value {
                        return false
                    }
                    return true
                }
            }
            for try await ok in group { #expect(ok) }
        }
    }
}

@Suite("Streams and files")
struct StreamTests {
    @Test("values are written to and read from pipes")
    func pipes() throws {
        let pipe = Pipe()
        try Serializer(.json).write([1, 2, 3], to: pipe.fileHandleForWriting)
        try pipe.fileHandleForWriting.close()
        #expect(try Serializer(.json).read([Int].self, from: pipe.fileHandleForReading) == [1, 2, 3])
    }

    @Test("errors from a file name the file, the format and the position")
    func fileErrors() throws {
        let directory = try TemporaryDirectory()
        let url = directory.url.appendingPathComponent("broken.json")
        try Data("{\"a\": [1, 2,]}".utf8).write(to: url)
        #expect {
            try Serializer(.json).read(KeyValue.self, from: url)
        } throws: { error in
            guard let error = error as? SerializationError, case .malformed = error else { return false }
            return error.location.file == url && error.message.contains("broken.json (JSON) at line 1, column 13")
                && error.location.keyPath.description == "a[2]"
        }
        let missing = directory.url.appendingPathComponent("missing.json")
        #expect {
            try Serializer(.json).read(KeyValue.self, from: missing)
        } throws: { error in
            guard case .fileAccess(_, let location)? = error as? SerializationError else { return false }
            return location.file == missing
        }
    }
}

@Suite("ISO 8601 dates")
struct ISO8601Tests {
    @Test(
        "dates format in UTC and parse back",
        arguments: [
            (-86_400.5, "1969-12-30T23:59:59.5Z"), (0, "1970-01-01T00:00:00Z"),
            (951_782_400, "2000-02-29T00:00:00Z"), (4_102_444_799, "2099-12-31T23:59:59Z"),
        ])
    func dates(seconds: Double, text: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(ISO8601.string(from: date) == text)
        #expect(ISO8601.date(from: text) == date)
    }

    @Test("malformed dates are refused", arguments: ["2024-13-01T00:00:00Z", "2024-01-01", "2024-01-01T00:00:00", "x"])
    func malformed(text: String) {
        #expect(ISO8601.date(from: text) == nil)
    }
}
