import Serialization

/// A value that decides how its saved form is merged over its defaults.
///
/// ``Persisted`` loads the save file and the defaults as key-value trees and merges them
/// before decoding, so that keys added in an app update get their defaults while every saved
/// value wins. The default merge is key-level and recursive (``KeyLevelMerge``): objects are
/// merged key by key; arrays, strings, numbers and `null` in the save file replace the default
/// whole. Conform to `Mergeable` to merge differently — for instance to union arrays, or to
/// let some keys always come from the defaults:
///
/// ```swift
/// extension Settings: Mergeable {
///     static func merge(saved: KeyValue, defaults: KeyValue) -> KeyValue {
///         var merged = KeyLevelMerge.merge(saved: saved, defaults: defaults)
///         merged["serverURL"] = defaults["serverURL"]     // never persisted over
///         return merged
///     }
/// }
/// ```
///
/// Encoders omit `nil` optionals, so under key-level merging a saved `nil` cannot hide a
/// non-`nil` default; model "no value" explicitly, or customise here, when that matters.
public protocol Mergeable {
    /// The tree to decode, given the saved tree (already migrated) and the defaults' tree.
    static func merge(saved: KeyValue, defaults: KeyValue) -> KeyValue
}

/// The default merge: saved values win, key by key, recursively through objects.
public enum KeyLevelMerge {
    /// `saved` with every key it lacks filled in from `defaults`, recursively through objects.
    public static func merge(saved: KeyValue, defaults: KeyValue) -> KeyValue {
        guard case .object(var savedObject) = saved, case .object(let defaultObject) = defaults else { return saved }
        for (key, defaultValue) in defaultObject {
            if let savedValue = savedObject[key] {
                if case .object = savedValue {
                    savedObject[key] = merge(saved: savedValue, defaults: defaultValue)
                }
            } else {
                savedObject[key] = defaultValue
            }
        }
        return .object(savedObject)
    }
}
