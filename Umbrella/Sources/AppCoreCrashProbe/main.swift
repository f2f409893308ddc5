// The child process of the AppCore crash test: runs commands with file persistence until it is
// killed, and says on stdout which commands it started ("S <id>") and which came back saved
// ("A <id>"), one write(2) per line so that nothing it said is lost with the process.
//
// Arguments: <folder> <first id> <workers>
import Boilerplate
import Foundation

struct Log: Codable, Sendable, Equatable {
    var ids: [Int] = []
}

struct Append: Command {
    var id: Int
    func execute(_ model: inout Log) throws { model.ids.append(id) }
}

func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    bytes.withUnsafeBytes { buffer in _ = write(1, buffer.baseAddress, buffer.count) }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let first = Int(arguments[2]), let workers = Int(arguments[3]) else {
    say("usage: AppCoreCrashProbe <folder> <first id> <workers>")
    exit(64)
}
let folder = URL(fileURLWithPath: arguments[1])
do {
    let app = try await AppCore(model: Log(), persistence: .file("log.json", in: .custom(folder)))
    say("ready")
    try await withThrowingTaskGroup(of: Void.self) { group in
        for worker in 0..<workers {
            group.addTask {
                var id = first + worker
                while true {
                    say("S \(id)")
                    try await app.run(Append(id: id))
                    say("A \(id)")
                    id += workers
                }
            }
        }
        try await group.waitForAll()
    }
} catch {
    say("error \(error)")
    exit(1)
}
