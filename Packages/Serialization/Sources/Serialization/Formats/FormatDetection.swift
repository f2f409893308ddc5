import Foundation

extension Serializer {
    /// The built-in formats, in the order detection tries them.
    public static let builtInFormats: [any DataFormat] = [
        PropertyListFormat(.binary), PropertyListFormat(.xml), JSONFormat(),
    ]

    /// The kind of format `data` is in, judged from its first bytes; nil when none matches.
    ///
    /// ```swift
    /// Serializer.format(of: try Data(contentsOf: binURL)) == .binaryPropertyList
    /// ```
    public static func format(of data: Data) -> FormatKind? {
        builtInFormats.first { $0.matches(data) }?.kind
    }

    /// The first of `formats` that recognizes `data`.
    public static func format(of data: Data, among formats: [any DataFormat]) -> (any DataFormat)? {
        formats.first { $0.matches(data) }
    }

    /// A `T` read from `data` in whichever of `formats` it is in.
    /// - Throws: ``SerializationError/unknownFormat(_:)`` when none recognizes it.
    public static func read<T: Decodable>(
        _ type: T.Type, detectingFormatOf data: Data, among formats: [any DataFormat] = builtInFormats,
        options: CodingOptions = .default
    ) throws -> T {
        guard let format = format(of: data, among: formats) else {
            throw SerializationError.unknownFormat(SerializationError.Location())
        }
        return try Serializer(format: format, options: options).read(type, from: data)
    }

    /// A `T` read from the file at `url` in whichever of `formats` it is in.
    public static func read<T: Decodable>(
        _ type: T.Type, detectingFormatOf url: URL, among formats: [any DataFormat] = builtInFormats,
        options: CodingOptions = .default
    ) throws -> T {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SerializationError.fileAccess(underlying: error, SerializationError.Location(file: url))
        }
        do {
            return try read(type, detectingFormatOf: data, among: formats, options: options)
        } catch let error as SerializationError {
            throw error.located(file: url)
        }
    }
}
