import Testing

@testable import Operations

/// An operation keeps its value or error type-erased until someone asks for its outcome: these
/// values must come back exactly as the work returned them.
@Suite("Outcome storage")
struct OutcomeStorageTests {
    final class Reference: Sendable {}

    struct Wrapper<Value: Sendable & Equatable>: Sendable, Equatable {
        var value: Value
    }

    func roundTrip<Output: Sendable>(_ value: Output) async -> Output? {
        await StatefulOperation(base: .none) { () async throws(Never) -> Output in value }.outcome.value
    }

    @Test("optional values, nil included, come back unchanged")
    func optionals() async {
        #expect(await roundTrip(Int?.none) == .some(nil))
        #expect(await roundTrip(Int?.some(3)) == .some(3))
        let nothing: (any Sendable)? = nil
        let back = await roundTrip(nothing)
        #expect(back != nil)
        #expect(back.flatMap { $0 } == nil)
    }

    @Test("existentials, references and generic values come back unchanged")
    func others() async {
        let reference = Reference()
        let back = await roundTrip(reference)
        #expect(back.map(ObjectIdentifier.init) == ObjectIdentifier(reference))
        let erased: any Sendable = 5
        #expect(await roundTrip(erased) as? Int == 5)
        #expect(await roundTrip(Wrapper(value: [1, 2])) == Wrapper(value: [1, 2]))
        #expect(await roundTrip(()) != nil)
    }

    @Test("errors come back with their type, existential or typed")
    func errors() async {
        let untyped = StatefulOperation(base: .none) { () throws -> Int in throw LoginError.locked(minutes: 1) }
        #expect(await untyped.outcome.error as? LoginError == .locked(minutes: 1))
        let typed = StatefulOperation(base: .none) { () async throws(LoginError) -> Int in throw .invalidCredentials }
        #expect(await typed.outcome.error == .invalidCredentials)
        let runner = OperationRunner()
        let inRunner = StatefulOperation(base: .none) { () async throws(LoginError) -> Int in
            throw .locked(minutes: 2)
        }
        runner.add(inRunner)
        await runner.waitUntilIdle()
        #expect(await inRunner.outcome.error == .locked(minutes: 2))
    }
}
