/// The playground's one page: HTML, CSS and JavaScript in the binary, no request leaves the machine
/// except for the images an output names (with a placeholder when they cannot load).
///
/// The parts are Swift strings in `PlaygroundPage+*.swift`: the style, the editor and record list
/// (`script`), pointer lookup (`pointerScript`) and the previews drawn from the output JSON
/// (`applePreviewScript`, `androidPreviewScript`).
enum PlaygroundPage {
    /// The page as sent for `GET /`.
    static let html: [UInt8] = Array(
        (head + "<style>" + style + "</style></head>" + body + "<script>" + pointerScript + script
            + applePreviewScript + cardPreviewScript + androidPreviewScript + "</script></body></html>").utf8)

    private static let head = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>pushgate playground</title>
        """#

    private static let body = #"""
        <body>
        <header><h1>pushgate playground</h1>
        <span class="sub">a unified payload in, every record <code>pushgate translate</code> writes out, drawn as devices show it</span>
        </header>
        <main>
        <section id="input">
          <div class="row">
            <label for="example">Example</label>
            <select id="example"><option value="">— pick an example —</option></select>
          </div>
          <div id="editor-wrap">
            <div id="backdrop" aria-hidden="true"></div>
            <textarea id="payload" spellcheck="false" autocomplete="off" aria-label="unified payload"></textarea>
          </div>
          <div id="highlight-info" class="muted"></div>
          <fieldset><legend>Input record</legend>
            <div class="grid">
              <label>topic <input id="topic" value="push.unified"></label>
              <label>partition <input id="partition" type="number" min="0" value="0"></label>
              <label>offset <input id="offset" type="number" min="0" value="0"></label>
              <label>key <input id="key" placeholder="none (null)"></label>
              <label>timestamp ms <input id="timestamp" placeholder="now"></label>
            </div>
            <label class="block"><span>headers, one <code>NAME=VALUE</code> per line</span>
              <textarea id="headers" rows="2" spellcheck="false"></textarea></label>
          </fieldset>
          <fieldset><legend>Options</legend>
            <span>--android-formats</span>
            <label><input type="checkbox" id="fmt-android-expandable" checked> android-expandable</label>
            <label><input type="checkbox" id="fmt-fcm"> fcm</label>
            <label class="gap"><input type="checkbox" id="lenient"> --lenient</label>
          </fieldset>
        </section>
        <section id="output">
          <div id="status" class="muted">type a payload or pick an example</div>
          <div id="request-error" hidden></div>
          <div id="records"></div>
        </section>
        </main>
        """#
}
