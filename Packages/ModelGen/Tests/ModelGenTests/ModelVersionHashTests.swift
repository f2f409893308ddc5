import Testing

@testable import ModelGen

@Suite("SHA-256 and model version hashes")
struct ModelVersionHashTests {
    @Test(
        "SHA-256 matches the FIPS 180-4 test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func vectors(input: String, digest: String) {
        #expect(SHA256Digest.hex(input) == digest)
    }

    @Test("SHA-256 of a million 'a's")
    func million() {
        #expect(
            SHA256Digest.hex(String(repeating: "a", count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("SHA-256 is right at every padding boundary", arguments: [55, 56, 63, 64, 65, 119, 120])
    func boundaries(length: Int) {
        // Two digests of inputs differing only in the last byte must differ and be 64 hex digits.
        let a = SHA256Digest.hex(String(repeating: "x", count: length))
        let b = SHA256Digest.hex(String(repeating: "x", count: length - 1) + "y")
        #expect(a.count == 64 && b.count == 64 && a != b)
    }

    private func hash(
        _ attributes: [AttributeDesign], relationships: [RelationshipDesign] = [], modifier: String? = nil
    )
        throws -> String
    {
        let design = ModelDesign(
            name: "M",
            entities: [
                EntityDesign(
                    name: "A", versionHashModifier: modifier, attributes: attributes, relationships: relationships),
                EntityDesign(name: "B"),
            ])
        return try ModelResolver.resolve(design, file: "M").entities[0].modelVersionHash
    }

    @Test("the hash of a design is pinned: stable across runs and machines")
    func pinned() throws {
        let value = try hash([
            AttributeDesign(name: "title", type: .string), AttributeDesign(name: "n", type: .integer64),
        ])
        #expect(value == "61a2874ec587316bca3177d28d77646621f658209e7e01f82670d10d364a889c")
    }

    @Test("the hash follows the stored shape, not order, transients or defaults")
    func sensitivity() throws {
        let title = AttributeDesign(name: "title", type: .string)
        let count = AttributeDesign(name: "count", type: .integer32)
        let base = try hash([title, count])
        #expect(try hash([count, title]) == base)
        #expect(
            try hash([title, count, AttributeDesign(name: "cache", type: .string, isOptional: true, isTransient: true)])
                == base)
        var defaulted = count
        defaulted.defaultValue = "3"
        #expect(try hash([title, defaulted]) == base)

        var optional = title
        optional.isOptional = true
        #expect(try hash([optional, count]) != base)
        #expect(try hash([title, AttributeDesign(name: "count", type: .integer64)]) != base)
        #expect(try hash([title]) != base)
        #expect(try hash([title, count], modifier: "2") != base)
        #expect(try hash([title, count], relationships: [RelationshipDesign(name: "b", destination: "B")]) != base)
        let toMany = RelationshipDesign(name: "b", destination: "B", isToMany: true)
        #expect(
            try hash([title, count], relationships: [toMany])
                != hash([title, count], relationships: [RelationshipDesign(name: "b", destination: "B")]))
    }
}
