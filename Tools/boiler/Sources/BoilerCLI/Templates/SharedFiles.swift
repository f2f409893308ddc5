/// Files every template writes: .gitignore, Makefile, README.
enum SharedFiles {
    static let gitignore = """
        .build*/
        .swiftpm/
        Package.resolved
        .DS_Store
        xcuserdata/

        """

    static let makefile = """
        # {{Name}} — `make help` lists the targets.
        .DEFAULT_GOAL := help
        .PHONY: help build test run

        help: ## List the targets
        \t@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  make %-8s %s\\n", $$1, $$2}'

        build: ## Build everything
        \tswift build

        test: ## Run the tests
        \tswift test

        run: ## Run the executable, if the project has one
        \tswift run

        """

    static func readme(for options: ProjectOptions) -> String {
        let kit =
            switch options.kit {
            case .url(let url, let version): "[Boilerplate](\(url)) \(version)"
            case .path(let path): "Boilerplate from `\(path)`"
            }
        let run = options.template == .library ? "" : "swift run {{Name}}\n"
        let summary = options.values["summary"] == nil ? "" : "{{summary}}\n\n"
        let article = options.template == .app ? "An" : "A"
        return """
            # {{Name}}

            \(summary)\(article) \(options.template.rawValue) project made with `boiler new`, on \(kit)
            (products: \(options.products.joined(separator: ", "))).

            ```sh
            swift build
            swift test
            \(run)```

            `make help` lists the Makefile's targets. `.boiler.json` records how the project was
            made; `boiler add command|route|service|model <Name>` adds parts to it later.

            """ + (options.template == .server ? server(database: options.database ?? .sqlite) : "")
    }

    /// How a PostgreSQL server's tests reach a database.
    static let testDatabase = """

        `swift test` runs against SQLite files in temporary folders, and the routes against a real
        PostgreSQL: one the tests start themselves on 127.0.0.1 through the kit's
        `StoragePostgresTesting` (it needs the PostgreSQL programs, e.g. `apt-get install
        postgresql`; without them those tests say why and skip, and with
        `BOILERPLATE_REQUIRE_POSTGRES=1` set they fail instead), or the database
        `TEST_DATABASE_URL=postgres://…` names, whose `notes` table they empty first — use a
        database of its own.

        """

    /// The server template's README section: its API, its settings and how it stops.
    static func server(database: DatabaseKind) -> String {
        let postgres =
            database == .postgres
            ? """
            | `DATABASE_URL`  | —                    | PostgreSQL: `postgres://user:password@host:5432/db` (`?sslmode=disable` turns TLS off); when set, it wins over `DATABASE_PATH` |

            """ : ""
        return """

            ## The API

            `swift run {{Name}}` serves a REST API for notes on http://127.0.0.1:8080:

            ```sh
            curl -X POST localhost:8080/notes -H 'content-type: application/json' -d '{"text": "Milk"}'
            curl 'localhost:8080/notes?limit=20&offset=0&q=milk&pinned=false'
            curl localhost:8080/notes/<id>
            curl -X PATCH localhost:8080/notes/<id> -d '{"pinned": true}'
            curl -X DELETE localhost:8080/notes/<id>
            ```

            A list answers `{"items": […], "total": n, "limit": l, "offset": o}`, oldest first;
            the database does the filtering and paging. Errors are problem details (RFC 9457,
            `application/problem+json`): 404 for a missing note, 422 for bad input.

            ## Adding resources

            `boiler add resource Tag name:String count:Int note:String?` adds a resource beside the
            notes: the entity (a record in its own `tags` table), create/update/delete commands that
            announce events on the bus, REST routes at `/tags` with the same shape and problem
            details (`?q=` searches the first String field, `?flag=true` filters a Bool one), and
            their tests. Field types: String, Int, Double, Bool, Date, UUID, each optionally `?`.
            It never overwrites a file; the resource is wired in through the machine file
            `Sources/{{Name}}Core/Generated/_Resources.swift`, and if you edited that file boiler
            leaves it alone and prints the lines to add by hand.

            `boiler add command ArchiveNote` writes a `NoteCommand` run by `NoteDomain.run` and a
            test of it over a real SQLite file; `boiler add route UserStats` a Hummingbird route at
            `/user-stats` and a test through the router; `boiler add service Sync` an `AppService`
            that runs beside the HTTP server and stops after it; `boiler add model Label` a
            design file. Routes and services are wired in through the machine file
            `Sources/{{Name}}Core/Generated/_Parts.swift`, which boiler rewrites only while nobody
            has edited it.

            ## Settings

            | Variable        | Default              | What                                  |
            |-----------------|----------------------|---------------------------------------|
            | `HOST`          | `127.0.0.1`          | the interface to listen on (`0.0.0.0` for all) |
            | `PORT`          | `8080`               | the port (`--port N` too); 0 picks a free one |
            | `DATABASE_PATH` | `{{name}}.sqlite`    | the SQLite file                        |
            \(postgres)| `LOG_LEVEL`     | `info`               | trace, debug, info, notice, warning, error, critical |

            An instance keeps nothing but what is in the database, so several instances over one
            \(database == .postgres ? "PostgreSQL database" : "database") behave as one. SIGTERM or
            SIGINT shut the server down gracefully (requests in flight finish, then the kit's
            services stop, then the database closes) and it exits 0.
            \(database == .postgres ? testDatabase : "")

            """
    }
}
