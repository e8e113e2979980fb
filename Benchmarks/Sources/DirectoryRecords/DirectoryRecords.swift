/// The directory records of the directory benchmarks (docs/deliver.md, "Sizing"), made one at a time: 60% APNs
/// devices (64-digit tokens, an `app`), 30% FCM (163-character tokens), 10% web push subscriptions; two
/// devices per audience; every device a key and a token of its own.
public enum DirectoryRecords {
    /// How many records a run writes by default.
    public static let defaultCount = 1_000_000
    /// The `app` of the APNs devices (and the `--apns-bundle-id` of a `deliver` reading them).
    public static let apnsApp = "com.example.shop.ios"

    static let p256dh = "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"
    static let auth = "AAECAwQFBgcICQoLDA0ODw"

    /// Record `index`: key `device-INDEX`, audience `user-INDEX/2`, a token unique to the device.
    public static func record(_ index: Int) -> (key: [UInt8], value: [UInt8]) {
        let unique = String(index, radix: 16)
        let value: String
        switch index % 10 {
        case 0..<6:
            let token = String(repeating: "0", count: 64 - unique.count) + unique
            value =
                #"{"audience":"user-\#(index / 2)","platform":"apns","app":"\#(apnsApp)","#
                + #""apns":{"token":"\#(token)"}}"#
        case 6..<9:
            let token = "fMEGbq3V0kU:APA91b" + String(repeating: "x", count: 145 - unique.count) + unique
            value = #"{"audience":"user-\#(index / 2)","platform":"fcm","fcm":{"token":"\#(token)"}}"#
        default:
            value =
                #"{"audience":"user-\#(index / 2)","platform":"webpush","webpush":{"subscription":{"#
                + #""endpoint":"https://fcm.googleapis.com/fcm/send/\#(unique)","#
                + #""keys":{"p256dh":"\#(p256dh)","auth":"\#(auth)"}}}}"#
        }
        return (Array("device-\(index)".utf8), Array(value.utf8))
    }
}
