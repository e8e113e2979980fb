import Foundation

/// The example payloads the page offers: a copy of `examples/payloads.jsonl`, one payload per line
/// (`PlaygroundTests` fails when the copy and the file differ).
public enum PlaygroundExamples {
    /// The payloads, one per line, as in `examples/payloads.jsonl`.
    public static let jsonLines = #"""
{"id":"welcome-1","message":{"title":"Welcome back","body":"Your basket is waiting","priority":"high","ttl":3600},"custom":{"ios_badge":1,"ios_sound":"default"},"data":{"basket_id":"b-17","total":19.90},"action":{"type":"url","value":"https://shop.example.com/basket"}}
{"id":"order-2","message":{"title":"Order shipped","body":"Order 1234 is on its way"},"actions":[{"type":"url","name":"Track","value":"https://shop.example.com/track/1234"},{"type":"dial","name":"Call us","value":"+1 (555) 010-0199"}],"expandable":{"type":"text","value":"Your order 1234 left our warehouse today and arrives on Tuesday."},"thread_id":"orders","collapse_id":"order-1234"}
{"id":"sale-3","platform":{"android":false},"message":{"title":"Beach week","body":"Three getaways picked for you"},"carousel":{"mode":"manual","items":[{"image":"https://cdn.example.com/beach1.jpg","text":"Lisbon","uri":"myapp://trip/1"},{"image":"https://cdn.example.com/beach2.jpg","text":"Nice"},{"image":"https://cdn.example.com/beach3.jpg"}],"colors":{"title":"#1A1A1A","background":"fafafa"}},"data":{"campaign":"summer"}}
{"id":"promo-4","platform":{"android":false},"message":{"title":"New clothing line","body":"20% fall sale!"},"card":{"size":"medium","campaign":"3","corner_radius":16,"backdrop_color":"#332D2DF0","hero":{"background":{"type":"gif","url":"https://cdn.example.com/fall.gif"}},"body":{"background":{"type":"color","color":"#FFFFFF"},"content":{"text":"Fall starts today: 20% off everything.","size":14,"align":"left","color":"#33251F"}},"actions":{"style":"attached","layout_style":"horizontal","buttons":[{"background_color":"#690200","content":{"text":"Yes, please!","color":"#FFFFFF"},"url":"https://shop.example.com/fall"},{"content":{"text":"No, thanks"}}]}}}
{"id":"silent-5","platform":{"android":false},"custom":{"ios_content_available":true},"data":{"sync":"inbox"}}
{"id":"broken-6","message":{"body":"","ttl":"soon"},"custom":{"ios_badge":-1,"android_led_color":"red"}}
{"message": {"body": "duplicate", "body": "keys"}}
{"id":"android-8","targets":["fcm","android-expandable"],"message":{"title":"Out for delivery","body":"Order 1234 arrives today","priority":"high","ttl":7200},"collapse_id":"order-1234","custom":{"android_channel_id":"orders","android_icon":"ic_stat_order","android_click_action":"OPEN_ORDER","android_led_color":"#FF8000"},"data":{"order_id":"1234","eta_minutes":45}}
"""#

    /// The payloads as a JSON array of strings, the body of `GET /api/examples`.
    public static let json: [UInt8] = {
        let lines = jsonLines.split(separator: "\n").map(String.init)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(lines)).map(Array.init) ?? Array("[]".utf8)
    }()
}
