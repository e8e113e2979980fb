function drawAndroidExpandable(v) {
  const a = v.alert || {}, x = a.expandable;
  const actions = x && Array.isArray(x["expandable-actions"]) ? x["expandable-actions"] : [];
  const collapsed = el("div", { class: "shade collapsed" },
    el("div", { class: "app" }, el("span", {}, "▣ your app · now")),
    a.subject !== undefined ? el("div", { class: "title" }, a.subject) : null,
    el("div", { class: "text" }, a.message));
  let expanded = null;
  if (x) expanded = el("div", { class: "shade expanded" },
    el("div", { class: "app" }, el("span", {}, "▣ your app · now · expanded")),
    a.subject !== undefined ? el("div", { class: "title" }, a.subject) : null,
    x.type === "image" ? el("div", { class: "text" }, a.message) : null,
    x.type === "image" ? el("div", { class: "bigpic" }, image(x.value)) : el("div", { class: "bigtext" }, x.value),
    actions.length ? el("div", { class: "actions" }, actions.map(b =>
      el("span", { class: "action", title: actionText(b) }, (b.name === undefined ? b.type : b.name).toUpperCase()))) : null);
  return el("div", { class: "android preview-android-expandable" }, collapsed, expanded,
    el("div", { class: "facts" }, fact("expandable", x && x.type), fact("tap", actionText(a["notification-action"]))));
}
function ledColor(light) {
  const c = light && light.color;
  if (!c) return null;
  const ch = k => Math.round((typeof c[k] === "number" ? c[k] : 0) * 255);
  return "rgb(" + ch("red") + ", " + ch("green") + ", " + ch("blue") + ")";
}
function drawFCM(v) {
  const m = v.message || {}, android = m.android || {}, n = android.notification || {};
  const led = ledColor(n.light_settings);
  const data = m.data && typeof m.data === "object" ? Object.entries(m.data) : [];
  const shade = el("div", { class: "shade" },
    el("div", { class: "app" },
      el("span", { class: "icon-name" }, "▣ " + (n.icon !== undefined ? n.icon : "default icon")),
      el("span", {}, "· your app · now"),
      led ? el("span", { class: "led", title: "LED " + led, style: { color: led, background: led } }) : null),
    n.title !== undefined ? el("div", { class: "title" }, n.title) : null,
    n.body !== undefined ? el("div", { class: "text" }, n.body) : null,
    n.title_loc_key !== undefined ? el("div", { class: "text" }, "title_loc_key " + n.title_loc_key) : null,
    n.body_loc_key !== undefined ? el("div", { class: "text" }, "body_loc_key " + n.body_loc_key) : null,
    android.notification === undefined ? el("div", { class: "text" }, "data message: no notification is shown") : null);
  return el("div", { class: "android preview-fcm" }, shade,
    el("div", { class: "facts" }, fact("channel", n.channel_id), fact("icon", n.icon), fact("sound", n.sound),
      fact("click", n.click_action), fact("LED", led), fact("priority", android.priority), fact("ttl", android.ttl),
      fact("collapse key", android.collapse_key), m.validate_only ? fact("validate only", "true") : null,
      data.length ? fact("data", data.map(([k, val]) => k + "=" + val).join(", ")) : null));
}
