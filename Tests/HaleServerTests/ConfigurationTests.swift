import Foundation
import HaleTesting
import Testing

@testable import HaleServer

@Suite("Configuration")
struct ConfigurationTests {
    @Test func defaultsNeedNoConfiguration() throws {
        let config = try HaleConfiguration(ConfigValues())
        #expect(config.server.host == "127.0.0.1")
        #expect(config.server.port == 8080)
        #expect(config.server.maxBodySize == 64 << 10)
        #expect(config.database.location == .sqlite(path: "hale.sqlite"))
        #expect(config.tokens.accessTokenLifetime == .seconds(900))
        #expect(config.tokens.refreshReuseGracePeriod == .seconds(10))
    }

    @Test func yamlSectionsSetKeys() throws {
        let yaml = """
            server:
              port: 9090
              maxBodySize: 512KiB
            database:
              url: postgres://hale@db:5432/hale
            tokens:
              accessTokenLifetime: 5m
            """
        let config = try HaleConfiguration(try ConfigValues.load(yaml: yaml, environment: [:]))
        #expect(config.server.port == 9090)
        #expect(config.server.maxBodySize == 512 * 1024)
        #expect(config.database.location == .postgres(url: "postgres://hale@db:5432/hale"))
        #expect(config.tokens.accessTokenLifetime == .seconds(300))
    }

    @Test func environmentOverridesTheFile() throws {
        let values = try ConfigValues.load(
            yaml: "server:\n  port: 9090\n",
            environment: ["HALE_SERVER_PORT": "7070", "HALE_DATABASE_URL": "sqlite:other.sqlite", "HOME": "/root"])
        let config = try HaleConfiguration(values)
        #expect(config.server.port == 7070)
        #expect(config.database.location == .sqlite(path: "other.sqlite"))
    }

    @Test func environmentVariableNamesAreUpperSnakeCasePaths() {
        #expect(ConfigKey.named("database.url")?.environmentVariable == "HALE_DATABASE_URL")
        #expect(ConfigKey.named("server.port")?.environmentVariable == "HALE_SERVER_PORT")
        #expect(ConfigKey.named("server.maxBodySize")?.environmentVariable == "HALE_SERVER_MAX_BODY_SIZE")
        let origins = ConfigKey(path: "passkeys.origins", kind: .list, defaultValue: "", summary: "")
        #expect(origins.environmentVariable == "HALE_PASSKEYS_ORIGINS")
    }

    @Test func listsAreCommaSeparatedInTheEnvironmentAndSequencesInYAML() throws {
        var values = ConfigValues()
        values["logging.level"] = "a, b,,c"
        #expect(try values.list("logging.level") == ["a", "b", "c"])
        let fromYAML = try ConfigValues.load(yaml: "logging:\n  level: [x, y]\n", environment: [:])
        #expect(try fromYAML.list("logging.level") == ["x", "y"])
    }

    @Test func unknownKeysAreRejected() {
        #expect(throws: ConfigError("unknown configuration key server.prot")) {
            try ConfigValues.load(yaml: "server:\n  prot: 1\n", environment: [:])
        }
    }

    @Test(arguments: [
        ("server.port", "eighty"),
        ("server.port", "70000"),
        ("tokens.accessTokenLifetime", "15 minutes"),
        ("tokens.accessTokenLifetime", "0s"),
        ("server.maxBodySize", "1 megabyte"),
        ("database.url", "mysql://x"),
        ("database.migrateOnStart", "perhaps"),
        ("logging.level", "loud"),
        ("tokens.signingKeyRotationInterval", "1m"),
        ("tokens.refreshTokenLifetime", "999999999999999999d"),
        ("tokens.refreshTokenLifetime", "3651d"),
        ("tokens.refreshReuseGracePeriod", "2h"),
        ("socialSignIn.google.keySetUrl", "http://www.googleapis.com/oauth2/v3/certs"),
        ("socialSignIn.apple.keySetUrl", "ftp://appleid.apple.com/auth/keys"),
        ("socialSignIn.facebook.graphUrl", "graph.facebook.com"),
        ("socialSignIn.facebook.keySetUrl", "http://10.0.0.1/jwks"),
        ("socialSignIn.facebook.appId", "1234"),
        ("socialSignIn.clockSkew", "1h"),
        ("health.maxSteps", "0"),
        ("health.maxDistance", "1000000000001"),
        ("health.maxSampleDuration", "*:8d"),
        ("health.maxSampleDuration", "sleep:1d"),
        ("health.maxSampleDuration", "steps:1d,steps:2d"),
        ("health.maxSampleDuration", "steps"),
        ("health.sampleWindow.past", "0s"),
    ])
    func badValuesAreRejectedByName(key: String, value: String) {
        var values = ConfigValues()
        values[key] = value
        #expect(throws: ConfigError.self) { try HaleConfiguration(values) }
    }

    @Test func thePlausibilityTableComesFromTheHealthKeys() throws {
        var values = ConfigValues()
        values["health.maxSteps"] = "50000"
        values["health.maxDuration"] = "7200"
        values["health.maxSampleDuration"] = "*:12h,workouts:3d"
        values["health.sampleWindow.past"] = "30d"
        values["health.sampleWindow.future"] = "10m"
        let table = try HaleConfiguration(values).health.plausibility
        #expect(table.limit(for: .steps) == .init(maximumPerDay: 50_000, longestSample: 43_200))
        #expect(table.limit(for: .activeMinutes) == .init(maximumPerDay: 7_200, longestSample: 43_200))
        #expect(table.limit(for: .workouts) == .init(maximumPerDay: 7_200, longestSample: 259_200))
        #expect(table.limit(for: .distance).maximumPerDay == 250_000)
        #expect(table.limit(for: .oxygenSaturation).maximumPerDay == 100)
        #expect(table.oldestStart == 30 * 86_400)
        #expect(table.newestStart == 600)
        #expect(try HaleConfiguration(ConfigValues()).health.plausibility == .standard)
    }

    @Test("a HALE_ variable that names no key is a warning naming the closest key; tools' own variables are not")
    func typosInTheEnvironmentAreLoud() throws {
        let environment = [
            "HALE_DATABSE_URL": "sqlite:x.sqlite", "HALE_SERVER_PROT": "80", "HALE_FROBNICATE_EVERYTHING": "1",
            "HALE_TEST_POSTGRES_URL": "postgres://x", "HALE_HOSTILE_URL": "http://x", "HALE_BINARY": "/x",
            "HALE_SERVER_PORT": "9000", "HOME": "/root",
        ]
        let configuration = try HaleConfiguration(try ConfigValues.load(yaml: nil, environment: environment))
        #expect(
            configuration.warnings == [
                "HALE_DATABSE_URL is not a configuration variable; it is ignored. Did you mean HALE_DATABASE_URL (database.url)?",
                "HALE_FROBNICATE_EVERYTHING is not a configuration variable; it is ignored",
                "HALE_SERVER_PROT is not a configuration variable; it is ignored. Did you mean HALE_SERVER_PORT (server.port)?",
            ])
        #expect(configuration.server.port == 9000)
        #expect(ConfigKey.editDistance(Array("kitten".utf8), Array("sitting".utf8)) == 3)
    }

    @Test func malformedYAMLIsRejected() {
        #expect(throws: ConfigError.self) { try ConfigValues.load(yaml: "server: [1, 2\n", environment: [:]) }
        #expect(throws: ConfigError.self) { try ConfigValues.load(yaml: "- a\n- b\n", environment: [:]) }
        #expect(throws: ConfigError("tokens.issuer has no value")) {
            try ConfigValues.load(yaml: "tokens:\n  issuer:\n", environment: [:])
        }
    }

    @Test func providerEndpointsMayBePlainHTTPOnlyOnLoopback() throws {
        var values = ConfigValues()
        values["socialSignIn.google.keySetUrl"] = "http://127.0.0.1:9000/certs"
        values["socialSignIn.facebook.graphUrl"] = "http://localhost:9000"
        values["socialSignIn.facebook.appId"] = "1234"
        values["socialSignIn.facebook.appSecret"] = "secret"
        let configuration = try HaleConfiguration(values)
        #expect(configuration.socialSignIn.googleKeySetURL == "http://127.0.0.1:9000/certs")
    }

    @Test func theReadmeDocumentsEveryKey() throws {
        let readme = try String(contentsOf: packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for key in ConfigKey.all {
            #expect(readme.contains("`\(key.path)`"), "README lacks \(key.path)")
            #expect(readme.contains("`\(key.environmentVariable)`"), "README lacks \(key.environmentVariable)")
        }
    }

    @Test(arguments: [
        ("sqlite:hale.sqlite", DatabaseLocation.sqlite(path: "hale.sqlite")),
        ("sqlite:///var/lib/hale.sqlite", .sqlite(path: "/var/lib/hale.sqlite")),
        ("postgres://u:p@h:5432/d", .postgres(url: "postgres://u:p@h:5432/d")),
        ("postgresql://u@h/d", .postgres(url: "postgresql://u@h/d")),
    ])
    func databaseURLs(url: String, location: DatabaseLocation) throws {
        #expect(try DatabaseLocation(url: url) == location)
    }
}

/// The package's root folder, for tests that read its documents.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

@Suite("configuration: the imports directory")
struct ImportsDirectoryTests {
    @Test func byDefaultEachDatabaseHasItsOwn() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("hale-imports").path
        func directory(_ url: String) throws -> URL {
            HaleConfiguration.importsDirectory("", for: try DatabaseLocation(url: url))
        }
        let first = try directory("sqlite:/srv/one/hale.sqlite")
        #expect(first.deletingLastPathComponent().path == base)
        #expect(first.lastPathComponent.count == 16)
        #expect(try directory("sqlite:/srv/one/../one/hale.sqlite") == first, "the same file, however it is named")
        #expect(try directory("sqlite:/srv/two/hale.sqlite") != first)
        let postgres = try directory("postgres://hale:secret@db.example.com:5432/hale")
        #expect(try directory("postgres://hale:rotated@db.example.com:5432/hale") == postgres, "not the password")
        #expect(try directory("postgres://hale@db.example.com:5432/other") != postgres)
        #expect(HaleConfiguration.importsDirectory("/data/imports", for: .sqlite(path: "x")).path == "/data/imports")
    }
}
