// The table chat beside the board (on a phone, behind a "Chat" tab at the foot of the screen).
// The players see the players' channel and everybody watching the spectators' one; the players
// get the spectators' as a second tab once the game is over. The two are kept apart as lichess
// keeps them, so that nobody watching can coach a player. Messages come over the game's socket
// (GameClient.onChat) and are kept by id, so one that arrives twice shows once; each is written
// as text (textContent), never as HTML. Who may write, how long and how often is the server's
// decision: the page shows its refusals as they come. Muting an author hides their messages in
// this browser (remembered), with an Unmute button under the log; Report sends a message to the
// site's operator after a confirmation.
import { h, clear } from "../dom.js";
import { api, showError } from "../api.js";
import { account } from "../session.js";
import { t, seatName } from "../text.js";
import { mutedAuthors, rememberMuted } from "../store.js";

const KEEP = 200; // messages kept per channel: the server's backlog
const PHONE = "(max-width: 800px)"; // as style.css, where the chat waits behind its tab

export function chatPanel(id, client) {
  const logs = { players: new Map(), spectators: new Map() };
  const reported = new Set();
  let game = null;
  let shown = null; // the channel on screen
  let open = false; // the sheet on a phone
  let unread = 0;

  const tabs = h("div", { class: "chat-tabs", id: "chat-tabs" });
  const log = h("div", { class: "chat-log", id: "chat-log", role: "log", "aria-live": "polite", "aria-label": t("chat.title") });
  const mutedLine = h("p", { class: "chat-muted muted", id: "chat-muted", hidden: true });
  const input = h("input", { type: "text", id: "chat-input", maxlength: 300, autocomplete: "off", "aria-label": t("chat.label"), placeholder: t("chat.placeholder") });
  const send = h("button", { type: "submit", id: "chat-send" }, t("chat.send"));
  const form = h("form", { class: "chat-form", id: "chat-form", onsubmit: (event) => { event.preventDefault(); submit(); } }, input, " ", send);
  const signIn = h("p", { class: "chat-signin", id: "chat-signin", hidden: true }, h("a", { href: "#/account" }, t("chat.signIn")), t("chat.signInWhy"));
  const error = h("p", { class: "chat-error", id: "chat-error", role: "alert", hidden: true });
  const note = h("p", { class: "muted chat-note", id: "chat-note", "aria-live": "polite" });
  const close = h("button", { type: "button", class: "chat-close", id: "chat-close", "aria-label": t("chat.close"), onclick: () => setOpen(false) }, "×");
  const panel = h("section", { class: "panel chat", id: "chat", hidden: true, "aria-label": t("chat.title") },
    h("div", { class: "chat-head" }, h("h3", {}, t("chat.title")), tabs, close), log, mutedLine, form, signIn, error, note);
  const badge = h("span", { class: "chat-unread", id: "chat-unread" });
  const tab = h("button", { type: "button", class: "chat-tab", id: "chat-tab", hidden: true, "aria-expanded": "false", "aria-controls": "chat", onclick: () => setOpen(!open) }, t("chat.open"), badge);

  const seated = () => (game?.your_seats || []).length > 0;
  // The players' chat where several people share the table (not against the AI, not one screen).
  const shared = () => (game?.seats || []).filter((seat) => seat.kind !== "ai" && seat.kind !== "hotseat").length > 1;
  function channels() {
    if (!game) return [];
    if (!seated()) return ["spectators"];
    return [...(shared() ? ["players"] : []), ...(game.terminal ? ["spectators"] : [])];
  }
  const canWrite = (channel) => (channel === "players" ? seated() : !!account() && (!seated() || !!game.terminal));
  const isMine = (m) => (m.seat !== null && m.seat !== undefined ? m.channel === "players" && (game?.your_seats || []).includes(m.seat) : m.author === `@${account()?.name}`);
  // A seat is muted in this game only; a signed-in spectator everywhere.
  const muteKey = (m) => (m.author?.startsWith("@") ? m.author : `${id}/${m.author}`);
  const nameOf = (m) => (m.seat !== null && m.seat !== undefined ? seatName(m.name) : m.name);

  function setOpen(value) {
    open = value;
    panel.classList.toggle("open", open);
    tab.setAttribute("aria-expanded", String(open));
    if (open) {
      unread = 0;
      badge.textContent = "";
      log.scrollTop = log.scrollHeight;
      if (!form.hidden) input.focus();
    }
  }

  function say(text, isError = false) {
    const box = isError ? error : note;
    box.textContent = text;
    if (isError) box.hidden = !text;
  }

  function drawTabs(list) {
    clear(tabs);
    if (list.length < 2) {
      if (list.length) tabs.append(h("span", { class: "muted chat-channel-name" }, t(`chat.${list[0]}`)));
      return;
    }
    for (const channel of list) {
      tabs.append(h("button", { type: "button", class: "chat-channel", "data-channel": channel, "aria-pressed": String(channel === shown),
        onclick: () => { shown = channel; say("", true); draw(); } }, t(`chat.${channel}`)));
    }
  }

  function line(m) {
    const name = nameOf(m);
    const item = h("div", { class: `chat-message${isMine(m) ? " mine" : ""}`, "data-id": m.id, "data-channel": m.channel },
      h("span", { class: "chat-name" }, name), " ", h("span", { class: "chat-text" }, m.text));
    if (isMine(m)) return item;
    const report = h("button", { type: "button", class: "chat-report", "aria-label": t("chat.reportLabel", { name }), onclick: () => reportMessage(m, name, report) }, t("chat.report"));
    if (reported.has(m.id)) { report.disabled = true; report.textContent = t("chat.reported"); }
    const mute = h("button", { type: "button", class: "chat-mute", "aria-label": t("chat.muteLabel", { name }), onclick: () => { rememberMuted(muteKey(m), true); draw(); } }, t("chat.mute"));
    item.append(" ", h("span", { class: "chat-actions" }, mute, " ", report));
    return item;
  }

  function draw() {
    const list = channels();
    if (!list.includes(shown)) shown = list[0] ?? null;
    panel.hidden = !shown;
    tab.hidden = !shown;
    drawTabs(list);
    if (!shown) return;
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 8;
    const muted = new Set(mutedAuthors());
    const hidden = new Map(); // muted authors with messages here: key -> name
    clear(log);
    for (const m of [...logs[shown].values()].sort((a, b) => a.id - b.id)) {
      if (muted.has(muteKey(m))) hidden.set(muteKey(m), nameOf(m));
      else log.append(line(m));
    }
    if (!log.firstChild) log.append(h("p", { class: "muted chat-empty" }, t("chat.empty")));
    clear(mutedLine);
    mutedLine.hidden = !hidden.size;
    if (hidden.size) {
      mutedLine.append(t("chat.muted"));
      for (const [key, name] of hidden) {
        mutedLine.append(" ", h("button", { type: "button", class: "chat-unmute", "data-author": key, onclick: () => { rememberMuted(key, false); draw(); } }, t("chat.unmute", { name })));
      }
    }
    const writable = canWrite(shown);
    form.hidden = !writable;
    signIn.hidden = writable || shown !== "spectators" || !!account();
    if (atBottom) log.scrollTop = log.scrollHeight;
  }

  // New messages of a channel (a backlog, a live one, the answer to our own): kept by id.
  function add(channel, messages, backlog = true) {
    const kept = logs[channel];
    if (!kept) return;
    const muted = new Set(mutedAuthors());
    let fresh = 0;
    for (const m of messages || []) {
      if (kept.has(m.id)) continue;
      kept.set(m.id, m);
      if (!backlog && !isMine(m) && !muted.has(muteKey(m))) fresh++;
    }
    for (const old of [...kept.keys()].sort((a, b) => a - b).slice(0, Math.max(0, kept.size - KEEP))) kept.delete(old);
    if (fresh && !open && matchMedia(PHONE).matches && channels().includes(channel)) {
      unread += fresh;
      badge.textContent = ` (${t("chat.unread", { n: unread })})`;
    }
    draw();
  }

  async function fetchChannel(channel) {
    try {
      const answer = await api(`/api/games/${id}/chat?channel=${channel}`, { token: client.token });
      input.maxLength = answer.length;
      add(answer.channel, answer.messages);
    } catch { /* not readable (yet): the socket brings what is */ }
  }

  async function submit() {
    const text = input.value.trim();
    if (!text || !shown || send.disabled) return;
    send.disabled = true;
    try {
      const answer = await api(`/api/games/${id}/chat`, { method: "POST", body: { channel: shown, text }, token: client.token });
      input.value = "";
      say("", true);
      add(answer.message.channel, [answer.message]);
    } catch (e) {
      say(e.message, true); // too long, too fast, signed out: the server's words
    } finally {
      send.disabled = false;
      input.focus();
    }
  }

  async function reportMessage(m, name, button) {
    if (!confirm(t("chat.reportConfirm", { name }))) return;
    button.disabled = true;
    try {
      await api(`/api/games/${id}/chat/${m.id}/report`, { method: "POST", body: {}, token: client.token });
      reported.add(m.id);
      button.textContent = t("chat.reported");
      say(t("chat.reportedNote"));
    } catch (e) {
      button.disabled = false;
      showError(e.message);
    }
  }

  client.onChat = (message) => add(message.channel, message.messages, !!message.backlog);
  const unsubscribe = client.subscribe((next) => {
    const ended = next.terminal && game && !game.terminal;
    game = next;
    draw();
    if (ended && seated()) fetchChannel("spectators"); // the players may read it now
  });
  fetchChannel(seated() ? "players" : "spectators");

  return {
    panel,
    tab,
    stop() {
      client.onChat = null;
      unsubscribe();
    },
  };
}
