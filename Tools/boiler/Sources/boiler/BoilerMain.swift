import BoilerCLI

/// The `boiler` executable: all of its logic lives in BoilerCLI, where tests can reach it.
@main
enum BoilerMain {
    static func main() async {
        await Boiler.main()
    }
}
