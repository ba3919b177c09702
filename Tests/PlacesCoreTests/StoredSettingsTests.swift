import Foundation
import Testing

@testable import PlacesCore

/// Settings stored by an earlier release, which knew fewer fields, stay readable: the new fields read as defaults.
@Suite("Stored settings")
struct StoredSettingsTests {
    @Test func settingsStoredBeforeTheNewFieldsReadThemAsDefaults() throws {
        // As the release before stored them: no dietaryNeeds, maxPrice, shareLocationForMeet or adminAlerts.
        let earlier = """
            {"accessibility":{"highContrast":true,"largerText":false,"reducedMotion":false,"screenReaderHints":false},
             "defaultLocation":{"lat":51.5,"lon":-0.12},"defaultRadiusMiles":3,"language":"pt-BR",
             "notifications":{"decisionCompleted":true,"decisionStarted":false,"email":true,"friendRequests":true,
             "groupInvitations":true,"push":true,"sms":false},"units":"km"}
            """
        let settings = try StoredText.decodeSettings(earlier, userID: "u-1")
        #expect(settings.language == "pt-BR" && settings.units == .km && settings.defaultRadiusMiles == 3)
        #expect(settings.accessibility.highContrast && !settings.notifications.decisionStarted)
        #expect(settings.dietaryNeeds == [] && settings.maxPrice == nil && !settings.shareLocationForMeet && settings.notifications.adminAlerts)
        // Even an empty object is the defaults; what is stored now reads back the same.
        #expect(try StoredText.decodeSettings("{}", userID: "u-1") == UserSettings())
        var now = settings
        now.dietaryNeeds = [.vegan, .glutenFree]
        now.maxPrice = 3
        let text = String(decoding: try JSONEncoder().encode(now), as: UTF8.self)
        #expect(try StoredText.decodeSettings(text, userID: "u-1") == now)
        // A value of the wrong type is still unreadable, and says whose settings.
        #expect(throws: PlacesError.self) { try StoredText.decodeSettings(#"{"units":"furlongs"}"#, userID: "u-1") }
    }
}
