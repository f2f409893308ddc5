import Errors

/// Why a model design could not be read, resolved, rendered or written.
///
/// Every case names the file, and the entity and property when there is one. When any of
/// these is thrown, ``ModelGenerator`` has written nothing.
public enum ModelGenError: AppError, Equatable {
    /// The design file or bundle could not be read.
    case unreadable(file: String, reason: String)
    /// The file is not a model design (wrong root element, unknown extension, empty bundle).
    case notAModel(file: String, reason: String)
    /// The XML is not well formed.
    case malformedXML(file: String, line: Int, column: Int, reason: String)
    /// A YAML or JSON design does not have the expected shape.
    case malformedDesign(file: String, path: String, reason: String)
    /// Two entities share a name (or become the same Swift name).
    case duplicateEntity(file: String, entity: String)
    /// Two properties of an entity (with the inherited ones) share a name or Swift name.
    case duplicateProperty(file: String, entity: String, property: String)
    /// An attribute's type is missing or unknown.
    case unknownAttributeType(file: String, entity: String, attribute: String, type: String)
    /// A relationship points to an entity the design does not have.
    case missingDestination(file: String, entity: String, relationship: String, destination: String)
    /// An entity's parent is not in the design, or the parents form a loop.
    case invalidParent(file: String, entity: String, parent: String)
    /// A relationship's inverse is missing or does not point back.
    case inverseMismatch(file: String, entity: String, relationship: String, inverse: String)
    /// A name cannot become a Swift identifier: nothing usable is left after the mapping, it
    /// holds a line break, control or format character, it is longer than 200 UTF-8 bytes, or
    /// it would take a name the generated code needs (`init`, `CodingKeys`, `String`…).
    case invalidName(file: String, entity: String, property: String?, name: String)
    /// Relationships that must be embedded as values form a loop that no struct can hold.
    case valueCycle(file: String, entity: String, relationship: String)
    /// An enum entity's cases are not usable (raw values missing, duplicated or of the wrong type).
    case invalidEnum(file: String, entity: String, reason: String)
    /// A template could not be parsed.
    case invalidTemplate(name: String, line: Int, column: Int, reason: String)
    /// A template could not be found.
    case missingTemplate(name: String, searched: String)
    /// An option is not valid (such as a `--template-var` without `=`).
    case invalidOption(option: String, reason: String)
    /// A generated file could not be written or removed.
    case writeFailed(path: String, reason: String)
    /// A machine file would replace a file ModelGen did not write (it is not in the folder's
    /// `.modelgen-manifest.json`) and whose content differs; `force` overwrites it.
    case unownedFile(path: String)
    /// The folder's `.modelgen-manifest.json` cannot be trusted: unreadable, another format, or
    /// naming something other than a plain file name. Nothing is written or removed.
    case invalidManifest(path: String, reason: String)
    /// Pruning found orphaned machine files whose bytes differ from what ModelGen wrote:
    /// someone edited them, so they are kept unless `force` is set.
    case editedOrphans(paths: [String])
    /// A user-info value (or its YAML/JSON shorthand) cannot be used as what it stands for,
    /// such as a `boiler.type` that is not a type or a `boiler.import` that is not a module name.
    case invalidUserInfo(file: String, entity: String, property: String?, key: String, reason: String)
    /// The versions of a design cannot be put in an order with certainty (see
    /// ``DesignHistory/read(from:)``): the reason says why and how to state it.
    case ambiguousVersionOrder(file: String, reason: String)

    /// What went wrong and where.
    public var message: String {
        switch self {
        case .unreadable(let file, let reason):
            "Cannot read the model design '\(file)': \(reason)"
        case .notAModel(let file, let reason):
            "'\(file)' is not a model design: \(reason)"
        case .malformedXML(let file, let line, let column, let reason):
            "Malformed XML in '\(file)' at line \(line), column \(column): \(reason)"
        case .malformedDesign(let file, let path, let reason):
            "Invalid model design in '\(file)' at '\(path)': \(reason)"
        case .duplicateEntity(let file, let entity):
            "'\(file)' declares the entity '\(entity)' more than once."
        case .duplicateProperty(let file, let entity, let property):
            "In '\(file)', entity '\(entity)' has more than one property named '\(property)' (inherited ones included)."
        case .unknownAttributeType(let file, let entity, let attribute, let type):
            "In '\(file)', attribute '\(entity).\(attribute)' has the unknown type '\(type)'."
        case .missingDestination(let file, let entity, let relationship, let destination):
            "In '\(file)', relationship '\(entity).\(relationship)' points to the missing entity '\(destination)'."
        case .invalidParent(let file, let entity, let parent):
            "In '\(file)', entity '\(entity)' has the parent '\(parent)', which is missing or inherits from it."
        case .inverseMismatch(let file, let entity, let relationship, let inverse):
            "In '\(file)', relationship '\(entity).\(relationship)' names the inverse '\(inverse)', which does not point back."
        case .invalidName(let file, let entity, let property, let name):
            // Shown escaped: the name may hold the line breaks and control characters it was refused for.
            if let property {
                "In '\(file)', property '\(SwiftNames.commentText(entity)).\(SwiftNames.commentText(property))': "
                    + "'\(SwiftNames.commentText(name))' cannot become a Swift identifier."
            } else {
                "In '\(file)', entity '\(SwiftNames.commentText(entity))': '\(SwiftNames.commentText(name))' "
                    + "cannot become a Swift identifier."
            }
        case .valueCycle(let file, let entity, let relationship):
            "In '\(file)', relationship '\(entity).\(relationship)' is embedded as a value but leads back to '\(entity)'; "
                + "set 'boiler.reference' to 'id' on it to store an identifier instead."
        case .invalidEnum(let file, let entity, let reason):
            "In '\(file)', enum entity '\(entity)': \(reason)"
        case .invalidTemplate(let name, let line, let column, let reason):
            "Cannot parse the template '\(name)' at line \(line), column \(column): \(reason)"
        case .missingTemplate(let name, let searched):
            "No template named '\(name)' (looked in \(searched))."
        case .invalidOption(let option, let reason):
            "Invalid option '\(option)': \(reason)"
        case .writeFailed(let path, let reason):
            "Cannot write '\(path)': \(reason)"
        case .unownedFile(let path):
            "'\(path)' was not written by ModelGen (it is not in \(GenerationManifest.fileName)) and differs from "
                + "the file it would write; nothing was written. Move it away, or pass --force to overwrite it."
        case .invalidManifest(let path, let reason):
            "Cannot trust the generation manifest '\(path)': \(reason). Nothing was written or removed; "
                + "delete it to start a new record (files it listed are then no longer pruned)."
        case .editedOrphans(let paths):
            "These orphaned machine files were edited since ModelGen wrote them, so they were not removed: "
                + paths.joined(separator: ", ") + ". Nothing was written; pass --force to remove them anyway."
        case .ambiguousVersionOrder(let file, let reason):
            "The order of the versions in '\(file)' is not certain: \(reason) (the versions, oldest first, one a line)."
        case .invalidUserInfo(let file, let entity, let property, let key, let reason):
            if let property {
                "In '\(file)', property '\(entity).\(property)': the user-info key '\(key)' \(reason)."
            } else {
                "In '\(file)', entity '\(entity)': the user-info key '\(key)' \(reason)."
            }
        }
    }
}
