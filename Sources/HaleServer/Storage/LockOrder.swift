extension Sequence {
    /// The elements grouped by account, the accounts in one fixed order: code that locks several accounts' rows in
    /// one transaction goes through them in this order, so two transactions doing so at once never deadlock.
    func groupedInLockOrder(by account: (Element) -> AccountID) -> [(account: AccountID, elements: [Element])] {
        Dictionary(grouping: self, by: account)
            .sorted { $0.key.rawValue.uuidString < $1.key.rawValue.uuidString }
            .map { (account: $0.key, elements: $0.value) }
    }
}
