extension PlaygroundPage {
    /// The page's CSS.
    static let style = #"""
        *{box-sizing:border-box}
        body{margin:0;font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d1d1f;background:#f2f2f5}
        header{padding:10px 18px;background:#1d2333;color:#fff;display:flex;gap:16px;align-items:baseline}
        header h1{font-size:18px;margin:0}
        header .sub{color:#aab;font-size:13px}
        main{display:grid;grid-template-columns:minmax(360px,1fr) minmax(420px,1.3fr);gap:14px;padding:14px}
        section{min-width:0}
        .row{display:flex;gap:8px;align-items:center;margin-bottom:6px}
        select,input,textarea{font:inherit}
        #editor-wrap{position:relative;height:340px;border:1px solid #bbc;border-radius:6px;background:#fff}
        #backdrop,#payload{position:absolute;inset:0;margin:0;padding:8px;border:0;font:13px/1.45 ui-monospace,Menlo,Consolas,monospace;
          white-space:pre-wrap;word-wrap:break-word;overflow-wrap:anywhere;overflow:auto;letter-spacing:0;tab-size:4}
        #backdrop{color:transparent;pointer-events:none}
        #backdrop mark{color:transparent;background:#ffd54f;border-radius:2px;box-shadow:0 0 0 1px #e0a800}
        #backdrop mark.warning{background:#c5e1ff;box-shadow:0 0 0 1px #6aa5e6}
        #payload{background:transparent;resize:none;color:#1d1d1f;outline:none}
        #highlight-info{min-height:20px;margin:4px 0;font-size:12px}
        fieldset{border:1px solid #ccd;border-radius:6px;margin:8px 0;padding:6px 10px;background:#fff;min-width:0}
        .grid input{min-width:0;width:100%}
        .grid{display:grid;grid-template-columns:repeat(3,1fr);gap:4px 10px}
        .grid label,.block{display:flex;flex-direction:column;font-size:12px;color:#555}
        .block textarea{font:12px ui-monospace,monospace}
        .gap{margin-left:18px}
        .muted{color:#667}
        #status{font-weight:600;margin-bottom:8px}
        #request-error{background:#fde8e8;border:1px solid #e59;padding:8px;border-radius:6px;white-space:pre-wrap}
        .record{background:#fff;border:1px solid #ccd;border-radius:8px;margin-bottom:12px;overflow:hidden}
        .record>.meta{display:flex;gap:10px;align-items:center;padding:6px 10px;background:#eef0f6;flex-wrap:wrap}
        .record.dead-letter>.meta{background:#fbe3e3}
        .badge{font-weight:700;padding:1px 8px;border-radius:10px;background:#1d2333;color:#fff;font-size:12px}
        .dead-letter .badge{background:#b3261e}
        .record .body{padding:10px;display:flex;gap:14px;flex-wrap:wrap}
        .record .preview{flex:0 0 auto;max-width:400px}
        .record .details{flex:1 1 260px;min-width:0}
        table.headers{border-collapse:collapse;font:12px ui-monospace,monospace;width:100%}
        table.headers td{border-top:1px solid #eee;padding:2px 6px;vertical-align:top;word-break:break-all}
        table.headers td:first-child{color:#555;white-space:nowrap;word-break:normal}
        pre.value{font:12px ui-monospace,monospace;white-space:pre-wrap;word-break:break-all;background:#f7f7fa;padding:6px;margin:4px 0;max-height:200px;overflow:auto}
        ul.problems{list-style:none;padding:0;margin:0 0 8px}
        ul.problems li{border-left:4px solid #b3261e;background:#fff5f5;margin:4px 0;padding:4px 8px;cursor:pointer}
        ul.problems li.warning{border-color:#2f6fca;background:#f3f8ff}
        ul.problems li.active{outline:2px solid #e0a800}
        ul.problems .code{font-weight:700;font-family:ui-monospace,monospace}
        ul.problems a.path{font-family:ui-monospace,monospace;margin:0 6px}
        h4{margin:8px 0 4px;font-size:12px;text-transform:uppercase;color:#667}
        .img-ph{display:flex;align-items:center;justify-content:center;background:repeating-linear-gradient(45deg,#dde,#dde 6px,#eef 6px,#eef 12px);
          color:#556;font-size:10px;text-align:center;overflow:hidden;word-break:break-all;padding:4px}
        /* iOS banner */
        .ios{width:340px;background:linear-gradient(160deg,#3a4a7a,#8a5a9a);padding:14px;border-radius:22px}
        .ios .banner{background:rgba(245,245,250,.93);border-radius:14px;padding:9px 11px;position:relative}
        .ios .app{display:flex;align-items:center;gap:6px;font-size:11px;color:#666;text-transform:uppercase}
        .ios .icon{width:18px;height:18px;border-radius:5px;background:#1d2333;position:relative}
        .ios .icon .badge-count{position:absolute;top:-7px;right:-9px;background:#ff3b30;color:#fff;border-radius:9px;font-size:10px;padding:0 5px;line-height:15px}
        .ios .title{font-weight:600}
        .ios .subtitle{font-weight:500}
        .ios .buttons{margin-top:6px;border-radius:12px;overflow:hidden;background:rgba(245,245,250,.93)}
        .ios .buttons div{padding:8px 12px;border-top:1px solid #ddd;color:#0a64d6;text-align:center}
        .ios .buttons div.destructive{color:#ff3b30}
        .facts{font-size:11px;color:#eef;margin-top:6px;display:flex;flex-wrap:wrap;gap:4px 10px}
        .facts span b{font-weight:600}
        .light .facts,.facts.light{color:#445}
        /* carousel */
        .ios.preview-adobe-carousel{width:380px}
        .carousel{border-radius:14px;padding:10px}
        .carousel .strip{display:flex;gap:6px;overflow:hidden;margin:8px 0}
        .carousel .item{flex:0 0 auto;width:100px}
        .carousel.layout-default .item{width:150px}
        .carousel .item img,.carousel .item .img-ph{width:100%;height:80px;object-fit:cover;border-radius:6px}
        .carousel .txt{font-size:12px}
        .carousel .nav{display:flex;justify-content:space-between;font-size:12px}
        /* facebook card */
        .fb-screen{width:340px;min-height:300px;padding:18px;display:flex;align-items:center;justify-content:center;border-radius:12px;
          background-image:repeating-linear-gradient(0deg,#e8e8ee,#e8e8ee 20px,#f4f4f8 20px,#f4f4f8 40px)}
        .fb-backdrop{padding:18px;border-radius:12px;width:100%}
        .fb-card{overflow:hidden;position:relative;margin:0 auto;background:#fff}
        .fb-card .dismiss{position:absolute;top:4px;right:8px;font-weight:700;z-index:2}
        .fb-card .hero{position:relative;display:flex;background-size:cover;background-position:center}
        .fb-card .styled{white-space:pre-wrap;width:100%}
        .fb-card .fb-actions{display:flex;gap:6px}
        .fb-card .fb-actions.vertical{flex-direction:column}
        .fb-card .fb-button{flex:1;text-align:center;padding:8px;border-style:solid;border-width:0}
        /* android */
        .android{width:360px;background:#202124;padding:12px;border-radius:18px;color:#e8eaed}
        .android .shade{background:#303134;border-radius:14px;padding:10px 12px;margin-bottom:8px}
        .android .app{font-size:11px;color:#aab;display:flex;gap:6px;align-items:center}
        .android .led{width:10px;height:10px;border-radius:50%;display:inline-block;box-shadow:0 0 6px currentColor}
        .android .title{font-weight:600;color:#fff}
        .android .bigpic img,.android .bigpic .img-ph{width:100%;height:140px;object-fit:cover;border-radius:8px;margin-top:6px}
        .android .actions{display:flex;gap:14px;margin-top:8px;font-weight:600;color:#8ab4f8;font-size:13px}
        .android .facts{color:#aab}
        """#
}
