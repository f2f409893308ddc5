import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An XML element with its attributes, children and where it starts: enough to read `contents`.
struct XMLNode {
    var name: String
    var attributes: [String: String]
    var children: [XMLNode] = []
    var line: Int
    var column: Int

    /// A boolean attribute as the model editor writes it (`"YES"`/`"NO"`).
    func flag(_ key: String) -> Bool {
        guard let value = attributes[key]?.lowercased() else { return false }
        return value == "yes" || value == "true" || value == "1"
    }

    /// The `<userInfo>` entries of this element.
    var userInfo: [String: String] {
        var info: [String: String] = [:]
        for child in children where child.name == "userInfo" {
            for entry in child.children where entry.name == "entry" {
                if let key = entry.attributes["key"] { info[key] = entry.attributes["value"] ?? "" }
            }
        }
        return info
    }

    /// Parses `data` into its root element.
    /// - Throws: ``ModelGenError/malformedXML(file:line:column:reason:)`` with the parser's position.
    static func parse(_ data: Data, file: String) throws -> XMLNode {
        let parser = XMLParser(data: data)
        let builder = TreeBuilder()
        parser.delegate = builder
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        // libxml2 recovers from some errors and reports success: any reported error fails.
        guard succeeded, builder.firstError == nil, parser.parserError == nil, let root = builder.root else {
            let error = builder.firstError ?? parser.parserError
            let reason = error.map { Self.describe($0) } ?? "the document has no root element"
            let position = builder.errorPosition ?? (parser.lineNumber, parser.columnNumber)
            throw ModelGenError.malformedXML(
                file: file, line: max(position.line, 1), column: max(position.column, 1), reason: reason)
        }
        return root
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let code = XMLParser.ErrorCode(rawValue: nsError.code) {
            return "not well-formed (XMLParser error \(nsError.code), \(code))"
        }
        return "XMLParser error \(nsError.code)"
    }
}

/// Collects `XMLParser` events into ``XMLNode``s; used on the parsing thread only.
private final class TreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLNode] = []
    private(set) var root: XMLNode?
    /// Where the parser first reported an error: more exact than its position after it stopped.
    private(set) var errorPosition: (line: Int, column: Int)?

    /// The first error the parser reported.
    private(set) var firstError: (any Error)?

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        guard firstError == nil else { return }
        firstError = parseError
        errorPosition = (parser.lineNumber, parser.columnNumber)
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        stack.append(
            XMLNode(
                name: elementName, attributes: attributeDict, line: parser.lineNumber, column: parser.columnNumber))
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }
}
