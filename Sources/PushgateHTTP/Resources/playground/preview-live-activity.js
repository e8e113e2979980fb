// A Live Activity push (an `apns` value whose `aps` has `event`), drawn on the lock screen: the alert that
// lights the screen, the activity with its event, its content-state as the app's ContentState receives it
// (and, for a start, its attributes), the stale and dismissal times; from the output value only.
function laTime(seconds) {
  if (typeof seconds !== "number" || !isFinite(seconds)) return null;
  const d = new Date(seconds * 1000);
  return isNaN(d.getTime()) ? String(seconds) : d.toISOString().replace("T", " ").replace(/\.000Z$/, " UTC");
}
function laValue(value) {
  return typeof value === "string" ? "\u201c" + value + "\u201d" : JSON.stringify(value);
}
// An object of the app's own types as Swift's Codable hands it to the app: one row per property.
function laFields(object, kind) {
  const entries = object && typeof object === "object" && !Array.isArray(object) ? Object.entries(object) : [];
  if (!entries.length) return el("div", { class: "la-fields empty muted", "data-kind": kind }, kind + ": no properties");
  return el("table", { class: "la-fields", "data-kind": kind },
    entries.map(([name, value]) => el("tr", { "data-name": name }, el("td", {}, name), el("td", {}, laValue(value)))));
}
function drawLiveActivity(v) {
  const aps = v.aps, event = aps.event, alert = aps.alert && typeof aps.alert === "object" ? aps.alert : null;
  const stale = typeof aps["stale-date"] === "number" && typeof aps.timestamp === "number" && aps["stale-date"] <= aps.timestamp;
  const eventLabel = { start: "started", update: "updated", end: "ended" }[event] || String(event);
  const alertBanner = alert
    ? el("div", { class: "banner la-alert" },
        el("div", { class: "app" }, el("div", { class: "icon" }), el("span", {}, "your app · Live Activity alert"),
          el("span", { style: { marginLeft: "auto" } }, alert.sound !== undefined ? "\u266a" : "silent")),
        alert.title !== undefined ? el("div", { class: "title" }, alert.title) : null,
        alert.body !== undefined ? el("div", { class: "text" }, alert.body) : null)
    : el("div", { class: "la-no-alert muted" }, "no alert: the activity changes quietly");
  const type = aps["attributes-type"];
  const activity = el("div", { class: "la-activity event-" + event + (stale ? " stale" : "") },
    el("div", { class: "app" }, el("div", { class: "icon" }), el("span", {}, type !== undefined ? type : "your app's activity"),
      el("span", { class: "la-event", "data-event": event }, eventLabel)),
    el("div", { class: "la-caption" }, "ContentState" + (event === "end" ? " (final)" : "")),
    laFields(aps["content-state"], "content-state"),
    event === "start" ? el("div", { class: "la-caption" }, (type !== undefined ? type : "attributes") + " (static)") : null,
    event === "start" ? laFields(aps.attributes, "attributes") : null,
    stale ? el("div", { class: "la-stale" }, "shown as out of date") : null,
    event === "end" ? el("div", { class: "la-ending" }, aps["dismissal-date"] !== undefined
      ? "leaves the lock screen at " + laTime(aps["dismissal-date"]) : "stays on the lock screen up to 4 hours") : null);
  return el("div", { class: "ios lockscreen preview-live-activity" },
    el("div", { class: "la-clock" }, "9:41"),
    alertBanner, activity,
    el("div", { class: "facts" }, fact("event", event), fact("sound", alert && alert.sound), fact("timestamp", laTime(aps.timestamp)),
      fact("stale", laTime(aps["stale-date"])), fact("dismissal", laTime(aps["dismissal-date"])),
      fact("relevance", aps["relevance-score"]), aps["input-push-token"] ? fact("asks for push token", "yes") : null,
      fact("channel", aps["input-push-channel"])));
}
