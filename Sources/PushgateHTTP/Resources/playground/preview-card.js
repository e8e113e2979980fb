const cardWidths = { small: 220, medium: 270, large: 300 };
function cssColor(c, fallback) { return typeof c === "string" && /^#[0-9A-Fa-f]{8}$/.test(c) ? c : fallback; }
// A card background: a color fills, an image or GIF is drawn (placeholder when it cannot load).
function applyBackground(box, bg) {
  if (!bg) return;
  if (bg._type === "Color") box.style.background = cssColor(bg.rgbaHex, "transparent");
  else if (bg._type === "Image" || bg._type === "GIF") {
    const img = image(bg.url, "bg-img");
    Object.assign(img.style, { position: "absolute", inset: "0", width: "100%", height: "100%", objectFit: "cover" });
    box.style.position = "relative";
    box.prepend(img);
  }
}
function styledText(t) {
  if (!t || t._type !== "StyledText") return null;
  return el("div", { class: "styled", "data-align": t.align || "", style: {
    color: cssColor(t.color, "#000000"), fontSize: (t.size !== undefined ? t.size : 14) + "px",
    textAlign: t.align || "left", fontFamily: t.font || "inherit", position: "relative" } }, t.text);
}
function drawCard(v) {
  const card = v.fb_push_card || {}, inset = card.contentInset !== undefined ? card.contentInset : 10;
  const width = cardWidths[card.size] || 260;
  const box = el("div", { class: "fb-card", "data-size": card.size, style: {
    width: width + "px", borderRadius: (card.cornerRadius || 0) + "px" } });
  box.append(el("div", { class: "dismiss", style: { color: cssColor(card.dismissColor, "#555555") } }, "×"));
  if (card.hero) {
    const height = Math.round((card.hero.height !== undefined ? card.hero.height : 0.5) * width * 1.1);
    const justify = { top: "flex-start", center: "center", bottom: "flex-end" }[card.hero.contentAlign] || "center";
    const hero = el("div", { class: "hero", style: { height: height + "px", alignItems: justify, padding: inset + "px" } },
      styledText(card.hero.content));
    applyBackground(hero, card.hero.background);
    box.append(hero);
  }
  if (card.body) {
    const body = el("div", { class: "fb-body", style: { padding: inset + "px", position: "relative" } }, styledText(card.body.content));
    applyBackground(body, card.body.background);
    box.append(body);
  }
  if (card.actions) {
    const a = card.actions, buttons = Array.isArray(a.actions) ? a.actions : [];
    const row = el("div", { class: "fb-actions " + (a.layoutStyle || "horizontal"), style: {
      padding: (a.style === "detached" ? (a.contentInset || inset) : 0) + "px", paddingTop: (a.topInset || 0) + "px" } },
      buttons.map(b => el("div", { class: "fb-button", title: b.url || "dismiss", style: {
        background: cssColor(b.backgroundColor, "#EEEEEE"), borderColor: cssColor(b.borderColor, "transparent"),
        borderWidth: (b.borderWidth || 0) + "px", borderRadius: (a.cornerRadius || 0) + "px",
        minHeight: (a.height || 0) + "px" } }, styledText(b.content) || "(button)")));
    applyBackground(row, a.background);
    box.append(row);
  }
  if (!card.hero && !card.body && !card.actions && card.alert)
    box.append(el("div", { style: { padding: inset + "px" } }, el("b", {}, card.alert.title || ""), el("div", {}, card.alert.body || "")));
  const backdrop = el("div", { class: "fb-backdrop", style: { background: cssColor(card.backdropColor, "transparent") } }, box);
  return el("div", { class: "preview-fb-card" }, el("div", { class: "fb-screen" }, backdrop),
    el("div", { class: "facts light" }, fact("size", card.size), fact("corner radius", card.cornerRadius),
      fact("backdrop", card.backdropColor), fact("dismiss", card.dismissColor),
      fact("campaign", v.fb_push_payload && v.fb_push_payload.campaign),
      fact("layout", card.actions && (card.actions.style + " / " + card.actions.layoutStyle)),
      fact("push alert", card.alert && ((card.alert.title || "") + " — " + (card.alert.body || "")))));
}
