import Foundation

/// An error that describes itself to a person and identifies itself to a program.
///
/// Conform your error enums to `AppError` and implement ``message``; everything else has a
/// default: a stable ``code`` derived from the type and case name, a ``domain``, bridging to
/// `NSError` that keeps the message, and a place in ``Swift/Error/chain`` when it wraps
/// another error.
///
/// ```swift
/// enum LoginError: AppError {
///     case invalidCredentials, locked(minutes: Int)
///     var message: String {
///         switch self {
///         case .invalidCredentials: "Invalid email and password."
///         case .locked(let m): "Account locked for \(m) minutes."
///         }
///     }
/// }
/// ```
public protocol AppError: LocalizedError, CustomNSError {
    /// What went wrong, in words a user can act on.
    var message: String { get }

    /// A stable, machine-readable identifier of this kind of error.
    ///
    /// The default is `"<Type>.<case>"` for enums (`"LoginError.locked"`) and `"<Type>"` for
    /// other types. It does not change with associated values or message wording, so it is
    /// safe to match on in logs and analytics. Override it to pin a code across renames.
    var code: String { get }

    /// The group of codes this error belongs to; by default the module-qualified type name.
    var domain: String { get }

    /// The error this one wraps, if any; it follows this error in ``Swift/Error/chain``.
    var underlyingError: (any Error)? { get }

    /// Where in the source this error was raised or wrapped, when that was recorded.
    var sourceLocation: SourceLocation? { get }
}

extension AppError {
    /// The default code: the type name, then the enum case name for enums.
    public var code: String { ErrorCode.derived(from: self) }

    /// The default domain: `CustomNSError.errorDomain`, the module-qualified type name.
    public var domain: String { Self.errorDomain }

    /// By default an error wraps nothing.
    public var underlyingError: (any Error)? { nil }

    /// By default no source location is recorded.
    public var sourceLocation: SourceLocation? { nil }

    /// The ``message``, so `localizedDescription` and `NSError` bridging keep it.
    public var errorDescription: String? { message }

    /// The module-qualified type name, such as `"MyApp.LoginError"`.
    public static var errorDomain: String { String(reflecting: Self.self) }

    /// A number derived from ``code`` (FNV-1a), stable across runs and machines.
    public var errorCode: Int { ErrorCode.number(for: code) }

    /// The message, the code and the wrapped error, for `NSError` bridging.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: errorDescription ?? message, ErrorCode.userInfoKey: code]
        if let underlyingError { info[NSUnderlyingErrorKey] = underlyingError as NSError }
        return info
    }
}
