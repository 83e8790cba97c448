import ArgumentParser
import HaleServer

/// `--account ID | --email E`: how an operator's command names one account.
struct AccountSelection: ParsableArguments {
    @Option(help: "The account's id.") var account: String?
    @Option(help: "The account's email address.") var email: String?

    func validate() throws {
        guard (account == nil) != (email == nil) else {
            throw ValidationError("Name the account with exactly one of --account and --email.")
        }
    }

    /// The account named, or a usage error when there is none.
    func accountID(using services: HaleServices) async throws -> AccountID {
        if let email {
            guard let found = try await services.accounts.find(email: try AccountEmail(email)) else {
                throw ValidationError("No account has the email address \(email).")
            }
            return found.id
        }
        guard let text = account, let id = AccountID(text), try await services.accounts.find(id) != nil else {
            throw ValidationError("No account has the id \(account ?? "").")
        }
        return id
    }
}
