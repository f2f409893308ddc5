import Foundation
import Testing

@testable import Serialization

/// A UID's marker gives its byte count minus one (0x80 is 1 byte, 0x83 is 4, 0x87 is 8); it was
/// read as a power of two like an integer's, so 4- and 8-byte UIDs were misread or refused.
@Suite("Binary property list UIDs")
struct BinaryPropertyListUIDTests {
    @Test(
        "a UID of every width reads as its value",
        arguments: [
            ([0x80, 0x07], 7), ([0x81, 0x01, 0x00], 256), ([0x82, 0x01, 0x00, 0x00], 65_536),
            ([0x83, 0x00, 0x01, 0x00, 0x00], 65_536), ([0x83, 0x12, 0x34, 0x56, 0x78], 0x1234_5678),
            ([0x87, 0, 0, 0, 0x01, 0, 0, 0, 0x02], 0x1_0000_0002),
        ] as [([UInt8], Int)])
    func widths(object: [UInt8], value: Int) throws {
        // {"CF$UID": uid} as NSKeyedArchiver writes it: a dictionary, its key, then the UID.
        let key = [0x56] + Array("CF$UID".utf8)
        let data = DepthLimitTests.binaryPropertyList([[0xD1, 1, 2], key, object], top: 0)
        #expect(try PropertyListFormat(.binary).tree(from: data) == ["CF$UID": .int(value)])
    }

    @Test("a UID that runs past the objects is a typed error")
    func truncated() {
        let data = DepthLimitTests.binaryPropertyList([[0xA1, 1], [0x83, 0x01]], top: 0)
        #expect(throws: SerializationError.self) { try PropertyListFormat(.binary).tree(from: data) }
    }
}
