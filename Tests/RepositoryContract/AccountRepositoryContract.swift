import Foundation
import PlacesCore
import Testing

/// What every `AccountRepository` does with users, logins and their uniqueness, and user search.
enum AccountRepositoryContract {
    static var cases: [ContractCase] {
        [
            ContractCase("accounts", "a stored user reads back by id, and an unknown id reads nil") { store in
                let ann = Sample.user("Ann", number: 1, displayName: "Ann A.")
                let bob = Sample.user("bob", number: 2)
                try await store.accounts.insert(ann)
                try await store.accounts.insert(bob)
                #expect(try await store.accounts.user(id: ann.id) == ann)
                #expect(try await store.accounts.user(id: "u-ghost") == nil)
                #expect(try await store.accounts.user(id: bob.id) == bob)
            },
            ContractCase("accounts", "insert refuses a taken username (in any case), e-mail or phone with conflict naming the field") { store in
                try await store.accounts.insert(Sample.user("ann", number: 1))
                var sameName = Sample.user("ANN", number: 2)
                sameName.id = "u-other"
                sameName.email = "other@example.com"
                await expectError(.conflict, field: "username") { try await store.accounts.insert(sameName) }
                var sameEmail = Sample.user("zed", number: 3)
                sameEmail.email = "ann@example.com"
                await expectError(.conflict, field: "email") { try await store.accounts.insert(sameEmail) }
                var samePhone = Sample.user("zed", number: 1)
                await expectError(.conflict, field: "phone") { try await store.accounts.insert(samePhone) }
                samePhone.phone = nil
                try await store.accounts.insert(samePhone)
                #expect(try await store.accounts.user(id: "u-other") == nil)
                #expect(try await store.accounts.user(id: "u-zed")?.phone == nil)
            },
            ContractCase("accounts", "of several users inserted at once under one username, exactly one is stored") { store in
                let accounts = store.accounts
                let outcomes = await withTaskGroup(of: PlacesError.Code?.self) { tasks in
                    for index in 0..<6 {
                        tasks.addTask {
                            var user = Sample.user(index % 2 == 0 ? "Sam" : "sam")
                            user.id = "u-sam-\(index)"
                            user.email = "sam\(index)@example.com"
                            do {
                                try await accounts.insert(user)
                                return nil
                            } catch {
                                return (error as? PlacesError)?.code ?? .internalError
                            }
                        }
                    }
                    return await tasks.reduce(into: [PlacesError.Code?]()) { $0.append($1) }
                }
                #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
                #expect(outcomes.compactMap { $0 }.allSatisfy { $0 == .conflict }, "\(outcomes)")
                let stored = try await store.accounts.searchUsers("sam", page: PageRequest()).items
                #expect(stored.count == 1)
            },
            ContractCase("accounts", "a login finds its user by username in any case, by e-mail or by phone, and nil otherwise") { store in
                let ann = Sample.user("Ann", number: 7)
                try await store.accounts.insert(ann)
                #expect(try await store.accounts.user(login: .username("ann")) == ann)
                #expect(try await store.accounts.user(login: .username("ANN")) == ann)
                #expect(try await store.accounts.user(login: .email("ann@example.com")) == ann)
                #expect(try await store.accounts.user(login: .phone("+15550000007")) == ann)
                #expect(try await store.accounts.user(login: .username("bob")) == nil)
                #expect(try await store.accounts.user(login: .email("bob@example.com")) == nil)
                #expect(try await store.accounts.user(login: .phone("+15550000008")) == nil)
            },
            ContractCase("accounts", "update saves profile, e-mail and phone, and refuses a value another user holds with conflict") { store in
                try await store.addUsers("ann", "bob")
                var ann = try #require(try await store.accounts.user(id: "u-ann"))
                ann.email = "ann@new.example.com"
                ann.phone = "+15559999999"
                ann.profile = User.Profile(displayName: "Ann", bio: "Hi", city: "Paris", avatarURL: "https://example.com/a.png")
                ann.updatedAt = Sample.at(60)
                try await store.accounts.update(ann)
                #expect(try await store.accounts.user(id: "u-ann") == ann)
                #expect(try await store.accounts.user(login: .email("ann@example.com")) == nil, "the old e-mail is free again")

                var bob = try #require(try await store.accounts.user(id: "u-bob"))
                let stored = bob
                bob.email = "ann@new.example.com"
                await expectError(.conflict, field: "email") { try await store.accounts.update(bob) }
                bob.email = stored.email
                bob.phone = "+15559999999"
                await expectError(.conflict, field: "phone") { try await store.accounts.update(bob) }
                #expect(try await store.accounts.user(id: "u-bob") == stored)
            },
            ContractCase("accounts", "searchUsers finds username or display name containing the text in any case, by username, in pages") {
                store in
                let names = ["dora", "Alma", "cara", "bart", "Eve", "frank"]
                for (index, name) in names.enumerated() { try await store.accounts.insert(Sample.user(name, number: index + 1)) }
                var quiet = Sample.user("zz-quiet", number: 99, displayName: "Arabella")
                quiet.email = nil
                try await store.accounts.insert(quiet)
                let all = try await allPages(limit: 2) { try await store.accounts.searchUsers("A", page: $0) }
                #expect(all.map(\.username) == ["Alma", "bart", "cara", "dora", "frank", "zz-quiet"])
                #expect(try await store.accounts.searchUsers("RAN", page: PageRequest()).items.map(\.username) == ["frank"])
                #expect(try await store.accounts.searchUsers("bell", page: PageRequest()).items.map(\.id) == [quiet.id])
                #expect(try await store.accounts.searchUsers("%", page: PageRequest()).items.isEmpty, "the text is matched literally")

                // The cursor holds its place when a user sorting before it arrives and a user already shown leaves.
                let first = try await store.accounts.searchUsers("a", page: PageRequest(limit: 3))
                #expect(first.items.map(\.username) == ["Alma", "bart", "cara"])
                try await store.accounts.insert(Sample.user("aaron", number: 50))
                try await store.accounts.delete(userID: "u-bart")
                let second = try await store.accounts.searchUsers("a", page: try next(first, limit: 3))
                #expect(second.items.map(\.username) == ["dora", "frank", "zz-quiet"])
                #expect(second.nextCursor == nil)
            },
        ] + AccountRepositoryContract.sessionCases + AccountRepositoryContract.deletionCases + AccountRepositoryContract.blockCases
    }
}
